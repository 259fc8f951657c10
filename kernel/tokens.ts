/**
 * @module DI tokens: exported constants with typed values. Resolve them through the kernel's
 * container; a host registers its own value under a token before boot to replace the default.
 */
import type { Settings } from "./settings.js";
import type { Logger } from "./logger.js";
import type { PipelineRegistry } from "./registry.js";
import type { Tracer } from "./hooks/tracer.js";
import type { DeployService } from "./deploy/deploy-service.js";
import type { DeployState } from "./deploy/deploy-state.js";
import type { RouteInfo } from "./http/app.js";
import type { ExecutionIndex } from "./execution-index.js";
import type { ObjectStore } from "./object-store.js";
import type { Readiness } from "./readiness.js";

/** A symbol that carries the type of the value registered under it. */
export type Token<T> = symbol & { readonly __value?: T };

const providers = new Map<symbol, string>();

/**
 * Declares a token, once, in the entry of the plugin that provides it (`provider`, named in boot
 * errors of plugins that need it while the provider is not loaded). `Symbol.for`, so a second copy
 * of the kernel module still agrees on tokens.
 */
export function token<T>(name: string, provider?: string): Token<T> {
  const symbol = Symbol.for(`svc.${name}`) as Token<T>;
  if (provider) providers.set(symbol, provider);
  return symbol;
}

/** The plugin a token's declaration names as its provider, if any. */
export function providerOf(token: symbol): string | undefined {
  return providers.get(token);
}

export const SETTINGS = token<Settings>("settings");
export const LOGGER = token<Logger>("logger");
export const REGISTRY = token<PipelineRegistry>("registry");
/** The kernel's proxy tracer: a no-op until a plugin installs a tracer on the `trace` hook. */
export const TRACER = token<Tracer>("tracer");

/** Deploys and undeploys pipelines (REST, MCP and startup all go through it). */
export const DEPLOYER = token<DeployService>("deployer");
/** The manifest of deployed pipelines every process of the service agrees on (memory, workers' primary, Redis). */
export const DEPLOY_STATE = token<DeployState>("deploy-state");
/** The routes plugins registered, with their documentation, for the OpenAPI document. */
export const ROUTES = token<readonly RouteInfo[]>("routes");
/**
 * The store behind `@obj_<id>` references: a protocol with interchangeable backends, so declared
 * with its protocol here; provided by `svc:object-store` (or a host).
 */
export const OBJECT_STORE = token<ObjectStore>("object-store", "svc:object-store");

/** The readiness checks behind `GET /readyz`: add one for anything that makes this process unfit to serve. */
export const READINESS = token<Readiness>("readiness");

/**
 * The execution index: one record per pipeline invocation. A protocol with interchangeable
 * backends, declared with its protocol here; provided by `svc:monitoring` (or a host).
 */
export const EXECUTION_INDEX = token<ExecutionIndex>("executionIndex", "svc:monitoring");

/** The container token holding the access policy of a scope. */
export function accessToken(scope: string): symbol {
  return Symbol.for(`svc.access.${scope}`);
}
export const TRACE_ACCESS = accessToken("traces");
export const ADMIN_ACCESS = accessToken("admin");
export const RUN_ACCESS = accessToken("run");
