/**
 * @module Settings: the kernel's own settings (plugins declare theirs, see `definePlugin`) and
 * `loadSettings`, which reads a table of settings from its sources in precedence order
 * CLI flags > environment > `.env` > config file > defaults.
 */
import * as v from "valibot";
import { kernelErrors } from "./errors.js";
import { setting, type SettingField, type SettingFields, type SettingValues } from "./setting-field.js";
import { boolean, choice, decimal, integer, list, logLevel, optionalText, pathPrefix, text } from "./settings-schema.js";

export const kernelSettings = {
  host: setting(text(), { env: "SERVICE_HOST", flag: "--host", default: "localhost", help: "Bind host." }),
  port: setting(integer(0, 65535), { env: "SERVICE_PORT", flag: "--port", default: 1416, help: "HTTP port." }),
  pipelinesDir: setting(text(), {
    env: "SERVICE_PIPELINES_DIR",
    flag: "--pipelines-dir",
    default: "./pipelines",
    help: "Pipelines directory; everything in it is deployed at startup.",
  }),
  additionalModulePath: setting(optionalText(), {
    env: "SERVICE_ADDITIONAL_MODULE_PATH",
    aliases: ["SERVICE_ADDITIONAL_PYTHON_PATH"],
    flag: "--additional-module-path",
    default: undefined,
    help: "Extra resolution root for code shared by wrappers.",
  }),
  rootPath: setting(pathPrefix(), {
    env: "SERVICE_ROOT_PATH",
    flag: "--root-path",
    default: "",
    help: "Path prefix under which a reverse proxy serves svc (advertised in OpenAPI and pages).",
  }),
  clusterRedisUrl: setting(optionalText(), {
    env: "SERVICE_CLUSTER_REDIS_URL",
    default: undefined,
    help: "Run as one service with every instance that uses this Redis: deployed pipelines and the execution index are shared (see [Running several instances](several-instances.md)).",
  }),
  clusterReconcileInterval: setting(decimal(0.1, 3600), {
    env: "SERVICE_CLUSTER_RECONCILE_INTERVAL",
    default: 5,
    help: "Seconds between full checks of the cluster's deployed pipelines (changes are also announced at once).",
  }),
  redisTimeout: setting(decimal(0.1, 600), {
    env: "SERVICE_REDIS_TIMEOUT",
    default: 2,
    help: "Seconds one Redis call (cluster deploy state, execution index) may take; a slower one fails with 503 and `/status` and `/readyz` report Redis unreachable until it answers again.",
  }),
  instanceName: setting(optionalText(), {
    env: "SERVICE_INSTANCE_NAME", shownDefault: "host name:pid",
    default: undefined,
    help: "This instance's name in `GET /status` and logs.",
  }),
  logLevel: setting(logLevel(), { env: "LOG", aliases: ["SERVICE_LOG_LEVEL"], default: "INFO", help: "Log level; DEBUG logs every request and step." }),
  logFormat: setting(choice(["text", "json"]), {
    env: "SERVICE_LOG_FORMAT",
    default: "text",
    help: "`text` (one readable line per record) or `json` (one JSON object per line: level, time, msg, pid, plugin, request_id, err), both on stderr.",
  }),
  showTracebacks: setting(boolean(), {
    env: "SERVICE_SHOW_TRACEBACKS",
    default: false,
    help: "Include stack traces in HTTP and MCP error responses.",
  }),
  maxBodyBytes: setting(integer(1, 1024 ** 3), {
    env: "SERVICE_MAX_BODY_BYTES",
    default: 4 * 1024 * 1024,
    help: "Largest JSON request body; larger bodies get 413.",
  }),
  maxUploadBytes: setting(integer(1, 16 * 1024 ** 3), {
    env: "SERVICE_MAX_UPLOAD_BYTES",
    default: 100 * 1024 * 1024,
    help: "Largest multipart upload (all files and fields); larger uploads get 413.",
  }),
  maxUploadFileBytes: setting(integer(1, 16 * 1024 ** 3), {
    env: "SERVICE_MAX_UPLOAD_FILE_BYTES",
    default: 25 * 1024 * 1024,
    help: "Largest single uploaded file; larger files get 413.",
  }),
  maxJsonDepth: setting(integer(1, 10_000), {
    env: "SERVICE_MAX_JSON_DEPTH",
    default: 100,
    help: "Deepest nesting of objects and arrays a JSON body may have; deeper bodies get 400.",
  }),
  maxMultipartParts: setting(integer(1, 1_000_000), {
    env: "SERVICE_MAX_MULTIPART_PARTS",
    default: 1000,
    help: "Most parts (fields and files) a multipart upload may have; more get 413.",
  }),
  maxYamlEntries: setting(integer(1, 10_000_000), {
    env: "SERVICE_MAX_YAML_ENTRIES",
    default: 10_000,
    help: "Most map keys and list items a YAML pipeline definition may have; more get 413.",
  }),
  headersTimeout: setting(decimal(0.1, 3600), {
    env: "SERVICE_HEADERS_TIMEOUT",
    default: 20,
    help: "Seconds a client may take to send a request's line and headers; slower requests get 408 and are closed.",
  }),
  bodyTimeout: setting(decimal(0.1, 3600), {
    env: "SERVICE_BODY_TIMEOUT",
    default: 30,
    help: "Seconds a request body may pause while it arrives; a stalled body gets 408 and its connection is closed. Long responses and streams are not affected.",
  }),
  keepAliveTimeout: setting(decimal(0, 3600), {
    env: "SERVICE_KEEP_ALIVE_TIMEOUT",
    default: 5,
    help: "Seconds an idle keep-alive connection stays open between requests (behind a load balancer, set it above the balancer's idle time-out).",
  }),
  allowedHosts: setting(list(), {
    env: "SERVICE_ALLOWED_HOSTS",
    default: [],
    help: "Host names requests may address besides loopback names and, when bound beyond loopback, this machine's addresses (`svc.example.com`, `.example.com` for a domain and its subdomains, `*` for any); other Hosts get 403 (DNS rebinding).",
  }),
  corsAllowOrigins: setting(list(), {
    env: "SERVICE_CORS_ALLOW_ORIGINS",
    default: [],
    help: "Origins allowed by CORS (`*` for any); CORS headers are sent only when set.",
  }),
  gracefulShutdownTimeout: setting(decimal(0, 300), {
    env: "SERVICE_GRACEFUL_SHUTDOWN_TIMEOUT",
    default: 5,
    help: "Seconds in-flight requests may take to finish on shutdown before they are aborted.",
  }),
  sseHeartbeatMs: setting(integer(100, 3_600_000), {
    env: "SERVICE_SSE_HEARTBEAT_MS",
    default: 15_000,
    help: "Interval of the comment heartbeat on open SSE streams.",
  }),
  plugins: setting(list(), {
    env: "SERVICE_PLUGINS", merge: true,
    flag: "--plugin",
    default: [],
    help: "Extra plugins (paths or packages), loaded after the defaults and the config file.",
  }),
};

export type SettingKey = keyof typeof kernelSettings;
/** The kernel's settings; a plugin sees these and its own (`PluginApi.settings`). */
export type Settings = SettingValues<typeof kernelSettings>;

export interface SettingSources {
  /** Values by setting key or environment name, from the config file. */
  config?: { file: string; values: Record<string, unknown> };
  dotenv?: Record<string, string | undefined>;
  env?: Record<string, string | undefined>;
  /** Values by setting key, from CLI flags (only flags the user gave). */
  flags?: Readonly<Record<string, unknown>>;
  /** Values by setting key given in code (`createKernel({ settings })`); highest precedence. */
  overrides?: Readonly<Record<string, unknown>>;
}

export interface LoadSettingsOptions {
  /**
   * Config-file names outside the table: `false` ignores them (a first read before the plugins
   * are known), else they are errors unless one of these tables declares them (settings of
   * plugins that could be loaded but are not).
   */
  readonly unknown?: false | { readonly accepted?: SettingFields };
}

interface Candidate {
  value: unknown;
  name: string;
  source: string;
}

/** The values of `fields` (default: the kernel's) from every source; a bad value names its source. */
export function loadSettings(sources?: SettingSources): Settings;
export function loadSettings<F extends SettingFields>(sources: SettingSources, fields: F, options?: LoadSettingsOptions): SettingValues<F>;
export function loadSettings(
  sources: SettingSources = {},
  fields: SettingFields = kernelSettings,
  options: LoadSettingsOptions = { unknown: {} },
): Record<string, unknown> {
  const config = configValues(sources.config, fields, options.unknown);
  const out: Record<string, unknown> = {};
  for (const [key, f] of Object.entries(fields)) {
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
    out[key] = f.merge ? (parsed as unknown[][]).flat() : parsed.length ? parsed[parsed.length - 1] : f.default;
  }
  return Object.freeze(out);
}

function parseValue(f: SettingField, c: Candidate): unknown {
  const result = v.safeParse(f.schema, c.value);
  if (!result.success) throw kernelErrors.settings(c.name, c.source, c.value, f.accepts);
  return result.output;
}

/** Config-file settings may use the setting key (`port`) or the environment name (`SERVICE_PORT`). */
function configValues(config: SettingSources["config"], fields: SettingFields, unknown: LoadSettingsOptions["unknown"]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!config) return out;
  const byEnv = envNames(fields);
  const accepted = unknown ? unknown.accepted ?? {} : undefined;
  for (const [name, value] of Object.entries(config.values)) {
    const key = name in fields ? name : byEnv.get(name);
    if (key) out[key] = value;
    else if (accepted && !(name in accepted) && !envNames(accepted).has(name)) {
      throw kernelErrors.configFile(config.file, `unknown setting '${name}' under 'settings'.`);
    }
  }
  return out;
}

function envNames(fields: SettingFields): Map<string, string> {
  const byEnv = new Map<string, string>();
  for (const [key, f] of Object.entries(fields)) for (const n of [f.env, ...(f.aliases ?? [])]) byEnv.set(n, key);
  return byEnv;
}
