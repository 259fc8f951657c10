/**
 * @module The settings svc:metrics declares; the kernel merges them into its table when the plugin is loaded.
 */
import { setting, settingTypes } from "svc/plugin";

const { boolean } = settingTypes;

export const metricsSettings = {
  metricsEnabled: setting(boolean(), {
    env: "SERVICE_METRICS_ENABLED",
    flag: "--without-metrics",
    default: true,
    help: "Serve Prometheus metrics at `GET /metrics` (operator access, like `/traces`).",
  }),
};
