/**
 * @module The plugin contract. A plugin is a plain object `{ name, setup(kernel, options) }`,
 * usually returned by a factory and exported as a module's default. Built-in features use exactly
 * this shape; there is no privileged path.
 */
import type { Middleware } from "polka";
import type { DependencyContainer } from "tsyringe";
import type * as v from "valibot";
import type { Logger } from "./logger.js";
import type { Settings } from "./settings.js";
import type { SettingFields, SettingValues } from "./setting-field.js";
import type { Token } from "./tokens.js";
import type { PluginHooks } from "./hooks/index.js";
import type { AccessDecision, AccessRequest } from "./hooks/auth-hook.js";
import type { Invocation } from "./invoke/invocation.js";
import type { InvokeRequest, PipelineMethod } from "./invoke/invoke.js";
import type { DeployedPipeline } from "./registry.js";
import type { Tracer } from "./hooks/tracer.js";
import type { HttpMethod, RouteHandler, RouteInfo, RouteOptions } from "./http/app.js";

export interface KernelPlugin<O = any, S extends SettingFields = SettingFields> {
  /** Unique; names every log line, hook tap and error of the plugin. Built-ins use `svc:` names. */
  readonly name: string;
  readonly version?: string;
  /** Plugins that must be loaded; each sets up before this one. Checked before any `setup` runs. */
  readonly dependsOn?: readonly string[];
  /**
   * Tokens this plugin provides with `api.provide` during `setup`. A token is declared once, in
   * its provider's entry (`token(name, provider)`); two loaded plugins providing one token stop the
   * boot, and so does a declared token the plugin did not provide by the end of its `setup`.
   */
  readonly provides?: readonly Token<unknown>[];
  /**
   * Tokens this plugin resolves that another plugin provides. Boot fails, naming this plugin and
   * the token's provider, unless a loaded plugin (or the host) provides each; their providers set
   * up first. The kernel's own tokens (`SETTINGS`, `REGISTRY`, `DEPLOYER`, …) need no declaration.
   */
  readonly needs?: readonly Token<unknown>[];
  /** Tokens this plugin uses when present (`api.optional`); their providers, when loaded, set up first. */
  readonly optional?: readonly Token<unknown>[];
  /** Validates the options from the config file before `setup` gets them. */
  readonly options?: v.GenericSchema<unknown, O>;
  /**
   * The plugin's settings (`setting(schema, { env, flag, default, help })` by key). The kernel
   * merges them into its table at boot, read with the same precedence and validation as its own;
   * `setup` sees their values, typed, in `kernel.settings`.
   */
  readonly settings?: S;
  setup(kernel: PluginApi<S>, options: O): void | Promise<void>;
  /** Called on shutdown, in reverse load order. */
  close?(): void | Promise<void>;
}

/** A plugin with the options it is loaded with. */
export type PluginEntry = KernelPlugin | { plugin: KernelPlugin; options?: unknown };

/** Identity function that types a plugin object. */
export function definePlugin<O = undefined, S extends SettingFields = {}>(plugin: KernelPlugin<O, S>): KernelPlugin<O, S> {
  return plugin;
}

/** What `setup` receives: the kernel as one plugin sees it. */
export interface PluginApi<S extends SettingFields = {}> {
  readonly name: string;
  /** The kernel's settings and this plugin's own. */
  readonly settings: Settings & SettingValues<S>;
  /** A logger that names this plugin. */
  readonly log: Logger;
  /**
   * This plugin's own container, a child of the root (the kernel's and the host's services): what
   * the plugin registers here stays private to it. It holds the tokens of `needs` and `optional`
   * that loaded plugins provide, and none of the other tokens plugins provide.
   */
  readonly container: DependencyContainer;
  /** Tap-only hooks; taps are attributed to this plugin. */
  readonly hooks: PluginHooks;
  /** The kernel's tracer (a no-op until a tracer is installed on the `trace` hook). */
  readonly tracer: Tracer;
  /** Provides a service under a token of `provides`, unless the host registered one first (the host wins). */
  provide<T>(token: Token<T>, value: T): void;
  /** A service of the kernel, the host, `needs`, or this plugin's container; throws when absent. */
  resolve<T>(token: Token<T>): T;
  /** A token of `optional` (or `needs`, `provides`): its service, or `undefined` when nothing provides it. */
  optional<T>(token: Token<T>): T | undefined;
  route(method: HttpMethod, path: string, handler: RouteHandler, options?: RouteOptions): void;
  use(path: string, ...middleware: Middleware[]): void;
  /**
   * Invokes a deployed pipeline's method for a transport: lookup (404/501), the `run` hook, failure
   * mapping, and the result to encode — a value, a file, or a stream read through the `stream` hook.
   */
  invoke(request: InvokeRequest): Promise<Invocation>;
  /**
   * As `invoke`, but an invocation ready at once (a run that settled synchronously, with only
   * observers in its way) comes as it is, not as a promise: for a transport's hot path.
   */
  invokeOrValue(request: InvokeRequest): Invocation | Promise<Invocation>;
  /** The deployed pipeline that serves `method`, or the 404/501 to answer (for transports that read its input schema first). */
  pipelineFor(name: string, method: PipelineMethod): DeployedPipeline;
  authorize(request: AccessRequest): Promise<AccessDecision>;
}
