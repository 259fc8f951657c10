/**
 * @module The settings svc:limits declares; the kernel merges them into its table when the plugin is loaded.
 */
import { setting, settingTypes } from "svc/plugin";

const { decimal, integer } = settingTypes;

export const limitsSettings = {
  limitsDefaultMaxConcurrency: setting(integer(0, 100_000), {
    env: "SERVICE_DEFAULT_MAX_CONCURRENCY",
    default: 0,
    help: "Runs of one pipeline at once when its wrapper or deploy request sets no `max_concurrency` (0: no limit).",
  }),
  limitsDefaultTimeoutSeconds: setting(decimal(0, 7 * 24 * 3600), {
    env: "SERVICE_DEFAULT_TIMEOUT_SECONDS",
    default: 0,
    help: "A run's time limit when its wrapper or deploy request sets no `timeout_seconds` (0: none); then 504.",
  }),
  limitsMaxQueue: setting(integer(0, 1_000_000), {
    env: "SERVICE_MAX_QUEUE",
    default: 100,
    help: "Calls of one pipeline that may wait for a run slot when `max_concurrency` is reached; beyond it 429 with Retry-After.",
  }),
};
