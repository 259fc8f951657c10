/**
 * @module Pipeline: components wired by typed connections, run with Haystack 2.x semantics by the
 * scheduler. Building follows Haystack's rules and error texts: unique names without dots, one
 * pipeline per component instance, connect-time type checks with smart conversions.
 */
import type { Span, Tracer } from "svc";
import type { Component, InputSocket, OutputSocket } from "../component.js";
import { typeName } from "../type-ref.js";
import { isListLike, parseEndpoint, resolveEdge, type Edge } from "./connections.js";
import { PipelineConnectError, PipelineError } from "./errors.js";
import { runPipeline, type PipelineResult } from "./scheduler.js";

export interface PipelineOptions {
  metadata?: Record<string, unknown>;
  maxRunsPerComponent?: number;
  connectionTypeValidation?: boolean;
}

export interface RunOptions {
  /** Components whose full outputs (consumed ones too) go into the result. */
  includeOutputsFrom?: Iterable<string>;
  /** How many components may run at once (default 4; 1 runs one at a time). */
  concurrencyLimit?: number;
  signal?: AbortSignal;
  tracer?: Tracer;
  parentSpan?: Span;
  /** Record inputs and outputs as span tags (default: `HAYSTACK_CONTENT_TRACING_ENABLED`). */
  contentTracing?: boolean;
  /** Called before each component runs and after it finished (streaming helpers, tests). */
  onComponentStart?(name: string): void;
  onComponentEnd?(name: string, outputs: Record<string, unknown>): void;
}

const owners = new WeakMap<Component, Pipeline>();

export interface SocketInfo {
  type: string;
  isMandatory: boolean;
  default?: unknown;
}

export class Pipeline {
  readonly metadata: Record<string, unknown>;
  readonly maxRunsPerComponent: number;
  readonly connectionTypeValidation: boolean;
  private readonly nodes = new Map<string, Component>();
  private readonly edgeList: Edge[] = [];

  constructor(options: PipelineOptions = {}) {
    this.metadata = options.metadata ?? {};
    this.maxRunsPerComponent = options.maxRunsPerComponent ?? 100;
    this.connectionTypeValidation = options.connectionTypeValidation ?? true;
  }

  addComponent(name: string, component: Component): this {
    if (this.nodes.has(name)) throw new PipelineError(`A component named '${name}' already exists in this pipeline: choose another name.`);
    if (name.includes(".")) throw new PipelineError(`'${name}' is not a valid component name: it cannot contain '.' characters.`);
    if (name === "_debug") throw new PipelineError("'_debug' is a reserved name for debug output. Choose another name.");
    if (owners.has(component)) throw new PipelineError("Component has already been added in another Pipeline. Components can't be shared between Pipelines. Create a new instance instead.");
    owners.set(component, this);
    this.nodes.set(name, component);
    return this;
  }

  getComponent(name: string): Component {
    const c = this.nodes.get(name);
    if (!c) throw new PipelineError(`Component named ${name} not found in the pipeline.`);
    return c;
  }

  get componentNames(): string[] {
    return [...this.nodes.keys()];
  }

  get edges(): readonly Edge[] {
    return this.edgeList;
  }

  connect(sender: string, receiver: string): this {
    const s = parseEndpoint(sender);
    const r = parseEndpoint(receiver);
    const from = this.nodes.get(s.component);
    if (!from) throw new PipelineConnectError(`Component named ${s.component} not found in the pipeline.`);
    const to = this.nodes.get(r.component);
    if (!to) throw new PipelineConnectError(`Component named ${r.component} not found in the pipeline.`);
    const pair = resolveEdge(s.component, from, s.socket, r.component, to, r.socket, this.connectionTypeValidation);
    const existing = this.edgeList.find((e) => e.sender === s.component && e.senderSocket === pair.out.name && e.receiver === r.component && e.receiverSocket === pair.in.name);
    if (existing) return this;
    const otherSenders = this.sendersOf(r.component, pair.in.name);
    if (otherSenders.length > 0 && pair.in.kind === "normal") {
      if (!isListLike(pair.in)) {
        throw new PipelineConnectError(
          `Cannot connect '${s.component}.${pair.out.name}' with '${r.component}.${pair.in.name}': ${r.component}.${pair.in.name} is already connected to ${otherSenders.map((e) => e.sender).join(", ")}.`,
        );
      }
      // A list socket with a second sender collects from all of them, lists concatenated.
      pair.in.kind = "lazyVariadic";
      pair.in.autoVariadic = true;
    }
    this.edgeList.push({ sender: s.component, senderSocket: pair.out.name, receiver: r.component, receiverSocket: pair.in.name, conversion: pair.conversion });
    return this;
  }

  sendersOf(component: string, socket: string): Edge[] {
    return this.edgeList.filter((e) => e.receiver === component && e.receiverSocket === socket);
  }

  receiversOf(component: string): Edge[] {
    return this.edgeList.filter((e) => e.sender === component);
  }

  /** Input sockets nobody sends to (and variadic ones), or all of them. */
  inputs(includeConnected = false): Record<string, Record<string, SocketInfo>> {
    return this.describe((name, c) =>
      Object.values(c.inputSockets).filter((s) => includeConnected || s.kind !== "normal" || this.sendersOf(name, s.name).length === 0),
    );
  }

  /** Output sockets nothing consumes, or all of them. */
  outputs(includeConnected = false): Record<string, Record<string, SocketInfo>> {
    return this.describe((name, c) =>
      Object.values(c.outputSockets).filter((s) => includeConnected || !this.edgeList.some((e) => e.sender === name && e.senderSocket === s.name)),
    );
  }

  /** Runs with `data` keyed by component (`{llm: {messages}}`) or flat (`{query}`: sent to every open socket of that name). */
  run(data: Record<string, unknown> = {}, options: RunOptions = {}): Promise<PipelineResult> {
    return runPipeline(this, data, options);
  }

  private describe(pick: (name: string, c: Component) => (InputSocket | OutputSocket)[]): Record<string, Record<string, SocketInfo>> {
    const out: Record<string, Record<string, SocketInfo>> = {};
    for (const [name, c] of this.nodes) {
      const sockets = pick(name, c);
      if (sockets.length === 0) continue;
      out[name] = Object.fromEntries(
        sockets.map((s) => [s.name, "mandatory" in s ? { type: typeName(s.type), isMandatory: s.mandatory, ...(s.mandatory ? {} : { default: s.default }) } : { type: typeName(s.type), isMandatory: false }]),
      );
    }
    return out;
  }
}
