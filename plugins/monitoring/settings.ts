/**
 * @module The settings svc:monitoring declares; the kernel merges them into its table when the plugin is loaded.
 */
import { setting, settingTypes } from "svc/plugin";

const { boolean, decimal, integer, optionalText } = settingTypes;

export const monitoringSettings = {
  monitoringEnabled: setting(boolean(), {
    env: "SERVICE_MONITORING_ENABLED",
    flag: "--without-monitoring",
    default: true,
    help: "Durable execution index and its routes.",
  }),
  monitoringRedisUrl: setting(optionalText(), {
    env: "SERVICE_MONITORING_REDIS_URL",
    default: undefined,
    help: "Keep the execution index in Redis (redis://, rediss://, or comma-separated cluster nodes) instead of memory.",
  }),
  monitoringMaxRecords: setting(integer(1, 10_000_000), {
    env: "SERVICE_MONITORING_MAX_RECORDS",
    default: 10_000,
    help: "Execution records kept; the oldest are dropped beyond it.",
  }),
  monitoringRetentionHours: setting(integer(1, 87_600), {
    env: "SERVICE_MONITORING_RETENTION_HOURS",
    default: 168,
    help: "Hours an execution record is kept after it was last written.",
  }),
  monitoringHeartbeatTimeout: setting(decimal(1, 3600), {
    env: "SERVICE_MONITORING_HEARTBEAT_TIMEOUT",
    default: 10,
    help: "With the Redis index: seconds without a heartbeat after which another instance marks a process's running executions failed (a process killed with -9). Heartbeats go every third of it.",
  }),
};
