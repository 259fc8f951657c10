/**
 * @module The settings svc:runs declares; the kernel merges them into its table when the plugin is loaded.
 */
import { setting, settingTypes } from "svc/plugin";

const { decimal, integer, list, optionalText } = settingTypes;

/** Webhook settings, shared with other plugins that call back (spread this table into theirs). */
export const webhookSettings = {
  webhookAllowedUrls: setting(list(), {
    env: "SERVICE_WEBHOOK_ALLOWED_URLS",
    default: [],
    help: "Origins or URL prefixes that may receive webhooks (a run's webhook_url), comma-separated: https://hooks.example.com or https://example.com/hooks/. Empty: every webhook URL is refused (400).",
  }),
  webhookSecret: setting(optionalText(), {
    env: "SERVICE_WEBHOOK_SECRET",
    default: undefined,
    help: "The HMAC-SHA256 key webhooks are signed with (Standard Webhooks headers): whsec_<base64>, or any other text used as its bytes. Needed for webhooks.",
  }),
  webhookMaxAttempts: setting(integer(1, 20), {
    env: "SERVICE_WEBHOOK_MAX_ATTEMPTS",
    default: 5,
    help: "Attempts to deliver one webhook; a network error, time-out, 408, 429 or 5xx is retried.",
  }),
  webhookRetrySeconds: setting(decimal(0.01, 3600), {
    env: "SERVICE_WEBHOOK_RETRY_SECONDS",
    default: 1,
    help: "Delay before the first retry of a webhook; it doubles for each further one (at most 5 minutes).",
  }),
  webhookTimeoutSeconds: setting(decimal(0.1, 300), {
    env: "SERVICE_WEBHOOK_TIMEOUT_SECONDS",
    default: 10,
    help: "Deadline of one webhook attempt (connect, send, answer).",
  }),
};

export const runsSettings = {
  ...webhookSettings,
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
