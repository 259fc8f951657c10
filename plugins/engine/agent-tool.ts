/**
 * @module AgentTool (haystack.tools.agent_tool.AgentTool): an Agent as another Agent's tool. By
 * default the calling LLM sends the task as one user message (plus a string for every other
 * mandatory input of the Agent not taken from state) and gets back the text of the Agent's last
 * message. Serialized like a ComponentTool, with the Agent under `agent`.
 */
import { Agent } from "./components/agent.js";
import type { ChatMessage } from "./dataclasses/chat-message.js";
import { ComponentTool, type ComponentToolInit } from "./component-tool.js";
import type { Component } from "./component.js";
import type { EngineRegistry } from "./registry.js";
import type { JsonSchema } from "./tool.js";
import { rememberCallableName } from "./callable-names.js";
import { pythonJsonDumps } from "./dataclasses/openai-dict-format.js";
import { ValueError } from "./pipeline/errors.js";

export const AGENT_TOOL_TYPE = "haystack.tools.agent_tool.AgentTool";
/** The default `outputs_to_string` handler's name, as Haystack serializes it. */
export const AGENT_RESULT_TO_STRING = "haystack.tools.agent_tool.agent_result_to_string";

/** Mandatory Agent inputs the tool must supply besides `messages`, sorted by name. */
function requiredParameters(agent: Component, inputsFromState: Record<string, string> | null | undefined): string[] {
  const covered = new Set(["messages", ...Object.values(inputsFromState ?? {})]);
  return Object.values(agent.inputSockets).filter((s) => s.mandatory && !covered.has(s.name)).map((s) => s.name).sort();
}

/** Python's `json.dumps(x)`: `, ` and `: ` separators, non-ASCII escaped. */
const pythonJsonDumpsAscii = (value: unknown) => pythonJsonDumps(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** Haystack's agent_result_to_string: the last message's text, else the message as `json.dumps` writes it. */
export function agentResultToString(result: Record<string, unknown>): string {
  const last = result.last_message as ChatMessage | undefined;
  let text = last?.text || pythonJsonDumpsAscii(last?.toDict?.() ?? null);
  if (result.exit_reason === "max_agent_steps") text += "\n\n[The Agent reached max_agent_steps and stopped, so this result may be incomplete.]";
  return text;
}

rememberCallableName(agentResultToString, AGENT_RESULT_TO_STRING);

export interface AgentToolInit extends Omit<ComponentToolInit, "component"> {
  agent: Agent;
  name: string;
  description: string;
}

export class AgentTool extends ComponentTool {
  constructor(init: AgentToolInit) {
    if (!(init.agent instanceof Agent)) throw new TypeError(`The 'agent' parameter must be an instance of Agent. Got ${typeof init.agent} instead.`);
    if (!init.name || !init.description) throw new Error("AgentTool needs a name and a description.");
    if (init.parameters) {
      const properties = (init.parameters.properties ?? {}) as Record<string, unknown>;
      const missing = requiredParameters(init.agent, init.inputs_from_state).filter((n) => !(n in properties));
      if (missing.length) {
        throw new ValueError(`The Agent wrapped by this tool requires the inputs [${missing.map((n) => `'${n}'`).join(", ")}], but this tool does not supply them, so it can never run. Add them to 'parameters', the schema that the calling LLM fills in, or to 'inputs_from_state', which takes them from the calling Agent's state.`);
      }
    }
    const { agent, ...rest } = init;
    super({ ...rest, component: agent, outputs_to_string: init.outputs_to_string ?? { handler: agentResultToString as (value: unknown) => unknown } });
  }

  static override generatedParameters(agent: Component, inputsFromState: Record<string, string> | null): JsonSchema {
    const extra = requiredParameters(agent, inputsFromState);
    return {
      type: "object",
      properties: {
        messages: {
          type: "array",
          description: "Exactly one user message.",
          minItems: 1,
          maxItems: 1,
          items: { type: "object", properties: { role: { type: "string", enum: ["user"] }, content: { type: "string", description: "The task to delegate to this tool." } }, required: ["role", "content"] },
        },
        ...Object.fromEntries(extra.map((n) => [n, { type: "string" }])),
      },
      required: ["messages", ...extra],
    };
  }

  override toDict(registry?: EngineRegistry): { type: string; data: Record<string, unknown> } {
    const { component, ...rest } = this.serializedData(registry);
    return { type: AGENT_TOOL_TYPE, data: { agent: component, ...rest } };
  }
}
