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

const STATE_PARAMETERS = Symbol.for("svc.engine.toolStateParameters");

/**
 * Marks arguments of a tool function that take the agent's live State (Python's `state: State`
 * annotation, which JS cannot read): the runner passes the State object itself under those
 * names, and schedules the call as reading and writing every state key. Returns `fn`.
 */
export function receivesState<F extends ToolFunction>(fn: F, ...parameters: string[]): F {
  Object.defineProperty(fn, STATE_PARAMETERS, { value: parameters.length ? parameters : ["state"], configurable: true });
  return fn;
}

/**
 * Turns a result (or its `source` field) into the text the LLM sees; `raw_result` keeps the
 * handler's value as is (image or text parts). Or, Haystack's multiple-output form, a map of
 * names to `{source, handler}`, each rendered and joined.
 */
export interface OutputsToString {
  source?: string;
  handler?: (value: unknown) => unknown;
  raw_result?: boolean;
  [output: string]: unknown;
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
  /** `function` or `async_function` (or both; `async_function` is preferred): JS calls either the same way. */
  function?: ToolFunction | null;
  async_function?: ToolFunction | null;
  outputs_to_string?: OutputsToString | null;
  /** State key → argument name: filled from state when the LLM did not send that argument. */
  inputs_from_state?: Record<string, string> | null;
  outputs_to_state?: Record<string, StateOutput> | null;
  /** Parameter names `inputs_from_state` may map to (ComponentTool: its input sockets); default: the schema's properties. */
  valid_inputs?: string[];
  /** Output names `outputs_to_state` sources may name (ComponentTool: its output sockets); default: not checked. */
  valid_outputs?: string[];
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
    throw new Error(`Tool '${name}': invalid parameters JSON Schema: The provided parameters do not define a valid JSON schema: ${messageOf(error)}`, { cause: error });
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
  readonly function: ToolFunction | null;
  readonly async_function: ToolFunction | null;
  readonly outputs_to_string: OutputsToString | null;
  readonly inputs_from_state: Record<string, string> | null;
  readonly outputs_to_state: Record<string, StateOutput> | null;
  private readonly validator: ValidateFunction;

  constructor(init: ToolInit) {
    if (!init?.name || typeof init.name !== "string") throw new Error("A Tool needs a non-empty name.");
    if ((init.function === undefined || init.function === null) && (init.async_function === undefined || init.async_function === null)) {
      throw new Error(`Tool '${init.name}' requires at least one of \`function\` or \`async_function\` to be set.`);
    }
    if (init.function != null && typeof init.function !== "function") throw new Error(`Tool '${init.name}': function must be a function.`);
    if (init.async_function != null && typeof init.async_function !== "function") throw new Error(`Tool '${init.name}': async_function must be a function.`);
    this.name = init.name;
    this.description = init.description ?? "";
    this.parameters = init.parameters;
    this.function = init.function ?? null;
    this.async_function = init.async_function ?? null;
    this.outputs_to_string = init.outputs_to_string ?? null;
    this.inputs_from_state = init.inputs_from_state ?? null;
    this.outputs_to_state = init.outputs_to_state ?? null;
    this.validator = compile(this.name, this.parameters);
    checkOutputsToState(this.name, this.outputs_to_state, init.valid_outputs);
    checkOutputsToString(this.outputs_to_string);
    const properties = this.parameters && typeof this.parameters.properties === "object" ? Object.keys(this.parameters.properties as object) : [];
    checkInputsFromState(this.inputs_from_state, init.valid_inputs ?? properties);
  }

  /** Prepares the tool before a run (Haystack's `warm_up`); must be idempotent. A plain Tool has nothing to prepare. */
  warmUp(): unknown {
    return undefined;
  }

  /** Arguments that take the agent's live State (see `receivesState`). */
  get stateParameters(): string[] {
    const marked = (fn: ToolFunction | null) => (fn as (ToolFunction & { [STATE_PARAMETERS]?: string[] }) | null)?.[STATE_PARAMETERS] ?? [];
    return [...new Set([...marked(this.function), ...marked(this.async_function)])];
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
    // The State object is the runner's, not the LLM's: the schema does not describe it.
    const stateParameters = this.stateParameters;
    const llmArgs = stateParameters.length ? Object.fromEntries(Object.entries(args).filter(([k]) => !stateParameters.includes(k))) : args;
    const problems = this.validate(llmArgs);
    if (problems) {
      throw new ToolInvocationError(this.name, `Failed to invoke Tool \`${this.name}\` with parameters ${JSON.stringify(llmArgs)}. Error: invalid arguments: ${problems}`);
    }
    try {
      return await (this.async_function ?? this.function)!(args, {
        signal: ctx.signal ?? new AbortController().signal,
        ...(ctx.streaming_callback ? { streaming_callback: ctx.streaming_callback } : {}),
        ...(ctx.span ? { span: ctx.span, tracer: ctx.tracer } : {}),
      });
    } catch (error) {
      throw new ToolInvocationError(this.name, `Failed to invoke Tool \`${this.name}\` with parameters ${JSON.stringify(llmArgs)}. Error: ${messageOf(error)}`, { cause: error });
    }
  }

  /**
   * `{type, data}` as Haystack writes it. Functions (and handlers) are written as the name they
   * were registered under; pass the registry to find names of functions not loaded from YAML.
   */
  toDict(registry?: EngineRegistry): { type: string; data: Record<string, unknown> } {
    const ref = (fn: unknown, what: string) => functionName(fn as NamedFunction, registry, `Tool '${this.name}': its ${what}`);
    // Every field, unset ones as null, as Haystack's asdict writes them.
    const data: Record<string, unknown> = {
      name: this.name,
      description: this.description,
      parameters: this.parameters,
      function: this.function ? ref(this.function, "function") : null,
      outputs_to_string: this.outputs_to_string ? serializeOutputsToString(this.outputs_to_string, (h, what) => ref(h, what)) : null,
      inputs_from_state: this.inputs_from_state ? { ...this.inputs_from_state } : null,
      outputs_to_state: this.outputs_to_state
        ? Object.fromEntries(Object.entries(this.outputs_to_state).map(([key, { handler, ...rest }]) => [key, handler ? { ...rest, handler: ref(handler, `outputs_to_state '${key}' handler`) } : rest]))
        : null,
      async_function: this.async_function ? ref(this.async_function, "async_function") : null,
    };
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
      function: data.function === null || data.function === undefined ? null : (resolve(data.function) as ToolFunction),
      async_function: data.async_function === null || data.async_function === undefined ? null : (resolve(data.async_function) as ToolFunction),
      outputs_to_string: data.outputs_to_string ? deserializeOutputsToString(data.outputs_to_string, resolve) : null,
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

const pySet = (names: Iterable<string>) => `{${[...names].map((n) => `'${n}'`).join(", ")}}`;
const isPlainObject = (x: unknown): x is Record<string, unknown> => !!x && typeof x === "object" && !Array.isArray(x);

/** Haystack's checks of `outputs_to_state`: object entries, string sources, function handlers, known outputs. */
function checkOutputsToState(name: string, config: Record<string, StateOutput> | null, validOutputs: string[] | undefined): void {
  if (!config) return;
  for (const [key, entry] of Object.entries(config)) {
    if (!isPlainObject(entry)) throw new TypeError(`outputs_to_state configuration for key '${key}' must be a dictionary`);
    if ("source" in entry && entry.source !== undefined && typeof entry.source !== "string") throw new Error(`outputs_to_state source for key '${key}' must be a string.`);
    if ("handler" in entry && entry.handler != null && typeof entry.handler !== "function") throw new Error(`outputs_to_state handler for key '${key}' must be callable`);
  }
  if (!validOutputs) return;
  for (const [key, entry] of Object.entries(config)) {
    if (entry.source !== undefined && entry.source !== null && !validOutputs.includes(entry.source)) {
      throw new Error(`outputs_to_state: '${name}' maps state key '${key}' to unknown output '${entry.source}'. Valid outputs are: ${pySet(validOutputs)}.`);
    }
  }
}

const SINGLE_KEYS = ["source", "handler", "raw_result"];

/** True for the single-output form (`source` / `handler` / `raw_result` at the root). */
export function isSingleOutputsToString(config: OutputsToString): boolean {
  return SINGLE_KEYS.some((k) => k in config);
}

/** Haystack's checks of `outputs_to_string`, in its single-output and multiple-output forms. */
function checkOutputsToString(config: OutputsToString | null): void {
  if (!config) return;
  if (!isPlainObject(config)) throw new TypeError("outputs_to_string must be a dictionary");
  if ("source" in config && typeof config.source !== "string") throw new Error("outputs_to_string source must be a string.");
  if ("handler" in config && config.handler != null && typeof config.handler !== "function") throw new Error("outputs_to_string handler must be callable");
  if ("raw_result" in config && typeof config.raw_result !== "boolean") throw new Error("outputs_to_string raw_result must be a boolean.");
  if (isSingleOutputsToString(config)) {
    if (Object.keys(config).some((k) => !SINGLE_KEYS.includes(k))) {
      throw new Error("Invalid outputs_to_string config. When using 'source', 'handler' or 'raw_result' at the root level, no other keys are allowed. Use individual output configs instead.");
    }
    return;
  }
  for (const [key, entry] of Object.entries(config)) {
    if (!isPlainObject(entry)) throw new TypeError(`outputs_to_string configuration for key '${key}' must be a dictionary`);
    if ("raw_result" in entry) throw new Error(`Invalid outputs_to_string configuration for key '${key}': 'raw_result' is not supported in the multiple output format.`);
    if (!("source" in entry)) throw new Error(`Invalid outputs_to_string configuration for key '${key}': each output must have a 'source' defined.`);
    if (typeof entry.source !== "string") throw new Error(`outputs_to_string source for key '${key}' must be a string.`);
    if ("handler" in entry && entry.handler != null && typeof entry.handler !== "function") throw new Error(`outputs_to_string handler for key '${key}' must be callable`);
  }
}

/** Haystack's check of `inputs_from_state`: string values naming known parameters (when any are known). */
function checkInputsFromState(config: Record<string, string> | null, validInputs: string[]): void {
  if (!config) return;
  for (const [stateKey, param] of Object.entries(config)) {
    if (typeof param !== "string") {
      const kind = param === null ? "NoneType" : Array.isArray(param) ? "list" : typeof param === "object" ? "dict" : typeof param;
      throw new TypeError(`inputs_from_state values must be str, not ${kind}. Got ${JSON.stringify(param)} for key '${stateKey}'.`);
    }
    if (validInputs.length && !validInputs.includes(param)) throw new Error(`inputs_from_state maps '${stateKey}' to unknown parameter '${param}'. Valid parameters are: ${pySet(validInputs)}.`);
  }
}

/** Handlers by name, in either form of `outputs_to_string`. */
export function serializeOutputsToString(config: OutputsToString, ref: (handler: unknown, what: string) => string): Record<string, unknown> {
  const one = (entry: Record<string, unknown>, what: string) => {
    const { handler, ...rest } = entry;
    return handler ? { ...rest, handler: ref(handler, what) } : rest;
  };
  if (isSingleOutputsToString(config)) return one(config, "outputs_to_string handler");
  return Object.fromEntries(Object.entries(config).map(([key, entry]) => [key, one(entry as Record<string, unknown>, `outputs_to_string '${key}' handler`)]));
}

export function deserializeOutputsToString(config: Record<string, unknown>, resolve: (name: unknown) => unknown): OutputsToString {
  const one = (entry: Record<string, unknown>) => (entry.handler === undefined || entry.handler === null ? entry : { ...entry, handler: resolve(entry.handler) });
  if (isSingleOutputsToString(config as OutputsToString)) return one(config) as OutputsToString;
  return Object.fromEntries(Object.entries(config).map(([key, entry]) => [key, isPlainObject(entry) ? one(entry) : entry])) as OutputsToString;
}
