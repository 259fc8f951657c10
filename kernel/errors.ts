/**
 * @module Every error the kernel raises, defined once with a stable code, plus the HTTP error that
 * routes throw to answer with the spec's error body.
 */

/** An error raised by the kernel itself: boot, plugins, hooks, settings, container. */
export class KernelError extends Error {
  /** The plugin whose hook tap (or deploy source) raised it. */
  plugin?: string;
  /** The hook that called that tap (`run`, `stream.item`, `deploy.deployed`, …). */
  hook?: string;

  constructor(
    readonly code: KernelErrorCode,
    message: string,
    options?: { cause?: unknown; plugin?: string; hook?: string },
  ) {
    super(message, options);
    this.name = "KernelError";
    this.plugin = options?.plugin;
    this.hook = options?.hook;
  }
}

export type KernelErrorCode =
  | "KERNEL_ERR_SETTINGS"
  | "KERNEL_ERR_CONFIG_FILE"
  | "KERNEL_ERR_SETTING_DUPLICATE"
  | "KERNEL_ERR_PLUGIN_LOAD"
  | "KERNEL_ERR_PLUGIN_INVALID"
  | "KERNEL_ERR_PLUGIN_DUPLICATE"
  | "KERNEL_ERR_PLUGIN_DEPENDENCY"
  | "KERNEL_ERR_PLUGIN_OPTIONS"
  | "KERNEL_ERR_PLUGIN_SETUP"
  | "KERNEL_ERR_HOOK"
  | "KERNEL_ERR_PLUGIN_CYCLE"
  | "KERNEL_ERR_TOKEN_DUPLICATE"
  | "KERNEL_ERR_TOKEN_UNDECLARED"
  | "KERNEL_ERR_TOKEN_MISSING"
  | "KERNEL_ERR_SOURCE_DUPLICATE"
  | "KERNEL_ERR_ALREADY_LISTENING"
  | "KERNEL_ERR_KV_CONNECT";

/** The message of any thrown value, for error texts that name a cause. */
export function messageOf(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  if (typeof cause === "string") return cause;
  try {
    return JSON.stringify(cause);
  } catch {
    return String(cause);
  }
}

/** One factory per message, so every text lives here. */
export const kernelErrors = {
  settings: (name: string, source: string, value: unknown, accepts: string) =>
    new KernelError(
      "KERNEL_ERR_SETTINGS",
      `Invalid setting ${name} (from ${source}): got ${JSON.stringify(value)}; expected ${accepts}.`,
    ),
  settingDuplicate: (name: string, owner: string, other: string) =>
    new KernelError("KERNEL_ERR_SETTING_DUPLICATE", `Setting ${name} is declared by both '${other}' and '${owner}'.`),
  configFile: (file: string, reason: string, cause?: unknown) =>
    new KernelError("KERNEL_ERR_CONFIG_FILE", `Invalid config file ${file}: ${reason}`, { cause }),
  pluginLoad: (spec: string, cause: unknown) =>
    new KernelError("KERNEL_ERR_PLUGIN_LOAD", `Plugin '${spec}' failed to load: ${messageOf(cause)}`, { cause }),
  pluginInvalid: (spec: string, reason: string) =>
    new KernelError("KERNEL_ERR_PLUGIN_INVALID", `Plugin '${spec}' is not a valid plugin: ${reason}`),
  pluginDuplicate: (name: string) =>
    new KernelError("KERNEL_ERR_PLUGIN_DUPLICATE", `Plugin '${name}' is registered twice.`),
  pluginDependency: (name: string, missing: string) =>
    new KernelError(
      "KERNEL_ERR_PLUGIN_DEPENDENCY",
      `Plugin '${name}' depends on plugin '${missing}', which is not loaded.`,
    ),
  tokenNeeded: (name: string, token: string, provider: string | undefined) =>
    new KernelError(
      "KERNEL_ERR_PLUGIN_DEPENDENCY",
      provider
        ? `Plugin '${name}' needs ${token}, which plugin '${provider}' provides: '${provider}' is not loaded. Load it, or register ${token} in the host's container.`
        : `Plugin '${name}' needs ${token}, which no loaded plugin provides and the host did not register.`,
    ),
  pluginCycle: (names: readonly string[]) =>
    new KernelError(
      "KERNEL_ERR_PLUGIN_CYCLE",
      `Plugins ${names.map((n) => `'${n}'`).join(", ")} need each other (dependsOn, needs or optional): no load order sets each up after what it needs.`,
    ),
  pluginOptions: (name: string, reason: string) =>
    new KernelError("KERNEL_ERR_PLUGIN_OPTIONS", `Plugin '${name}' has invalid options: ${reason}`),
  pluginSetup: (name: string, cause: unknown) =>
    new KernelError("KERNEL_ERR_PLUGIN_SETUP", `Plugin '${name}' failed during setup: ${messageOf(cause)}`, { cause }),
  hook: (hook: string, plugin: string, cause: unknown) =>
    new KernelError("KERNEL_ERR_HOOK", `Hook '${hook}' tapped by plugin '${plugin}' failed: ${messageOf(cause)}`, { cause, plugin, hook }),
  tokenDuplicate: (token: string, plugin: string, other: string) =>
    new KernelError("KERNEL_ERR_TOKEN_DUPLICATE", `Plugins '${other}' and '${plugin}' both provide ${token}.`),
  tokenUndeclared: (plugin: string, token: string, list: "provides" | "needs", provider?: string) =>
    new KernelError(
      "KERNEL_ERR_TOKEN_UNDECLARED",
      list === "provides"
        ? `Plugin '${plugin}' provides ${token} without declaring it: add it to the plugin's provides.`
        : `Plugin '${plugin}' resolves ${token}${provider ? ` (provided by '${provider}')` : ""} without declaring it: add it to the plugin's needs or optional.`,
    ),
  tokenMissing: (plugin: string, token: string, why: string) =>
    new KernelError("KERNEL_ERR_TOKEN_MISSING", `Plugin '${plugin}': ${token} ${why}.`),
  sourceDuplicate: (kind: string, plugin: string) =>
    new KernelError(
      "KERNEL_ERR_SOURCE_DUPLICATE",
      `Plugin '${plugin}' registers a deploy source handler for '${kind}', which is already handled.`,
    ),
  alreadyListening: () => new KernelError("KERNEL_ERR_ALREADY_LISTENING", "The kernel is already listening."),
  kvConnect: (target: string, reason: string, cause?: unknown) =>
    new KernelError("KERNEL_ERR_KV_CONNECT", `Cannot connect to Redis at ${target}: ${reason}`, { cause }),
};

/** Error type names of the spec's error body, by status class. */
export type ErrorType = "invalid_request_error" | "authentication_error" | "permission_error" | "server_error";

/**
 * Thrown anywhere under a request to answer with `{"error":{"message","type","code"}}`.
 * The status decides the type unless one is given.
 */
export class HttpError extends Error {
  readonly type: ErrorType;
  constructor(
    readonly status: number,
    message: string,
    options: { type?: ErrorType; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "HttpError";
    this.type = options.type ?? errorTypeFor(status);
    this.headers = options.headers ?? {};
  }
  readonly headers: Record<string, string>;
  /** Set when a plugin's hook tap (a limiter's 429) or deploy source threw it: which plugin, which hook. */
  plugin?: string;
  hook?: string;
}

export function errorTypeFor(status: number): ErrorType {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  return status >= 500 ? "server_error" : "invalid_request_error";
}
