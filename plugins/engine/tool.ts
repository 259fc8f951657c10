/**
 * @module Tool: a function an LLM may call, described by a name, a description and a JSON Schema
 * of its arguments (Haystack's `haystack.tools.tool.Tool`, pipeline-engine.md §5.2). Arguments are
 * checked against the schema before the function runs, so a model's malformed call becomes a
 * readable error the model can correct. Serialized tools name their function by its registered
 * name: YAML never carries or evaluates code.
 */
import { createRequire } from "node:module";
import type { Ajv2020, ValidateFunction } from "ajv/dist/2020.js";
import { messageOf, type Span, type Tracer } from "svc/plugin";
import type { StreamingCallback } from "./dataclasses/streaming-chunk.js";
import type { EngineRegistry, NamedFunction } from "./registry.js";
import { callableName } from "./callable-names.js";

export type JsonSchema = Record<string, unknown>;

/** What a tool function gets besides its arguments. */
export interface ToolContext {
  /** Aborted when the run is cancelled or a sibling tool failed with raise_on_failure. */
  signal: AbortSignal;
  /** Only with `enable_streaming_callback_passthrough`: the run's streaming callback. */
  streaming_callback?: StreamingCallback;
  /** The tool call's span and tracer (an Agent's `haystack.agent.step.tool`), when traced. */
  span?: Span;
  tracer?: Tracer;
}

export type ToolFunction = (args: Record<string, any>, ctx: ToolContext) => unknown;

/** Turns a result (or its `source` field) into the text the LLM sees. */
export interface OutputsToString {
  source?: string;
  handler?: (value: unknown) => unknown;
}

/** Where a result (or its `source` field) goes in the agent's state; `handler(current, new)` merges. */
export interface StateOutput {
  source?: string;
  handler?: (current: unknown, incoming: unknown) => unknown;
}

export interface ToolInit {
  name: string;
  description: string;
  parameters: JsonSchema;
  function: ToolFunction;
  outputs_to_string?: OutputsToString | null;
  /** State key → argument name: filled from state when the LLM did not send that argument. */
  inputs_from_state?: Record<string, string> | null;
  outputs_to_state?: Record<string, StateOutput> | null;
}

export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export const TOOL_TYPE = "haystack.tools.tool.Tool";

/** A tool failed: bad arguments, or its function threw. Names the tool; the cause is kept. */
export class ToolInvocationError extends Error {
  constructor(
    readonly toolName: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ToolInvocationError";
  }
}

// One validator instance for every tool: ajv caches compiled schemas. Draft 2020-12 is what
// Haystack checks tool schemas against. Not strict, and formats not checked: schemas written for
// LLMs often carry extra keywords or formats ajv would otherwise reject or warn about. Made with
// the first tool: ajv costs ~8 MB resident, which a service without tools should not pay.
let validators: Ajv2020 | undefined;
function ajv(): Ajv2020 {
  if (validators) return validators;
  const { Ajv2020 } = createRequire(import.meta.url)("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  return (validators = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, logger: false }));
}

/** Names the registry gave functions, so a tool made by fromDict dumps back to the same name. */
const registeredNames = new WeakMap<object, string>();

function compile(name: string, parameters: JsonSchema): ValidateFunction {
  if (!parameters || typeof parameters !== "object" || Array.isArray(parameters)) {
    throw new Error(`Tool '${name}': parameters must be a JSON Schema object.`);
  }
  // A `$schema` naming another draft would make ajv look for a meta-schema it does not have.
  const { $schema: _ignored, ...schema } = parameters;
  try {
    return ajv().compile(schema);
  } catch (error) {
    throw new Error(`Tool '${name}': invalid parameters JSON Schema: ${messageOf(error)}`, { cause: error });
  } finally {
    // ajv keeps every compiled schema (and its `$id`) forever: redeploys would grow the cache and a
    // reloaded tool with an `$id` would clash. The compiled function does not need the entry.
    ajv().removeSchema(schema);
  }
}

export class Tool {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  readonly function: ToolFunction;
  readonly outputs_to_string: OutputsToString | null;
  readonly inputs_from_state: Record<string, string> | null;
  readonly outputs_to_state: Record<string, StateOutput> | null;
  private readonly validator: ValidateFunction;

  constructor(init: ToolInit) {
    if (!init?.name || typeof init.name !== "string") throw new Error("A Tool needs a non-empty name.");
    if (typeof init.function !== "function") throw new Error(`Tool '${init.name}': function must be a function.`);
    this.name = init.name;
    this.description = init.description ?? "";
    this.parameters = init.parameters;
    this.function = init.function;
    this.outputs_to_string = init.outputs_to_string ?? null;
    this.inputs_from_state = init.inputs_from_state ?? null;
    this.outputs_to_state = init.outputs_to_state ?? null;
    this.validator = compile(this.name, this.parameters);
  }

  /** What the chat generator sends to the LLM. */
  get toolSpec(): ToolSpec {
    return { name: this.name, description: this.description, parameters: this.parameters };
  }

  /** Problems with `args` against the parameters schema, or null when they fit. */
  validate(args: Record<string, unknown>): string | null {
    if (this.validator(args)) return null;
    return ajv().errorsText(this.validator.errors, { dataVar: "arguments" });
  }

  /** Validates, then runs the function; every failure is a ToolInvocationError naming the tool. */
  async invoke(args: Record<string, unknown>, ctx: Partial<ToolContext> = {}): Promise<unknown> {
    const problems = this.validate(args);
    if (problems) {
      throw new ToolInvocationError(this.name, `Failed to invoke Tool '${this.name}' with parameters ${JSON.stringify(args)}. Error: invalid arguments: ${problems}`);
    }
    try {
      return await this.function(args, {
        signal: ctx.signal ?? new AbortController().signal,
        ...(ctx.streaming_callback ? { streaming_callback: ctx.streaming_callback } : {}),
        ...(ctx.span ? { span: ctx.span, tracer: ctx.tracer } : {}),
      });
    } catch (error) {
      throw new ToolInvocationError(this.name, `Failed to invoke Tool '${this.name}' with parameters ${JSON.stringify(args)}. Error: ${messageOf(error)}`, { cause: error });
    }
  }

  /**
   * `{type, data}` as Haystack writes it. Functions (and handlers) are written as the name they
   * were registered under; pass the registry to find names of functions not loaded from YAML.
   */
  toDict(registry?: EngineRegistry): { type: string; data: Record<string, unknown> } {
    const ref = (fn: unknown, what: string) => functionName(fn as NamedFunction, registry, `Tool '${this.name}': its ${what}`);
    const data: Record<string, unknown> = { name: this.name, description: this.description, parameters: this.parameters, function: ref(this.function, "function") };
    if (this.outputs_to_string) {
      const { handler, ...rest } = this.outputs_to_string;
      data.outputs_to_string = handler ? { ...rest, handler: ref(handler, "outputs_to_string handler") } : rest;
    }
    if (this.inputs_from_state) data.inputs_from_state = { ...this.inputs_from_state };
    if (this.outputs_to_state) {
      data.outputs_to_state = Object.fromEntries(
        Object.entries(this.outputs_to_state).map(([key, { handler, ...rest }]) => [key, handler ? { ...rest, handler: ref(handler, `outputs_to_state '${key}' handler`) } : rest]),
      );
    }
    return { type: TOOL_TYPE, data };
  }

  /** Accepts `{type, data}` or just `data`; functions and handlers are looked up by name. */
  static fromDict(dict: Record<string, unknown>, registry: EngineRegistry): Tool {
    const data = (dict.type !== undefined && dict.data && typeof dict.data === "object" ? dict.data : dict) as Record<string, any>;
    if (dict.type !== undefined && dict.type !== TOOL_TYPE && dict.type !== "Tool") throw new Error(`Cannot load a Tool from type '${String(dict.type)}'.`);
    const resolve = (name: unknown) => {
      if (typeof name !== "string") throw new Error(`Tool '${data.name}': functions are given by their registered name, got ${JSON.stringify(name)}.`);
      const fn = registry.getFunction(name);
      registeredNames.set(fn, name);
      return fn;
    };
    const mapHandlers = <T extends { handler?: unknown }>(entry: T) => (entry.handler === undefined || entry.handler === null ? entry : { ...entry, handler: resolve(entry.handler) });
    return new Tool({
      name: data.name,
      description: data.description,
      parameters: data.parameters,
      function: resolve(data.function) as ToolFunction,
      outputs_to_string: data.outputs_to_string ? (mapHandlers(data.outputs_to_string) as OutputsToString) : null,
      inputs_from_state: data.inputs_from_state ?? null,
      outputs_to_state: data.outputs_to_state
        ? Object.fromEntries(Object.entries(data.outputs_to_state as Record<string, StateOutput>).map(([k, e]) => [k, mapHandlers(e) as StateOutput]))
        : null,
    });
  }
}

function functionName(fn: NamedFunction, registry: EngineRegistry | undefined, what: string): string {
  const known = registeredNames.get(fn) ?? callableName(fn);
  if (known) return known;
  if (registry) for (const [name, candidate] of registry.functions) if (candidate === fn) return name;
  // A named function is assumed to be registered under its own name (checked again on load).
  if (fn.name && !fn.name.startsWith("bound ")) return fn.name;
  throw new Error(`${what} has no name to serialize: register it with registry.registerFunction(name, fn).`);
}

/** `tool({name, description, parameters}, fn)`: a Tool from a spec and a function. */
export function tool(spec: { name: string; description?: string; parameters?: JsonSchema }, fn: ToolFunction, extra: Partial<Omit<ToolInit, "function">> = {}): Tool {
  return new Tool({ ...extra, name: spec.name, description: spec.description ?? "", parameters: spec.parameters ?? { type: "object", properties: {} }, function: fn });
}
