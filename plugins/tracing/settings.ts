/**
 * @module The settings svc:tracing declares; the kernel merges them into its table when the plugin is loaded.
 */
import { setting, settingTypes } from "svc/plugin";

const { boolean, integer, list } = settingTypes;

export const tracingSettings = {
  tracingEnabled: setting(boolean(), {
    env: "SERVICE_TRACING_ENABLED",
    flag: "--without-tracing",
    default: true,
    help: "Mount the local trace API (trace buffer and `GET /traces`).",
  }),
  tracingBufferCapacity: setting(integer(1, 100_000), { env: "SERVICE_TRACING_BUFFER_CAPACITY", default: 200, help: "Traces kept in memory." }),
  tracingDefaultLimit: setting(integer(1), { env: "SERVICE_TRACING_DEFAULT_LIMIT", default: 25, help: "Default GET /traces snapshot size." }),
  tracingMaxLimit: setting(integer(1), { env: "SERVICE_TRACING_MAX_LIMIT", default: 100, help: "Largest snapshot (also capped at 100 and the buffer)." }),
  tracingSlowComponentMs: setting(integer(0), {
    env: "SERVICE_TRACING_SLOW_COMPONENT_MS",
    default: 1000,
    help: "Completed duration from which a component is highlighted as slow.",
  }),
  tracingIncludeFrameworkSpans: setting(boolean(), {
    env: "SERVICE_TRACING_INCLUDE_FRAMEWORK_SPANS",
    default: true,
    help: "Mirror the engine's pipeline and component spans into the buffer.",
  }),
  tracingIncludePayloadValues: setting(boolean(), {
    env: "SERVICE_TRACING_INCLUDE_PAYLOAD_VALUES",
    default: false,
    help: "Include redacted request values in span tags.",
  }),
  tracingExcludedSpans: setting(list(), { env: "SERVICE_TRACING_EXCLUDED_SPANS", default: [], help: "Span names to drop everywhere (exact names)." }),
};
