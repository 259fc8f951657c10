/**
 * @module The Kernel: owns the container, the hook points, the pipeline registry and the HTTP
 * app; boots plugins; serves standalone (`listen`/`close`) or inside a host's server (`handler`).
 */
import { type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { Server as NetServer, type AddressInfo } from "node:net";
import { createContainer, type DependencyContainer } from "./container.js";
import { kernelErrors } from "./errors.js";
import { KernelHooks, pluginHooks, type RunCall } from "./hooks/index.js";
import { defaultPolicies, type AccessDecision, type AccessRequest } from "./hooks/auth-hook.js";
import type { Invocation } from "./invoke/invocation.js";
import { Invoker, type InvokeRequest } from "./invoke/invoke.js";
import type { Tracer } from "./hooks/tracer.js";
import { HttpApp } from "./http/app.js";
import { createHttpServer } from "./http/server.js";
import { Logger } from "./logger.js";
import type { KernelPlugin, PluginApi, PluginEntry } from "./plugin.js";
import { PluginHost } from "./plugin-host.js";
import { Exports, PluginScope } from "./plugin-scope.js";
import { PipelineRegistry } from "./registry.js";
import { kernelSettings, loadSettings, type SettingKey, type SettingSources, type Settings } from "./settings.js";
import type { SettingFields } from "./setting-field.js";
import { fieldsOf, mergeSettings } from "./settings-table.js";
import { DEPLOY_STATE, DEPLOYER, LOGGER, READINESS, REGISTRY, ROUTES, SETTINGS, TRACE_ACCESS, TRACER, accessToken, type Token } from "./tokens.js";
import { PipelinesWatcher } from "./deploy/pipelines-watcher.js";
import { OperatorAccess } from "./operator-access/operator-access.js";
import { operatorAccessSettings, type OperatorAccessSettings } from "./operator-access/settings.js";
import { DeployService } from "./deploy/deploy-service.js";
import { routeWords } from "./deploy/names.js";
import { folderStaging } from "./deploy/source-staging.js";
import { createDeployState, instanceName } from "./deploy/create-deploy-state.js";
import { LocalDeployState } from "./deploy/local-deploy-state.js";
import type { DeployState } from "./deploy/deploy-state.js";
import { loadWrapper } from "./wrapper/load-wrapper.js";
import { resolve as resolvePath } from "node:path";
import { Readiness, notReady, ready } from "./readiness.js";
import { isLoopbackHost } from "./http/allowed-hosts.js";
import { registerHealthRoutes } from "./health-routes.js";

export interface KernelOptions {
  /** Setting values by key (the kernel's and the plugins'); they win over every source. */
  settings?: Partial<Record<SettingKey, unknown>> & Readonly<Record<string, unknown>>;
  /** Where the other values come from (config file, `.env`, environment, flags); none by default. */
  sources?: Omit<SettingSources, "overrides">;
  /**
   * Settings declared by plugins this host could load but did not: the config file may name them
   * (they are ignored) without the "unknown setting" error.
   */
  knownSettings?: SettingFields;
  plugins?: readonly PluginEntry[];
  /** The root container. A host registers its own services here before boot to replace defaults. */
  container?: DependencyContainer;
  logger?: Logger;
  /** How long one plugin's `setup` may take (default 10 s). */
  setupTimeoutMs?: number;
}

export class Kernel {
  readonly hooks: KernelHooks;
  readonly registry: PipelineRegistry;
  readonly http: HttpApp;
  readonly deployer: DeployService;
  /** The checks behind `/readyz` (also under the `READINESS` token). */
  readonly readiness: Readiness;
  private readonly invoker: Invoker;
  /** The default policy of the `traces` scope (operator access, SPEC §5.2). */
  readonly operatorAccess: OperatorAccess;
  private readonly plugins: PluginHost;
  /** What plugins provided (each plugin's own registrations stay in its child container). */
  private readonly exports = new Exports();
  private httpServer?: Server;
  private closing?: Promise<void>;
  private watcher?: PipelinesWatcher;
  /** A deploy state `createKernel` made for this kernel, closed with it. */
  ownedState?: DeployState;

  constructor(
    readonly settings: Settings,
    readonly container: DependencyContainer,
    readonly log: Logger,
    setupTimeoutMs: number,
  ) {
    this.hooks = new KernelHooks(container, (hook, plugin, error) =>
      log.error(`Hook '${hook}' tapped by plugin '${plugin}' failed`, error),
    );
    // A host's registration made before boot wins over the kernel's default.
    this.registerDefault(SETTINGS, settings);
    this.registerDefault(LOGGER, log);
    this.registerDefault(REGISTRY, new PipelineRegistry());
    this.registerDefault(TRACER, this.hooks.trace.tracer);
    // Its token is operator access's own setting (read with the kernel's table), not one plugins see.
    this.operatorAccess = new OperatorAccess(settings as Settings & OperatorAccessSettings, log.child({ plugin: "svc:operator-access" }));
    this.registerDefault(TRACE_ACCESS, this.operatorAccess.policy);
    for (const [scope, policy] of Object.entries(defaultPolicies)) this.registerDefault(accessToken(scope), policy);
    this.registry = container.resolve(REGISTRY);
    this.invoker = new Invoker(this.registry, this.hooks, log);
    this.http = new HttpApp({ settings, log, authorize: (r) => this.hooks.auth.call(r), answered: this.hooks.answered });
    this.registerDefault(ROUTES, this.http.routes);
    this.registerDefault(DEPLOY_STATE, new LocalDeployState(instanceName(settings)));
    this.registerDefault(
      DEPLOYER,
      new DeployService(
        resolvePath(settings.pipelinesDir),
        this.registry,
        this.hooks.deploy,
        this.tracer,
        log.child({ plugin: "svc:deploy" }),
        container.resolve(DEPLOY_STATE),
        () => routeWords([...this.http.routes.map((r) => r.path), ...this.http.mounts]),
      ),
    );
    this.deployer = container.resolve(DEPLOYER);
    this.registerDefault(READINESS, new Readiness());
    this.readiness = container.resolve(READINESS);
    this.addReadinessChecks();
    registerHealthRoutes(this.http, this.readiness);
    // Wrapper folders are the kernel's own deploy source; plugins add others (YAML: the engine).
    const roots = settings.additionalModulePath ? [resolvePath(settings.additionalModulePath)] : [];
    this.hooks.deploy.registerSource(
      "svc:kernel",
      "files",
      ({ name, description, payload }) => loadWrapper({ name, description, dir: (payload as { dir: string }).dir, roots }),
      folderStaging,
    );
    this.plugins = new PluginHost(log, setupTimeoutMs);
  }

  /** A plain Node request listener, to mount in a host's own server. */
  get handler(): (req: IncomingMessage, res: ServerResponse) => void {
    return this.http.handler;
  }

  get tracer(): Tracer {
    return this.hooks.trace.tracer;
  }

  /** Names of the plugins that are set up, in load order. */
  get pluginNames(): string[] {
    return this.plugins.names;
  }

  get server(): Server | undefined {
    return this.httpServer;
  }

  /** A service of the root container (the kernel's, the host's) or one a plugin provided. */
  resolve<T>(token: Token<T>): T {
    const provided = this.container.isRegistered(token, true) ? undefined : this.exports.get(token);
    return provided ? (provided.value as T) : this.container.resolve<T>(token);
  }

  /**
   * Runs `target` for `call` through the `run` interceptors (auth, limits, tracing, monitoring,
   * a plugin's own), as an invocation does, but without a deployed pipeline: how a plugin's tests
   * drive its interceptor, and how a host runs its own work under the same policies.
   */
  run<R>(call: RunCall, target: (call: RunCall) => R | Promise<R>): Promise<R> {
    return this.hooks.run.call(call, target as (call: RunCall) => Promise<unknown>) as Promise<R>;
  }

  /** A pipeline invocation, as transports make it (see kernel/invoke/invoke.ts). */
  invoke(request: InvokeRequest): Promise<Invocation> {
    return this.invoker.invoke(request);
  }

  async authorize(request: AccessRequest): Promise<AccessDecision> {
    return this.hooks.auth.call(request);
  }

  async boot(entries: readonly PluginEntry[]): Promise<void> {
    await this.plugins.start(entries, (token) => this.container.isRegistered(token, true), (plugin) => this.open(plugin));
    // Every source handler is registered now: serve the cluster's pipelines and follow them.
    await this.deployer.follow(this.settings.clusterReconcileInterval * 1000);
    // Operator views exist: make the local credential now, so a viewer finds it before its first
    // request (unless the host replaced the policy).
    if (this.http.routes.some((r) => r.scope === "traces") && this.container.resolve(TRACE_ACCESS) === this.operatorAccess.policy) {
      await this.operatorAccess.prepare();
    }
  }

  /** Serves on `port`/`host` (defaults from settings); resolves once listening. */
  async listen(options: { port?: number; host?: string } = {}): Promise<AddressInfo> {
    if (this.httpServer) throw kernelErrors.alreadyListening();
    const server = createHttpServer(this.handler, this.settings);
    this.httpServer = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? this.settings.port, options.host ?? this.settings.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    const address = server.address() as AddressInfo;
    if (!isLoopbackHost(address.address) && !this.accessControlled()) {
      this.log.warn(
        `svc is bound to ${address.address}, beyond loopback, and no API keys are required: anyone who can reach port ${address.port} can deploy and run code. ` +
          "Load svc:auth (docs/auth.md), or bind to 127.0.0.1 behind a proxy.",
      );
    }
    return address;
  }

  /** Whether something decides who may run and deploy (an auth plugin, or a host's own admin policy). */
  private accessControlled(): boolean {
    return this.hooks.auth.tapped || this.container.resolve(accessToken("admin")) !== defaultPolicies.admin;
  }

  /**
   * Follows the pipelines directory from now on: entries that appear, change or disappear are
   * deployed, redeployed or undeployed without a restart. Call after `deployer.deployAll()`.
   */
  async watchPipelines(): Promise<void> {
    if (this.watcher) return;
    const watcher = new PipelinesWatcher(this.deployer, this.registry, this.log.child({ plugin: "svc:deploy" }));
    // Files a deploy writes itself are taken as they are, not deployed once more.
    this.hooks.deploy.deployed.tap("svc:kernel", (p) => watcher.forget(p.name));
    this.watcher = watcher;
    await watcher.start();
  }

  /**
   * Graceful shutdown: stop accepting, let in-flight requests finish within the grace period,
   * abort the rest, then close plugins in reverse order. Safe to call more than once.
   */
  close(): Promise<void> {
    return (this.closing ??= this.shutdown());
  }

  private async shutdown(): Promise<void> {
    const server = this.httpServer;
    const graceMs = this.settings.gracefulShutdownTimeout * 1000;
    const deadline = Date.now() + graceMs;
    // Stop listening but keep idle keep-alive connections open: a client's next request may already
    // be on the wire, and is answered (with `Connection: close`) instead of reset. Node's own
    // `Server.close` would drop them at once, so the listener is closed a level below it.
    const closed = server ? new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve())) : Promise.resolve();
    await this.http.drain(graceMs);
    // Connections end as their last answer goes out, or when their keep-alive time-out passes;
    // wait for that within what is left of the grace period.
    const left = deadline - Date.now();
    if (left > 0) await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, left);
      void closed.then(() => { clearTimeout(timer); resolve(); });
    });
    await this.http.drain(Math.max(0, deadline - Date.now()));
    server?.closeAllConnections();
    server?.close(() => undefined);
    await closed;
    await this.watcher?.close();
    await this.plugins.close();
    await this.deployer.close();
    await this.ownedState?.close();
  }

  /** The kernel's own readiness checks; plugins and cluster code add theirs under `READINESS`. */
  private addReadinessChecks(): void {
    this.readiness.add("startup", () => (this.deployer.startingUp ? notReady("deploying the pipelines folder") : ready()));
    this.readiness.add("shutdown", () => (this.closing ? notReady("shutting down: draining requests in flight") : ready()));
    this.readiness.add("deploy_state", () => {
      const health = this.deployer.state.health();
      if (health.connected) return ready(health.mode);
      return notReady(`the ${health.mode} deploy state is unreachable${health.error ? `: ${health.error}` : ""}`);
    });
  }

  private registerDefault<T>(token: Token<T> | symbol, value: T): void {
    if (!this.container.isRegistered(token, true)) this.container.register(token, { useValue: value });
  }

  /** The kernel as `plugin` sees it, over its own scope of the container. */
  private open(plugin: KernelPlugin): { api: PluginApi; endSetup(): void } {
    const scope = new PluginScope(plugin, this.container, this.exports);
    const api: PluginApi = {
      name: plugin.name,
      settings: this.settings,
      log: this.log.child({ plugin: plugin.name }),
      container: scope.container,
      hooks: pluginHooks(this.hooks, plugin.name),
      tracer: this.tracer,
      provide: (token, value) => scope.provide(token, value),
      resolve: (token) => scope.resolve(token),
      optional: (token) => scope.optional(token),
      route: (method, path, handler, options) => this.http.route(method, path, handler, options),
      use: (path, ...middleware) => this.http.use(path, ...middleware),
      invoke: (request) => this.invoker.invoke(request),
      invokeOrValue: (request) => this.invoker.invokeOrValue(request),
      pipelineFor: (name, method) => this.invoker.pipeline(name, method),
      authorize: (request) => this.authorize(request),
    };
    return { api, endSetup: () => scope.endSetup() };
  }
}

/** Creates a kernel and sets up its plugins; the server is not started until `listen`. */
export async function createKernel(options: KernelOptions = {}): Promise<Kernel> {
  const entries = options.plugins ?? [];
  // One table: the kernel's settings and every loaded plugin's, read from the same sources.
  const fields = fieldsOf(
    mergeSettings([
      { owner: "svc:kernel", fields: kernelSettings },
      { owner: "svc:operator-access", fields: operatorAccessSettings },
      ...entries.map((entry) => ("setup" in entry ? entry : entry.plugin)).map((p) => ({ owner: p.name, fields: p.settings ?? {} })),
    ]),
  );
  const settings = loadSettings({ ...options.sources, overrides: options.settings }, fields, { unknown: { accepted: options.knownSettings } }) as Settings;
  const log = options.logger ?? Logger.create(settings.logLevel, settings.logFormat);
  const container = options.container ?? createContainer();
  // The deploy state may need a connection (Redis): made here, where waiting is possible.
  let state: DeployState | undefined;
  if (!container.isRegistered(DEPLOY_STATE, true)) {
    state = await createDeployState(settings, log.child({ plugin: "svc:deploy" }));
    container.register(DEPLOY_STATE, { useValue: state });
  }
  const kernel = new Kernel(settings, container, log, options.setupTimeoutMs ?? 10_000);
  kernel.ownedState = state;
  try {
    await kernel.boot(entries);
  } catch (error) {
    await state?.close();
    throw error;
  }
  return kernel;
}
