/**
 * @module The component contract. A component class declares its type string (Haystack's dotted
 * path) and aliases, a valibot schema for its init parameters, and per instance its input and
 * output sockets (valibot schemas, defaults, variadic kinds) and `run(inputs, ctx)`, which returns
 * a plain object of outputs (only some of them for a router).
 */
import * as v from "valibot";
import type { Logger, Span, Tracer } from "svc/plugin";
import type { StreamingCallback } from "./dataclasses/streaming-chunk.js";
import { typeRefOf, type TypeRef } from "./type-ref.js";
import { callableName } from "./callable-names.js";
import { checkInitParameterNames } from "./init-parameters.js";

export type SocketKind = "normal" | "lazyVariadic" | "greedyVariadic";

export interface InputSocketSpec {
  /** The value schema (for a variadic socket: of one sender's value). Absent means any. */
  readonly schema?: v.GenericSchema;
  readonly kind?: SocketKind;
  /** Makes the socket optional; the pipeline fills it in when nobody supplies a value. */
  readonly default?: unknown;
  readonly optional?: boolean;
}

export interface OutputSocketSpec {
  readonly schema?: v.GenericSchema;
}

export interface InputSocket {
  readonly name: string;
  readonly type: TypeRef;
  readonly schema?: v.GenericSchema;
  kind: SocketKind;
  readonly mandatory: boolean;
  readonly default: unknown;
  /** Became variadic because a second sender was connected to a list socket. */
  autoVariadic?: boolean;
}

export interface OutputSocket {
  readonly name: string;
  readonly type: TypeRef;
  readonly schema?: v.GenericSchema;
}

/** An input socket; `default` (even `null`) makes it optional. */
export function socket(schema?: v.GenericSchema, options: { default?: unknown } = {}): InputSocketSpec {
  return "default" in options ? { schema, default: options.default, optional: true } : { schema };
}

/** Collects one value from every connected sender into a list. */
export function variadic(schema?: v.GenericSchema): InputSocketSpec {
  return { schema, kind: "lazyVariadic" };
}

/** Runs as soon as any one sender delivers; takes only that value (loops). */
export function greedyVariadic(schema?: v.GenericSchema): InputSocketSpec {
  return { schema, kind: "greedyVariadic" };
}

export function output(schema?: v.GenericSchema): OutputSocketSpec {
  return { schema };
}

/** What `run` gets besides its inputs. */
export interface ComponentContext {
  /** The component's name in its pipeline. */
  readonly name: string;
  readonly signal: AbortSignal;
  readonly tracer: Tracer;
  /** The component's own span: parent of spans it makes (an Agent's steps). */
  readonly span?: Span;
  readonly log?: Logger;
}

export type Outputs = Record<string, unknown>;

export interface ComponentClass<C extends Component<any> = Component<any>> {
  new (init?: any): C;
  /** Canonical type string: Haystack's dotted path, written to YAML. */
  readonly type: string;
  readonly aliases?: readonly string[];
}

/** A run's warnings: the component's logger, or the console for a component run on its own. */
export const warnerOf = (ctx: ComponentContext | undefined) => (message: string) => (ctx?.log ? ctx.log.warn(message) : console.warn(message));

export abstract class Component<P = any> {
  /** Validates init parameters; subclasses set their own. */
  static readonly initSchema: v.GenericSchema<unknown, unknown> = v.optional(v.record(v.string(), v.unknown()), {});
  static readonly type: string = "";
  static readonly aliases: readonly string[] = [];

  readonly initParameters: P;
  /** The init parameters as given, for serialization. */
  protected readonly rawInit: Record<string, unknown>;
  private sockets?: { inputs: Record<string, InputSocket>; outputs: Record<string, OutputSocket> };

  constructor(init: unknown = {}) {
    const cls = this.constructor as typeof Component;
    this.rawInit = (init ?? {}) as Record<string, unknown>;
    checkInitParameterNames(cls.type || cls.name, cls.initSchema, init);
    const result = v.safeParse(cls.initSchema, init ?? {});
    if (!result.success) {
      const issues = result.issues.map((i) => `${v.getDotPath(i) ?? "init_parameters"}: ${i.message}`).join("; ");
      throw new Error(`Invalid init parameters for ${cls.type || cls.name}: ${issues}`);
    }
    this.initParameters = result.output as P;
  }

  /** The canonical type string of this component's class. */
  get type(): string {
    const cls = this.constructor as typeof Component;
    return cls.type || cls.name;
  }

  protected abstract inputSpecs(): Record<string, InputSocketSpec>;
  protected abstract outputSpecs(): Record<string, OutputSocketSpec>;
  abstract run(inputs: Record<string, any>, ctx: ComponentContext): Outputs | Promise<Outputs>;

  /** Idempotent; called before every pipeline run. */
  warmUp?(): void | Promise<void>;

  /** Releases what `warmUp` or runs opened (clients); called by `Pipeline.close()`, never by a run. */
  close?(): void | Promise<void>;

  get inputSockets(): Record<string, InputSocket> {
    return this.socketsOnce().inputs;
  }

  get outputSockets(): Record<string, OutputSocket> {
    return this.socketsOnce().outputs;
  }

  /**
   * `{type, init_parameters}` with every init parameter, defaults included (as Haystack's
   * `default_to_dict` writes them), values that serialize themselves (`toDict`) serialized.
   */
  toDict(): { type: string; init_parameters: Record<string, unknown> } {
    const cls = this.constructor as typeof Component;
    return { type: this.type, init_parameters: serializeValue({ ...initDefaults(cls.initSchema), ...this.rawInit }) as Record<string, unknown> };
  }

  private socketsOnce() {
    if (!this.sockets) {
      const inputs: Record<string, InputSocket> = {};
      for (const [name, spec] of Object.entries(this.inputSpecs())) {
        const optional = spec.optional === true || "default" in spec;
        inputs[name] = { name, type: typeRefOf(spec.schema), schema: spec.schema, kind: spec.kind ?? "normal", mandatory: !optional, default: spec.default };
      }
      const outputs: Record<string, OutputSocket> = {};
      for (const [name, spec] of Object.entries(this.outputSpecs())) outputs[name] = { name, type: typeRefOf(spec.schema), schema: spec.schema };
      this.sockets = { inputs, outputs };
    }
    return this.sockets;
  }
}

/** The defaults an init schema declares, by parameter (none for a schema that is not an object). */
function initDefaults(schema: v.GenericSchema): Record<string, unknown> {
  let s = schema as v.GenericSchema & { type: string; wrapped?: v.GenericSchema; entries?: Record<string, v.GenericSchema> };
  while (s.wrapped && !s.entries) s = s.wrapped as typeof s;
  if (!s.entries) return {};
  const out: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(s.entries)) {
    let value: unknown;
    try {
      value = v.getDefault(entry as never);
    } catch {
      continue;
    }
    // No declared default: Haystack writes such a parameter as None; so do we wherever null reads back.
    if (value !== undefined) out[name] = value;
    else if (v.is(entry as v.GenericSchema, null)) out[name] = null;
  }
  return out;
}

/**
 * Serializes init parameters: objects with `toDict()` (secrets, stores, messages) call it;
 * functions YAML named (a streaming callback's import path) are written as that name.
 */
export function serializeValue(value: unknown): unknown {
  if (value === null || typeof value !== "object") return typeof value === "function" ? (callableName(value) ?? null) : value;
  if (typeof (value as { toDict?: unknown }).toDict === "function") return (value as { toDict(): unknown }).toDict();
  if (Array.isArray(value)) return value.map(serializeValue);
  return Object.fromEntries(Object.entries(value).map(([k, val]) => [k, serializeValue(val)]));
}

/** Duck-typed: a component from another copy of the engine module still qualifies. */
export const isComponent = (x: unknown): x is Component =>
  !!x && typeof x === "object" && typeof (x as Component).run === "function" && typeof (x as Component).inputSockets === "object";

/** A streaming callback given at run time wins over the one given at init (Haystack's rule). */
export function selectStreamingCallback(init: unknown, runtime: unknown): StreamingCallback | undefined {
  if (typeof runtime === "function") return runtime as StreamingCallback;
  if (typeof init === "function") return init as StreamingCallback;
  return undefined;
}
