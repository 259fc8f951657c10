/**
 * @module ComponentTool (haystack.tools.component_tool.ComponentTool): a component an LLM may call
 * as a tool. Its parameters schema comes from the component's input sockets (callbacks and inputs
 * taken from state left out; lists of Documents or ChatMessages described as objects and turned
 * back into them), its name defaults to the class name in snake case, and a call runs the
 * component as a pipeline would and answers with its outputs. Serialized as Haystack writes it:
 * `{type, data: {component: {type, init_parameters}, name, description, parameters, …}}`.
 */
import type { Component, InputSocket } from "./component.js";
import { ChatMessage } from "./dataclasses/chat-message.js";
import { ByteStream, Document } from "./dataclasses/document.js";
import { runNested } from "./components/nested-component.js";
import { State } from "./components/agent-state.js";
import { Tool, type JsonSchema, type OutputsToString, type StateOutput, type ToolContext } from "./tool.js";
import type { EngineRegistry } from "./registry.js";

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

type Schema = { type: string; wrapped?: Schema; item?: Schema; options?: Schema[]; value?: Schema; class?: unknown; entries?: Record<string, Schema>; literal?: unknown };

const DOCUMENT_SCHEMA: JsonSchema = {
  type: "object",
  description: "A Haystack Document.",
  properties: { id: { type: "string" }, content: { anyOf: [{ type: "string" }, { type: "null" }] }, meta: { type: "object" }, score: { anyOf: [{ type: "number" }, { type: "null" }] } },
};
const CHAT_MESSAGE_SCHEMA: JsonSchema = {
  type: "object",
  description: "A chat message.",
  properties: { role: { type: "string", enum: ["user", "assistant", "system", "tool"] }, content: { type: "string" } },
  required: ["role", "content"],
};

/** A socket's valibot schema as JSON Schema; undefined for what an LLM cannot send (functions, bytes). */
function jsonSchemaOf(schema: Schema | undefined): JsonSchema | undefined {
  if (!schema) return {};
  switch (schema.type) {
    case "string": return { type: "string" };
    case "number": return { type: "number" };
    case "boolean": return { type: "boolean" };
    case "null": return { type: "null" };
    case "any": case "unknown": return {};
    case "literal": return { const: schema.literal };
    case "picklist": return { enum: (schema as { options?: unknown[] }).options };
    case "function": return undefined;
    // The agent's State is handed over by the runner, never sent by the LLM.
    case "instance": return schema.class === State ? undefined : schema.class === Document ? DOCUMENT_SCHEMA : schema.class === ChatMessage ? CHAT_MESSAGE_SCHEMA : schema.class === ByteStream ? undefined : { type: "object" };
    case "array": {
      const items = jsonSchemaOf(schema.item);
      return items === undefined ? undefined : { type: "array", items };
    }
    case "record": {
      const values = jsonSchemaOf(schema.value);
      return { type: "object", ...(values && Object.keys(values).length ? { additionalProperties: values } : {}) };
    }
    case "object": case "loose_object": case "strict_object": return { type: "object" };
    case "nullable": case "nullish": case "optional": {
      const inner = jsonSchemaOf(schema.wrapped);
      return inner === undefined ? undefined : schema.type === "optional" ? inner : { anyOf: [inner, { type: "null" }] };
    }
    case "union": {
      const options = (schema.options ?? []).map(jsonSchemaOf).filter((x): x is JsonSchema => x !== undefined);
      return options.length ? (options.length === 1 ? options[0] : { anyOf: options }) : undefined;
    }
    default: return {};
  }
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

/** Haystack's _create_tool_parameters_schema over the engine's sockets. */
export function parametersFromSockets(sockets: Record<string, InputSocket>, inputsFromState: Record<string, string> | null | undefined): JsonSchema {
  const fromState = new Set(Object.values(inputsFromState ?? {}));
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const socket of Object.values(sockets)) {
    if (fromState.has(socket.name)) continue;
    const schema = jsonSchemaOf(socket.schema as unknown as Schema);
    if (schema === undefined) continue;
    properties[socket.name] = { ...schema, description: `Input '${socket.name}' for the component.`, ...(socket.mandatory ? {} : { default: socket.default ?? null }) };
    if (socket.mandatory) required.push(socket.name);
  }
  return { type: "object", properties, ...(required.length ? { required } : {}) };
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
    const name = init.name || snakeCaseName(component.constructor.name);
    const invoke = async (args: Record<string, unknown>, ctx: ToolContext) => {
      const sockets = component.inputSockets;
      const converted = Object.fromEntries(Object.entries(args).map(([key, value]) => [key, convertArgument(value, sockets[key])]));
      // Under the tool call's span: its outgoing calls (a web search) carry the trace context.
      return runNested(component, converted, { name, signal: ctx.signal, span: ctx.span, tracer: ctx.tracer });
    };
    const parameters = init.parameters ?? (new.target as typeof ComponentTool).generatedParameters(component, init.inputs_from_state ?? null);
    super({ name, description: init.description || name, parameters, function: invoke, outputs_to_string: init.outputs_to_string ?? null, inputs_from_state: init.inputs_from_state ?? null, outputs_to_state: init.outputs_to_state ?? null, valid_inputs: Object.keys(component.inputSockets), valid_outputs: Object.keys(component.outputSockets) });
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

/** An LLM's JSON argument as the socket wants it: dicts become Documents or ChatMessages. */
function convertArgument(value: unknown, socket: InputSocket | undefined): unknown {
  const cls = dataClassOf(socket?.schema as unknown as Schema);
  if (!cls) return value;
  const one = (x: unknown) => (x && typeof x === "object" && !Array.isArray(x) && !(x instanceof Document) && !(x instanceof ChatMessage) ? cls.fromDict(x) : x);
  return Array.isArray(value) ? value.map(one) : one(value);
}
