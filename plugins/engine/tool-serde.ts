/**
 * @module Tools in YAML as Haystack writes them: `{type, data}` for a Tool, a ComponentTool (its
 * component nested as `{type, init_parameters}`) or an AgentTool (the Agent under `agent`), and a
 * Toolset (`{type, data: {tools: [...]}}`), which loads as a Toolset.
 */
import { Agent } from "./components/agent.js";
import { AGENT_TOOL_TYPE, AgentTool } from "./agent-tool.js";
import { COMPONENT_TOOL_TYPE, ComponentTool } from "./component-tool.js";
import type { EngineRegistry } from "./registry.js";
import { Tool, TOOL_TYPE, type OutputsToString, type StateOutput } from "./tool.js";
import type { Component } from "./component.js";
import { Toolset, TOOLSET_TYPE } from "./toolset.js";
import { rememberCallableName } from "./callable-names.js";

const TYPES = new Set([TOOL_TYPE, COMPONENT_TOOL_TYPE, AGENT_TOOL_TYPE, TOOLSET_TYPE]);

export function isSerializedTool(o: Record<string, unknown>): boolean {
  return typeof o.type === "string" && TYPES.has(o.type) && !!o.data && typeof o.data === "object";
}

export function isSerializedToolset(x: unknown): boolean {
  return !!x && typeof x === "object" && (x as { type?: unknown }).type === TOOLSET_TYPE;
}

/** `resolve` turns nested serialized values (the component, secrets) into objects. */
export function toolFromDict(o: Record<string, unknown>, registry: EngineRegistry, resolve: (value: unknown) => unknown): Tool | Toolset {
  const data = o.data as Record<string, any>;
  if (o.type === TOOL_TYPE) return Tool.fromDict(o, registry);
  if (o.type === TOOLSET_TYPE) {
    const tools = ((data.tools ?? []) as unknown[]).map(resolve);
    if (!tools.every((t) => t instanceof Tool)) throw new TypeError("A Toolset's data.tools must be serialized Tools.");
    return new Toolset(tools as Tool[]);
  }
  const handler = (name: unknown) => {
    if (typeof name !== "string") return undefined;
    const fn = registry.getFunction(name);
    rememberCallableName(fn, name);
    return fn;
  };
  // Only an entry that names a handler gets one (Haystack's _deserialize_outputs_to_state / _to_string).
  const withHandler = <T extends { handler?: unknown }>(entry: T | null | undefined) => (entry ? ("handler" in entry ? { ...entry, handler: handler(entry.handler) } : { ...entry }) : null);
  const outputsToState = data.outputs_to_state ? Object.fromEntries(Object.entries(data.outputs_to_state as Record<string, StateOutput>).map(([k, e]) => [k, withHandler(e) as StateOutput])) : null;
  const common = {
    name: data.name,
    description: data.description,
    parameters: data.parameters ?? null,
    inputs_from_state: data.inputs_from_state ?? null,
    outputs_to_state: outputsToState,
    outputs_to_string: withHandler(data.outputs_to_string) as OutputsToString | null,
  };
  if (o.type === AGENT_TOOL_TYPE) {
    const agent = resolve(data.agent);
    if (!(agent instanceof Agent)) throw new Error(`AgentTool '${data.name}': 'agent' must be a serialized Agent.`);
    return new AgentTool({ ...common, agent, outputs_to_string: common.outputs_to_string ?? undefined });
  }
  return new ComponentTool({ ...common, component: resolve(data.component) as Component });
}
