/**
 * @module The settings svc:runs declares; the kernel merges them into its table when the plugin is loaded.
 */
import { setting, settingTypes } from "svc/plugin";

const { decimal, integer } = settingTypes;

export const runsSettings = {
  runRetentionSeconds: setting(integer(60, 31_536_000), {
    env: "SERVICE_RUN_RETENTION_SECONDS",
    default: 86_400,
    help: "Seconds a background run (record, result and events) is kept after its last change.",
  }),
  runMaxEvents: setting(integer(10, 1_000_000), {
    env: "SERVICE_RUN_MAX_EVENTS",
    default: 10_000,
    help: "Events kept per run for replay; beyond it the oldest are dropped (a resume from before them starts at the oldest kept).",
  }),
  runMaxRuns: setting(integer(1, 10_000_000), {
    env: "SERVICE_RUN_MAX_RUNS",
    default: 10_000,
    help: "With the memory run store: runs kept; the oldest are dropped beyond it (Redis keeps runs for the retention).",
  }),
  runLeaseSeconds: setting(decimal(0.3, 60), {
    env: "SERVICE_RUN_LEASE_SECONDS",
    default: 10,
    help: "The lease of a running run, renewed every third of it: a run whose instance stops renewing (killed, frozen) is marked failed after about this long plus a third.",
  }),
};
