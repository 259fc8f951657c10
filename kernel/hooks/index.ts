/**
 * @module The kernel's hook points. Only the kernel calls them; plugins get the tap-only
 * facade of `pluginHooks`, which names every tap after the plugin.
 *
 * | hook       | class (call kind)                                 | called by                              | tapped by (typical)            |
 * |------------|---------------------------------------------------|----------------------------------------|--------------------------------|
 * | `deploy`   | `SeriesHook` events + source handlers by kind     | the deploy service                     | MCP tool list, OpenAPI, models |
 * | `run`      | `InterceptorHook` `(call, next)`                   | `kernel.invoke`, for every transport   | tracing, monitoring, limits    |
 * | `result`   | `ResultHook`: first tap to turn a value into items | `kernel.invoke`, on a wrapper's result | agent frameworks              |
 * | `stream`   | `WaterfallHook` over items + notifications        | `kernel.invoke`'s stream               | event filters, metrics         |
 * | `trace`    | `FanOutHook` of tracers (no-op default)           | kernel, transports, engine             | the tracing plugin             |
 * | `auth`     | `BailHook`: first decision wins, else the policy  | routes with a scope, `kernel.authorize` | auth plugins, hosts           |
 * | `answered` | `ObserverHook` of answered requests               | the HTTP layer                         | metrics                        |
 *
 * Every hook calls its taps through `callTap`/`notifyTap` (taps.ts): an error a tap throws names
 * its plugin and hook, as fields and in the message.
 */
import type { DependencyContainer } from "tsyringe";
import { scopePolicies, type AccessCheck, type AccessDecision, type AccessRequest } from "./auth-hook.js";
import { BailHook } from "./bail-hook.js";
import type { IncomingHttpHeaders } from "node:http";
import { DeployHook, type DeploySourceHandler } from "./deploy-hook.js";
import type { DeployStaging } from "../deploy/source-staging.js";
import { InterceptorHook, type CallObserver, type Interceptor, type InterceptorOptions } from "./interceptor-hook.js";
import { ObserverHook, type AnsweredRequest } from "./observer-hook.js";
import { WaterfallHook, type StreamTap } from "./waterfall-hook.js";
import { FanOutHook } from "./fan-out-hook.js";
import { ResultHook, type ResultTap } from "./result-hook.js";
import type { ObserverErrorReporter, TapOptions } from "./taps.js";
import type { Span, Tracer } from "./tracer.js";
import type { DeployedPipeline } from "../registry.js";

/** One invocation of a pipeline method, whatever the transport. */
export interface RunCall {
  readonly pipeline: string;
  /** The wrapper method: `runApi`, `runChatCompletion`, `runResponse`. */
  readonly method: string;
  /** `rest`, `openai`, `mcp`, `cli`, … */
  readonly transport: string;
  readonly input: unknown;
  /** Aborted when the client disconnects or the server shuts down. */
  readonly signal: AbortSignal;
  /** `signal.aborted` where reading it is cheaper than making the signal (read it with `runAborted`). */
  readonly aborted?: boolean;
  readonly requestId?: string;
  /** The transport's span, parent of the spans made below it. */
  readonly span?: Span;
  /** The caller's request headers, when the call came over HTTP (credentials, trace context). */
  readonly headers?: IncomingHttpHeaders;
}

export class KernelHooks {
  readonly deploy = new DeployHook();
  readonly run = new InterceptorHook<RunCall, unknown>("run");
  /** A wrapper's returned object as the items to stream (agent frameworks' results). */
  readonly result = new ResultHook("result");
  readonly stream: WaterfallHook;
  readonly trace = new FanOutHook("trace");
  readonly auth: BailHook<AccessRequest, AccessDecision>;
  /** Every HTTP request, once answered (metrics, access logs). */
  readonly answered: ObserverHook<[AnsweredRequest]>;

  constructor(container: DependencyContainer, report: ObserverErrorReporter) {
    this.stream = new WaterfallHook("stream", report);
    this.answered = new ObserverHook("answered", report);
    this.auth = new BailHook("auth", scopePolicies(container));
  }
}

/** What a plugin may do with the hooks: tap, never call. */
export interface PluginHooks {
  deploy: {
    deployed: { tap(fn: (pipeline: DeployedPipeline) => void | Promise<void>, options?: TapOptions): void };
    undeployed: { tap(fn: (name: string) => void | Promise<void>, options?: TapOptions): void };
    /** Handles deploy requests of one kind (`files`, `yaml`) and stages them (default: one text file); one handler per kind. */
    source(kind: string, handler: DeploySourceHandler, staging?: DeployStaging): void;
  };
  run: {
    /** `appliesTo` (optional): the interceptor is left out of the calls it returns false for, at no cost to them. */
    tap(interceptor: Interceptor<RunCall, unknown>, options?: InterceptorOptions<RunCall>): void;
    /** A layer that only watches runs (tracing, the execution index, metrics): no promise per run. */
    observe(observer: CallObserver<RunCall, unknown>, options?: TapOptions): void;
  };
  result: { tap(tap: ResultTap, options?: TapOptions): void };
  stream: { tap(tap: StreamTap, options?: TapOptions): void };
  trace: { tap(tracer: Tracer): void };
  auth: { tap(check: AccessCheck, options?: TapOptions): void };
  answered: { tap(fn: (request: AnsweredRequest) => void, options?: TapOptions): void };
}

export function pluginHooks(hooks: KernelHooks, plugin: string): PluginHooks {
  return {
    deploy: {
      deployed: { tap: (fn, o) => hooks.deploy.deployed.tap(plugin, fn, o) },
      undeployed: { tap: (fn, o) => hooks.deploy.undeployed.tap(plugin, fn, o) },
      source: (kind, handler, staging) => hooks.deploy.registerSource(plugin, kind, handler, staging),
    },
    run: { tap: (fn, o) => hooks.run.tap(plugin, fn, o), observe: (observer, o) => hooks.run.observe(plugin, observer, o) },
    result: { tap: (tap, o) => hooks.result.tap(plugin, tap, o) },
    stream: { tap: (tap, o) => hooks.stream.tap(plugin, tap, o) },
    trace: { tap: (tracer) => hooks.trace.tap(plugin, tracer) },
    auth: { tap: (check, o) => hooks.auth.tap(plugin, check, o) },
    answered: { tap: (fn, o) => hooks.answered.tap(plugin, fn, o) },
  };
}
