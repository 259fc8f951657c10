/**
 * @module Settings: one table of every setting (its environment name, CLI flag, default and
 * schema) and `loadSettings`, which merges the sources in precedence order
 * CLI flags > environment > `.env` > config file > defaults.
 */
import * as v from "valibot";
import { kernelErrors } from "./errors.js";
import { boolean, choice, decimal, integer, list, logLevel, optionalText, pathPrefix, text, type FieldSchema } from "./settings-schema.js";

interface Field<T> extends FieldSchema<T> {
  readonly env: string;
  /** Older or alternative environment names, still accepted. */
  readonly aliases?: readonly string[];
  /** The `svc run` flag that sets it, if any. */
  readonly flag?: string;
  readonly default: T;
  readonly help: string;
}

function field<T>(schema: FieldSchema<T>, spec: Omit<Field<NoInfer<T>>, keyof FieldSchema<T>>): Field<T> {
  return { ...schema, ...spec };
}

export const settingFields = {
  host: field(text(), { env: "SERVICE_HOST", flag: "--host", default: "localhost", help: "Bind host." }),
  port: field(integer(0, 65535), { env: "SERVICE_PORT", flag: "--port", default: 1416, help: "HTTP port." }),
  mcpHost: field(text(), { env: "SERVICE_MCP_HOST", default: "localhost", help: "MCP server bind host." }),
  mcpPort: field(integer(0, 65535), { env: "SERVICE_MCP_PORT", default: 1417, help: "MCP server port." }),
  mcpTransport: field(choice(["streamable-http", "sse", "stdio"] as const), {
    env: "SERVICE_MCP_TRANSPORT",
    flag: "--transport",
    default: "streamable-http",
    help: "`svc mcp run` transport: Streamable HTTP at /mcp (plus legacy SSE at /sse), legacy SSE only, or stdio.",
  }),
  mcpStateful: field(boolean(), {
    env: "SERVICE_MCP_STATEFUL",
    flag: "--stateful",
    default: false,
    help: "Issue MCP sessions on initialize (session id, server-to-client stream, list-changed notifications); requests without a session id are still served statelessly.",
  }),
  mcpJsonResponse: field(boolean(), {
    env: "SERVICE_MCP_JSON_RESPONSE",
    flag: "--json-response",
    default: false,
    help: "Answer Streamable HTTP POSTs with one JSON body instead of an SSE stream.",
  }),
  mcpMaxSessions: field(integer(1), { env: "SERVICE_MCP_MAX_SESSIONS", default: 100, help: "Open MCP sessions (Streamable HTTP and SSE) at most; more are refused with 503." }),
  mcpSessionIdleTimeout: field(decimal(1, 86_400), {
    env: "SERVICE_MCP_SESSION_IDLE_TIMEOUT",
    default: 300,
    help: "Seconds after which an idle MCP session is closed.",
  }),
  mcpManagementTools: field(boolean(), {
    env: "SERVICE_MCP_MANAGEMENT_TOOLS",
    default: true,
    help: "List the deploy, undeploy and status tools on the MCP server.",
  }),
  pipelinesDir: field(text(), {
    env: "SERVICE_PIPELINES_DIR",
    flag: "--pipelines-dir",
    default: "./pipelines",
    help: "Pipelines directory; everything in it is deployed at startup.",
  }),
  additionalModulePath: field(optionalText(), {
    env: "SERVICE_ADDITIONAL_MODULE_PATH",
    aliases: ["SERVICE_ADDITIONAL_PYTHON_PATH"],
    flag: "--additional-module-path",
    default: undefined,
    help: "Extra resolution root for code shared by wrappers.",
  }),
  rootPath: field(pathPrefix(), {
    env: "SERVICE_ROOT_PATH",
    flag: "--root-path",
    default: "",
    help: "Path prefix under which a reverse proxy serves svc (advertised in OpenAPI and pages).",
  }),
  yamlResultShape: field(choice(["outputs", "hayhooks"]), {
    env: "SERVICE_YAML_RESULT_SHAPE",
    default: "outputs",
    help: "What a YAML pipeline's /run answers: `outputs` (keyed by the declared outputs) or `hayhooks` (the raw pipeline output keyed by component, as Hayhooks answers).",
  }),
  workers: field(integer(1, 64), { env: "SERVICE_WORKERS", flag: "--workers", default: 1, help: "Worker processes serving one port." }),
  clusterRedisUrl: field(optionalText(), {
    env: "SERVICE_CLUSTER_REDIS_URL",
    default: undefined,
    help: "Run as one service with every instance that uses this Redis (redis://, rediss://, user:password@, comma-separated cluster nodes): deployed pipelines and the execution index are shared.",
  }),
  clusterReconcileInterval: field(decimal(0.1, 3600), {
    env: "SERVICE_CLUSTER_RECONCILE_INTERVAL",
    default: 5,
    help: "Seconds between full checks of the cluster's deployed pipelines (changes are also announced at once).",
  }),
  instanceName: field(optionalText(), {
    env: "SERVICE_INSTANCE_NAME",
    default: undefined,
    help: "This instance's name in the cluster's status and logs (default: host name and process id).",
  }),
  logLevel: field(logLevel(), { env: "LOG", aliases: ["SERVICE_LOG_LEVEL"], default: "INFO", help: "Log level; DEBUG logs every request and step." }),
  showTracebacks: field(boolean(), {
    env: "SERVICE_SHOW_TRACEBACKS",
    default: false,
    help: "Include stack traces in HTTP and MCP error responses.",
  }),
  maxBodyBytes: field(integer(1, 1024 ** 3), {
    env: "SERVICE_MAX_BODY_BYTES",
    default: 4 * 1024 * 1024,
    help: "Largest JSON request body; larger bodies get 413.",
  }),
  maxUploadBytes: field(integer(1, 16 * 1024 ** 3), {
    env: "SERVICE_MAX_UPLOAD_BYTES",
    default: 100 * 1024 * 1024,
    help: "Largest multipart upload (all files and fields); larger uploads get 413.",
  }),
  maxUploadFileBytes: field(integer(1, 16 * 1024 ** 3), {
    env: "SERVICE_MAX_UPLOAD_FILE_BYTES",
    default: 25 * 1024 * 1024,
    help: "Largest single uploaded file; larger files get 413.",
  }),
  filesMaxFileBytes: field(integer(1, 16 * 1024 ** 3), {
    env: "SERVICE_FILES_MAX_FILE_BYTES",
    default: 25 * 1024 * 1024,
    help: "Largest file `POST /v1/files` takes; larger files get 413.",
  }),
  filesMaxTotalBytes: field(integer(1, 64 * 1024 ** 3), {
    env: "SERVICE_FILES_MAX_TOTAL_BYTES",
    default: 256 * 1024 * 1024,
    help: "Bytes the in-memory file store holds at most; uploads beyond it get 413 until files are deleted or expire.",
  }),
  filesTtl: field(integer(0), {
    env: "SERVICE_FILES_TTL",
    default: 86_400,
    help: "Seconds an uploaded file lives (`expires_at`); 0 keeps it until deleted.",
  }),
  maxJsonDepth: field(integer(1, 10_000), {
    env: "SERVICE_MAX_JSON_DEPTH",
    default: 100,
    help: "Deepest nesting of objects and arrays a JSON body may have; deeper bodies get 400.",
  }),
  headersTimeout: field(decimal(0.1, 3600), {
    env: "SERVICE_HEADERS_TIMEOUT",
    default: 20,
    help: "Seconds a client may take to send a request's line and headers; slower requests get 408 and are closed.",
  }),
  bodyTimeout: field(decimal(0.1, 3600), {
    env: "SERVICE_BODY_TIMEOUT",
    default: 30,
    help: "Seconds a request body may pause while it arrives; a stalled body gets 408 and its connection is closed. Long responses and streams are not affected.",
  }),
  keepAliveTimeout: field(decimal(0, 3600), {
    env: "SERVICE_KEEP_ALIVE_TIMEOUT",
    default: 5,
    help: "Seconds an idle keep-alive connection stays open between requests (behind a load balancer, set it above the balancer's idle time-out).",
  }),
  authKeysFile: field(optionalText(), {
    env: "SERVICE_AUTH_KEYS_FILE",
    default: undefined,
    help: "Keys file of the svc:auth plugin (YAML or JSON, hashes only); `svc auth add-key` writes it.",
  }),
  authProtectDocs: field(boolean(), {
    env: "SERVICE_AUTH_PROTECT_DOCS",
    default: false,
    help: "With svc:auth, the OpenAPI document and the docs pages need a key too (a browser cannot send one: read them with a client that does).",
  }),
  corsAllowOrigins: field(list(), {
    env: "SERVICE_CORS_ALLOW_ORIGINS",
    default: [],
    help: "Origins allowed by CORS (`*` for any); CORS headers are sent only when set.",
  }),
  gracefulShutdownTimeout: field(decimal(0, 300), {
    env: "SERVICE_GRACEFUL_SHUTDOWN_TIMEOUT",
    default: 5,
    help: "Seconds in-flight requests may take to finish on shutdown before they are aborted.",
  }),
  sseHeartbeatMs: field(integer(100, 3_600_000), {
    env: "SERVICE_SSE_HEARTBEAT_MS",
    default: 15_000,
    help: "Interval of the comment heartbeat on open SSE streams.",
  }),
  openaiUiEvents: field(boolean(), {
    env: "SERVICE_OPENAI_UI_EVENTS",
    default: true,
    help: "Send Open WebUI events in chat completion streams; turn off for plain OpenAI clients.",
  }),
  plugins: field(list(), {
    env: "SERVICE_PLUGINS",
    flag: "--plugin",
    default: [],
    help: "Extra plugins (paths or packages), loaded after the defaults and the config file.",
  }),
  limitsDefaultMaxConcurrency: field(integer(0, 100_000), {
    env: "SERVICE_DEFAULT_MAX_CONCURRENCY",
    default: 0,
    help: "Runs of one pipeline at once when its wrapper or deploy request sets no `max_concurrency` (0: no limit).",
  }),
  limitsDefaultTimeoutSeconds: field(decimal(0, 7 * 24 * 3600), {
    env: "SERVICE_DEFAULT_TIMEOUT_SECONDS",
    default: 0,
    help: "A run's time limit when its wrapper or deploy request sets no `timeout_seconds` (0: none); then 504.",
  }),
  limitsMaxQueue: field(integer(0, 1_000_000), {
    env: "SERVICE_MAX_QUEUE",
    default: 100,
    help: "Calls of one pipeline that may wait for a run slot when `max_concurrency` is reached; beyond it 429 with Retry-After.",
  }),
  metricsEnabled: field(boolean(), {
    env: "SERVICE_METRICS_ENABLED",
    flag: "--without-metrics",
    default: true,
    help: "Serve Prometheus metrics at `GET /metrics` (operator access, like `/traces`).",
  }),
  tracingEnabled: field(boolean(), {
    env: "SERVICE_TRACING_ENABLED",
    flag: "--without-tracing",
    default: true,
    help: "Mount the local trace API (trace buffer and `GET /traces`).",
  }),
  monitoringEnabled: field(boolean(), {
    env: "SERVICE_MONITORING_ENABLED",
    flag: "--without-monitoring",
    default: true,
    help: "Durable execution index and its routes.",
  }),
  monitoringRedisUrl: field(optionalText(), {
    env: "SERVICE_MONITORING_REDIS_URL",
    default: undefined,
    help: "Keep the execution index in Redis (redis://, rediss://, or comma-separated cluster nodes) instead of memory.",
  }),
  monitoringMaxRecords: field(integer(1, 10_000_000), {
    env: "SERVICE_MONITORING_MAX_RECORDS",
    default: 10_000,
    help: "Execution records kept; the oldest are dropped beyond it.",
  }),
  monitoringRetentionHours: field(integer(1, 87_600), {
    env: "SERVICE_MONITORING_RETENTION_HOURS",
    default: 168,
    help: "Hours an execution record is kept after it was last written.",
  }),
  tracingToken: field(optionalText(), { env: "SERVICE_TRACING_TOKEN", default: undefined, help: "Operator bearer token for GET /traces." }),
  tracingBufferCapacity: field(integer(1, 100_000), { env: "SERVICE_TRACING_BUFFER_CAPACITY", default: 200, help: "Traces kept in memory." }),
  tracingDefaultLimit: field(integer(1), { env: "SERVICE_TRACING_DEFAULT_LIMIT", default: 25, help: "Default GET /traces snapshot size." }),
  tracingMaxLimit: field(integer(1), { env: "SERVICE_TRACING_MAX_LIMIT", default: 100, help: "Largest snapshot (also capped at 100 and the buffer)." }),
  tracingSlowComponentMs: field(integer(0), {
    env: "SERVICE_TRACING_SLOW_COMPONENT_MS",
    default: 1000,
    help: "Completed duration from which a component is highlighted as slow.",
  }),
  tracingIncludeFrameworkSpans: field(boolean(), {
    env: "SERVICE_TRACING_INCLUDE_FRAMEWORK_SPANS",
    default: true,
    help: "Mirror the engine's pipeline and component spans into the buffer.",
  }),
  tracingIncludePayloadValues: field(boolean(), {
    env: "SERVICE_TRACING_INCLUDE_PAYLOAD_VALUES",
    default: false,
    help: "Include redacted request values in span tags.",
  }),
  tracingExcludedSpans: field(list(), { env: "SERVICE_TRACING_EXCLUDED_SPANS", default: [], help: "Span names to drop everywhere (exact names)." }),
  dashboardToken: field(optionalText(), {
    env: "SERVICE_DASHBOARD_TOKEN",
    default: undefined,
    help: "Operator credential the terminal trace viewer sends.",
  }),
  chatUiEnabled: field(boolean(), { env: "SERVICE_CHAT_UI_ENABLED", flag: "--with-chat-ui", default: false, help: "Serve the embedded chat UI." }),
  chatUiPath: field(pathPrefix(), { env: "SERVICE_CHAT_UI_PATH", default: "/chat", help: "Where the chat UI is served." }),
  chatUiDefaultModel: field(optionalText(), {
    env: "SERVICE_CHAT_UI_DEFAULT_MODEL",
    default: undefined,
    help: "Pipeline the chat UI selects first (else the only one, if there is one).",
  }),
  objectStoreBackend: field(choice(["memory", "redis"]), {
    env: "OBJECT_STORE_BACKEND",
    default: "memory",
    help: "Store behind `@obj_` references: `memory` (one process) or `redis`.",
  }),
  objectStoreRedisUrl: field(optionalText(), {
    env: "OBJECT_STORE_REDIS_URL",
    default: undefined,
    help: "Redis URL of the `redis` store: `redis://host:6379`, `redis://user:password@host:6379`, `rediss://…` (TLS), or a cluster as `redis://host1:6379,host2:6379,host3:6379`.",
  }),
  objectStoreTtl: field(integer(0), { env: "OBJECT_STORE_TTL", default: 600, help: "Seconds a stored object lives; 0 keeps it." }),
  platformApiKey: field(optionalText(), { env: "PLATFORM_API_KEY", default: undefined, help: "Static API key of the platform tools." }),
  platformApiUrl: field(optionalText(), {
    env: "PLATFORM_API_URL",
    default: undefined,
    help: "Base URL of the platform API (default: the public API).",
  }),
  platformWorkspace: field(optionalText(), {
    env: "PLATFORM_WORKSPACE",
    default: undefined,
    help: "Fixed workspace of the platform tools; unset adds a `workspace` argument to each tool.",
  }),
  platformApiKeyFromAuthHeader: field(boolean(), {
    env: "PLATFORM_API_KEY_FROM_AUTH_HEADER",
    default: false,
    help: "Take each call's platform key from its `Authorization: Bearer` header.",
  }),
  platformApiKeyAsFallback: field(boolean(), {
    env: "PLATFORM_API_KEY_AS_FALLBACK",
    default: false,
    help: "With the key from the header, serve calls without an `Authorization` header with `PLATFORM_API_KEY` (else they are refused).",
  }),
  platformClientTimeout: field(decimal(0.1, 3600), {
    env: "PLATFORM_CLIENT_TIMEOUT",
    default: 30,
    help: "Seconds a platform request may take in all (searches get 180).",
  }),
  platformTools: field(list(), { env: "PLATFORM_TOOLS", default: [], help: "Platform tools to register (empty: all)." }),
};

type Fields = typeof settingFields;
export type SettingKey = keyof Fields;
export type Settings = { readonly [K in SettingKey]: v.InferOutput<Fields[K]["schema"]> };

/** Settings whose every source adds to the list instead of replacing it. */
const MERGED: ReadonlySet<SettingKey> = new Set(["plugins"]);

export interface SettingSources {
  /** Values by setting key or environment name, from the config file. */
  config?: { file: string; values: Record<string, unknown> };
  dotenv?: Record<string, string | undefined>;
  env?: Record<string, string | undefined>;
  /** Values by setting key, from CLI flags (only flags the user gave). */
  flags?: Partial<Record<SettingKey, unknown>>;
  /** Values by setting key given in code (`createKernel({ settings })`); highest precedence. */
  overrides?: Partial<Record<SettingKey, unknown>>;
}

interface Candidate {
  value: unknown;
  name: string;
  source: string;
}

export function loadSettings(sources: SettingSources = {}): Settings {
  const config = configValues(sources.config);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(settingFields) as SettingKey[]) {
    const f: Field<unknown> = settingFields[key];
    const names = [f.env, ...(f.aliases ?? [])];
    const fromEnv = (vars: Record<string, string | undefined> | undefined, source: string): Candidate | undefined => {
      const name = names.find((n) => vars?.[n] !== undefined);
      return name ? { value: vars![name], name, source } : undefined;
    };
    // Lowest precedence first.
    const candidates = [
      key in config ? { value: config[key], name: `settings.${key}`, source: sources.config!.file } : undefined,
      fromEnv(sources.dotenv, ".env"),
      fromEnv(sources.env, "the environment"),
      sources.flags?.[key] !== undefined ? { value: sources.flags[key], name: f.flag ?? key, source: "the command line" } : undefined,
      sources.overrides?.[key] !== undefined ? { value: sources.overrides[key], name: key, source: "the kernel options" } : undefined,
    ].filter((c): c is Candidate => c !== undefined);
    const parsed = candidates.map((c) => parseValue(f, c));
    out[key] = MERGED.has(key) ? (parsed as unknown[][]).flat() : parsed.length ? parsed[parsed.length - 1] : f.default;
  }
  return Object.freeze(out) as Settings;
}

function parseValue(f: Field<unknown>, c: Candidate): unknown {
  const result = v.safeParse(f.schema, c.value);
  if (!result.success) throw kernelErrors.settings(c.name, c.source, c.value, f.accepts);
  return result.output;
}

/** Config-file settings may use the setting key (`port`) or the environment name (`SERVICE_PORT`). */
function configValues(config: SettingSources["config"]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!config) return out;
  const byEnv = new Map<string, SettingKey>();
  for (const [key, f] of Object.entries(settingFields) as [SettingKey, Field<unknown>][]) {
    for (const n of [f.env, ...(f.aliases ?? [])]) byEnv.set(n, key);
  }
  for (const [name, value] of Object.entries(config.values)) {
    const key = name in settingFields ? (name as SettingKey) : byEnv.get(name);
    if (!key) throw kernelErrors.configFile(config.file, `unknown setting '${name}' under 'settings'.`);
    out[key] = value;
  }
  return out;
}
