/**
 * @module Pipeline: components wired by typed connections, run with Haystack 2.x semantics by the
 * scheduler. Building follows Haystack's rules and error texts: unique names without dots, one
 * pipeline per component instance, connect-time type checks with smart conversions.
 */
import { isDeepStrictEqual } from "node:util";
import type { Logger, Span, Tracer } from "svc/plugin";
import { isComponent, type Component, type InputSocket, type OutputSocket } from "../component.js";
import { typeName } from "../type-ref.js";
import { makeAutoVariadic, parseEndpoint, resolveEdge, unmakeAutoVariadic, type Edge } from "./connections.js";
import { PipelineConnectError, PipelineError, PipelineValidationError, ValueError } from "./errors.js";
import { runPipeline, type PipelineResult } from "./scheduler.js";
import { streamPipeline, type PipelineStreamHandle, type StreamOptions } from "./stream.js";
import { shortType } from "./blocking.js";
import { clearMembership, membershipOf, setMembership } from "./membership.js";

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
  /** Where components and the run log their warnings (Haystack's logger): undeclared output keys, a blocked pipeline. */
  log?: Logger;
  /** Called before each component runs and after it finished (streaming helpers, tests). */
  onComponentStart?(name: string): void;
  onComponentEnd?(name: string, outputs: Record<string, unknown>): void;
}


export interface SocketInfo {
  type: string;
  /** Inputs only. */
  isMandatory?: boolean;
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

  /** Adds a component under a name; adding the same instance under the same name again does nothing (Haystack 3). */
  addComponent(name: string, component: Component): this {
    if (this.checkNewComponent(name, component)) {
      setMembership(component, this, name);
      this.nodes.set(name, component);
    }
    return this;
  }

  /** Adds several components; nothing is added when one of them cannot be. */
  addComponents(components: Record<string, Component>): this {
    const toAdd: [string, Component][] = [];
    const seen = new Map<Component, string>();
    for (const [name, component] of Object.entries(components)) {
      if (!this.checkNewComponent(name, component)) continue;
      const previous = seen.get(component);
      if (previous !== undefined) throw new PipelineError(`Component instance cannot be added to the pipeline more than once. It is mapped to both '${previous}' and '${name}'.`);
      seen.set(component, name);
      toAdd.push([name, component]);
    }
    for (const [name, component] of toAdd) this.addComponent(name, component);
    return this;
  }

  /** Haystack's `_validate_component`: whether the component still needs adding, or why it cannot be. */
  private checkNewComponent(name: string, component: Component): boolean {
    const existing = this.nodes.get(name);
    if (existing) {
      if (existing === component) return false;
      throw new ValueError(`A component named '${name}' already exists in this pipeline: choose another name.`);
    }
    if (name === "_debug") throw new ValueError("'_debug' is a reserved name for debug output. Choose another name.");
    if (name.includes(".")) throw new ValueError(`${name} is an invalid component name, cannot contain '.' (dot) characters.`);
    if (!isComponent(component)) throw new PipelineValidationError(`'${typeof component}' doesn't seem to be a component. Is this class derived from Component?`);
    const owner = membershipOf(component)?.pipeline;
    if (owner === this) {
      const existingName = [...this.nodes].find(([, c]) => c === component)![0];
      throw new PipelineError(`Component has already been added to this Pipeline under the name '${existingName}'. A component instance can only be added once.`);
    }
    if (owner) throw new PipelineError("Component has already been added in another Pipeline. Components can't be shared between Pipelines. Create a new instance instead.");
    return true;
  }

  /**
   * Removes a component and its connections and returns it, free to be added again (here or to
   * another pipeline). A socket made variadic by two senders becomes single again when one is left.
   */
  removeComponent(name: string): Component {
    const component = this.nodes.get(name);
    if (!component) throw new ValueError(`There is no component named '${name}' in the pipeline. The valid component names are: ${this.componentNames.join(", ")}`);
    const touched = this.edgeList.filter((e) => e.sender === name || e.receiver === name);
    for (let i = this.edgeList.length - 1; i >= 0; i--) if (touched.includes(this.edgeList[i]!)) this.edgeList.splice(i, 1);
    for (const e of touched) {
      if (e.receiver === name) continue;
      const socket = this.nodes.get(e.receiver)!.inputSockets[e.receiverSocket]!;
      if (socket.autoVariadic && this.sendersOf(e.receiver, e.receiverSocket).length <= 1) unmakeAutoVariadic(socket);
    }
    for (const socket of Object.values(component.inputSockets)) if (socket.autoVariadic) unmakeAutoVariadic(socket);
    this.nodes.delete(name);
    clearMembership(component);
    return component;
  }

  getComponent(name: string): Component {
    const c = this.nodes.get(name);
    if (!c) throw new ValueError(`Component named ${name} not found in the pipeline.`);
    return c;
  }

  /** The name a component instance has in this pipeline. */
  getComponentName(component: Component): string {
    for (const [name, c] of this.nodes) if (c === component) return name;
    return "";
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
    if (s.component === r.component) throw new PipelineConnectError("Connecting a Component to itself is not supported.");
    const from = this.nodes.get(s.component);
    if (!from) throw new ValueError(`Component named ${s.component} not found in the pipeline.`);
    const to = this.nodes.get(r.component);
    if (!to) throw new ValueError(`Component named ${r.component} not found in the pipeline.`);
    const pair = resolveEdge(s.component, from, s.socket, r.component, to, r.socket, this.connectionTypeValidation);
    const existing = this.edgeList.find((e) => e.sender === s.component && e.senderSocket === pair.out.name && e.receiver === r.component && e.receiverSocket === pair.in.name);
    if (existing) return this;
    const otherSenders = this.sendersOf(r.component, pair.in.name);
    if (otherSenders.length > 0) makeAutoVariadic(r.component, pair.in, otherSenders[0]!.sender, PipelineConnectError);
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

  /** Connects several `[sender, receiver]` pairs in order. */
  connectMany(connections: readonly (readonly [string, string])[]): this {
    for (const [sender, receiver] of connections) this.connect(sender, receiver);
    return this;
  }

  /** Haystack's `walk()`: every component once, with its name. */
  walk(): [string, Component][] {
    return [...this.nodes];
  }

  /**
   * Haystack's `to_dict`: every component's `{type, init_parameters}` (defaults included) and the
   * connections in the order they were made.
   */
  toDict(): { metadata: Record<string, unknown>; max_runs_per_component: number; components: Record<string, ReturnType<Component["toDict"]>>; connections: { sender: string; receiver: string }[]; connection_type_validation: boolean } {
    return {
      metadata: this.metadata,
      max_runs_per_component: this.maxRunsPerComponent,
      components: Object.fromEntries([...this.nodes].map(([name, c]) => [name, c.toDict()])),
      connections: this.edgeList.map((e) => ({ sender: `${e.sender}.${e.senderSocket}`, receiver: `${e.receiver}.${e.receiverSocket}` })),
      connection_type_validation: this.connectionTypeValidation,
    };
  }

  /** Haystack's `==`: the same class and the same `toDict()`. Anything that is not a pipeline is never equal. */
  equals(other: unknown): boolean {
    return other instanceof Pipeline && other.constructor === this.constructor && isDeepStrictEqual(this.toDict(), other.toDict());
  }

  /** Haystack's `repr`: metadata, components with their class names, connections with their types. */
  toString(): string {
    let text = `${this.constructor.name}\n`;
    const metadata = Object.entries(this.metadata);
    if (metadata.length) text += `🧱 Metadata\n${metadata.map(([k, v]) => `  - ${k}: ${typeof v === "string" ? v : JSON.stringify(v)}\n`).join("")}`;
    text += `🚅 Components\n${[...this.nodes].map(([name, c]) => `  - ${name}: ${shortType(c.type)}\n`).join("")}`;
    text += "🛤️ Connections\n";
    for (const e of this.edgeList) {
      text += `  - ${e.sender}.${e.senderSocket} -> ${e.receiver}.${e.receiverSocket} (${typeName(this.nodes.get(e.sender)!.outputSockets[e.senderSocket]!.type)})\n`;
    }
    return text;
  }

  /** Haystack's `warm_up()`: warms every component up (runs do this too; `warmUp` is idempotent). */
  async warmUp(): Promise<void> {
    for (const c of this.nodes.values()) await c.warmUp?.();
  }

  /** Haystack's `close()`: releases every component's resources; runs never close (closing is explicit). */
  async close(): Promise<void> {
    for (const c of this.nodes.values()) await c.close?.();
  }

  /** Runs with `data` keyed by component (`{llm: {messages}}`) or flat (`{query}`: sent to every open socket of that name). */
  run(data: Record<string, unknown> = {}, options: RunOptions = {}): Promise<PipelineResult> {
    return runPipeline(this, data, options);
  }

  /** Runs and streams the streaming components' chunks (Haystack 3's `stream`); see stream.ts. */
  stream(data: Record<string, unknown> = {}, options: StreamOptions = {}): PipelineStreamHandle {
    return streamPipeline(this, data, options);
  }

  private describe(pick: (name: string, c: Component) => (InputSocket | OutputSocket)[]): Record<string, Record<string, SocketInfo>> {
    const out: Record<string, Record<string, SocketInfo>> = {};
    for (const [name, c] of this.nodes) {
      const sockets = pick(name, c);
      if (sockets.length === 0) continue;
      out[name] = Object.fromEntries(
        sockets.map((s) => {
          if (!("mandatory" in s)) return [s.name, { type: typeName(s.type) }];
          // A socket fed by a sender is not the user's to fill (Haystack's describe_input).
          const mandatory = s.mandatory && this.sendersOf(name, s.name).length === 0;
          return [s.name, { type: typeName(s.type), isMandatory: mandatory, ...(s.mandatory ? {} : { default: s.default }) }];
        }),
      );
    }
    return out;
  }
}

