/**
 * @module ComponentTool (haystack.tools.component_tool.ComponentTool): a component an LLM may call
 * as a tool. Its parameters schema comes from the component's input sockets (callbacks and inputs
 * taken from state left out; lists of Documents or ChatMessages described as objects and turned
 * back into them), its name defaults to the class name in snake case, and a call runs the
 * component as a pipeline would and answers with its outputs. Serialized as Haystack writes it:
 * `{type, data: {component: {type, init_parameters}, name, description, parameters, …}}`.
 */
import * as v from "valibot";
import type { Component, InputSocket } from "./component.js";
import { ChatMessage } from "./dataclasses/chat-message.js";
import { ByteStream, Document } from "./dataclasses/document.js";
import { runNested } from "./components/nested-component.js";
import { Tool, type JsonSchema, type OutputsToString, type StateOutput, type ToolContext } from "./tool.js";
import type { EngineRegistry } from "./registry.js";
import { isInPipeline } from "./pipeline/membership.js";
import { ValueError } from "./pipeline/errors.js";
import { parametersFromSockets, takesState, type Schema } from "./tool-parameters-schema.js";

export { parametersFromSockets } from "./tool-parameters-schema.js";

export const COMPONENT_TOOL_TYPE = "haystack.tools.component_tool.ComponentTool";

export interface ComponentToolInit {
  component: Component;
  name?: string | null;
  description?: string | null;
  parameters?: JsonSchema | null;
  outputs_to_string?: OutputsToString | null;
  inputs_from_state?: Record<string, string> | null;
  outputs_to_state?: Record<string, StateOutput> | null;
}

/** The data class (Document, ChatMessage) a socket takes, if any, looking through lists and unions. */
function dataClassOf(schema: Schema | undefined): { fromDict(d: any): unknown } | undefined {
  if (!schema) return undefined;
  if (schema.type === "instance") return schema.class === Document || schema.class === ChatMessage || schema.class === ByteStream ? (schema.class as { fromDict(d: any): unknown }) : undefined;
  for (const inner of [schema.wrapped, schema.item, ...(schema.options ?? [])]) {
    const found = dataClassOf(inner);
    if (found) return found;
  }
  return undefined;
}

/** Haystack's default tool name: the class name in snake case (SerperDevWebSearch → serper_dev_web_search). */
export function snakeCaseName(className: string): string {
  return [...className].map((c, i) => (c >= "A" && c <= "Z" && i > 0 && !(className[i - 1]! >= "A" && className[i - 1]! <= "Z") ? `_${c.toLowerCase()}` : c.toLowerCase())).join("").replace(/^_/, "");
}

/** Names what was passed instead of a component: a dict's `type` says which type failed to load. */
function describeNonComponent(value: unknown): string {
  if (value && typeof value === "object" && typeof (value as { type?: unknown }).type === "string") return `An object of unknown type '${(value as { type: string }).type}'`;
  return `Object ${value === null || typeof value !== "object" ? String(value) : JSON.stringify(value).slice(0, 80)}`;
}

export class ComponentTool extends Tool {
  readonly component: Component;
  /** The `parameters` given at construction (null: generated), as Haystack serializes them. */
  protected readonly givenParameters: JsonSchema | null;

  constructor(init: ComponentToolInit) {
    const component = init.component;
    if (!component || typeof component.run !== "function" || typeof component.inputSockets !== "object") {
      throw new TypeError(`${describeNonComponent(component)} is not a Haystack component. Use ComponentTool only with Haystack component instances.`);
    }
    // The pipeline owns its components' runs (and their warm-up and close): a tool must not run one too.
    if (isInPipeline(component)) throw new ValueError("Component has been added to a pipeline and can't be used to create a ComponentTool. Create ComponentTool from a non-pipeline component instead.");
    const name = init.name || snakeCaseName(component.constructor.name);
    const invoke = async (args: Record<string, unknown>, ctx: ToolContext) => {
      const sockets = component.inputSockets;
      const converted = Object.fromEntries(Object.entries(args).map(([key, value]) => [key, convertArgument(value, sockets[key])]));
      // enable_streaming_callback_passthrough: a component with a streaming_callback input streams to the run's callback.
      if (ctx.streaming_callback && "streaming_callback" in sockets && converted.streaming_callback == null) converted.streaming_callback = ctx.streaming_callback;
      // Under the tool call's span: its outgoing calls (a web search) carry the trace context.
      return runNested(component, converted, { name, signal: ctx.signal, span: ctx.span, tracer: ctx.tracer });
    };
    const parameters = init.parameters ?? (new.target as typeof ComponentTool).generatedParameters(component, init.inputs_from_state ?? null);
    // Haystack wires `async_function` only for a component with `run_async`: here, one whose run is async.
    const asyncRun = component.run.constructor.name === "AsyncFunction";
    super({ name, description: init.description || name, parameters, function: invoke, async_function: asyncRun ? invoke : null, outputs_to_string: init.outputs_to_string ?? null, inputs_from_state: init.inputs_from_state ?? null, outputs_to_state: init.outputs_to_state ?? null, valid_inputs: Object.keys(component.inputSockets), valid_outputs: Object.keys(component.outputSockets) });
    this.component = component;
    this.givenParameters = init.parameters ?? null;
    for (const param of Object.values(init.inputs_from_state ?? {})) {
      if (!(param in component.inputSockets)) throw new Error(`inputs_from_state maps to '${param}', which is not an input of ${component.type}. Its inputs: ${Object.keys(component.inputSockets).join(", ")}.`);
    }
  }

  /** The parameters schema when none is given; AgentTool has its own. */
  static generatedParameters(component: Component, inputsFromState: Record<string, string> | null): JsonSchema {
    return parametersFromSockets(component.inputSockets, inputsFromState);
  }

  /** Sockets taking the agent's live State (Haystack: typed `State`); the runner hands it over. */
  override get stateParameters(): string[] {
    return Object.values(this.component.inputSockets).filter(takesState).map((s) => s.name);
  }

  private warming?: Promise<unknown>;

  /** Warms the component once (the Agent warms its tools before every run); a failed warm-up may be retried. */
  override warmUp(): Promise<unknown> {
    this.warming ??= Promise.resolve(this.component.warmUp?.()).catch((error: unknown) => {
      this.warming = undefined;
      throw error;
    });
    return this.warming;
  }

  protected serializedData(registry?: EngineRegistry): Record<string, unknown> {
    // Tool's own dump, for the handlers' names (its `function` entry is this class's invoker).
    const base = super.toDict(registry).data;
    return {
      component: this.component.toDict(),
      name: this.name,
      description: this.description,
      parameters: this.givenParameters,
      inputs_from_state: this.inputs_from_state,
      outputs_to_state: base.outputs_to_state ?? null,
      outputs_to_string: base.outputs_to_string ?? null,
    };
  }

  override toDict(registry?: EngineRegistry): { type: string; data: Record<string, unknown> } {
    return { type: COMPONENT_TOOL_TYPE, data: this.serializedData(registry) };
  }
}

/**
 * An LLM's JSON argument as the socket wants it: dicts become Documents or ChatMessages; other
 * values are read by the socket's schema when they fit it (a data class object gets its field
 * defaults, as pydantic's validation gives Haystack's dataclass), else passed on as they are.
 */
function convertArgument(value: unknown, socket: InputSocket | undefined): unknown {
  const cls = dataClassOf(socket?.schema as unknown as Schema);
  if (!cls) {
    const parsed = socket?.schema ? v.safeParse(socket.schema, value) : undefined;
    return parsed?.success ? parsed.output : value;
  }
  const one = (x: unknown) => (x && typeof x === "object" && !Array.isArray(x) && !(x instanceof Document) && !(x instanceof ChatMessage) ? cls.fromDict(x) : x);
  return Array.isArray(value) ? value.map(one) : one(value);
}
