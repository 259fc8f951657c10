/**
 * @module The Agent's run bookkeeping and prompts, as Haystack 3's `agents/utils.py`: the run
 * metadata it reports (`step_count`, `token_usage`, `tool_call_counts`, `exit_reason`), when a
 * step ends the run, and the `system_prompt` / `user_prompt` templates rendered into messages.
 */
import { ChatMessage } from "../dataclasses/chat-message.js";
import { State, replaceValues, type StateSchema } from "./agent-state.js";
import { ChatPromptBuilder } from "./chat-prompt-builder.js";

export const EXIT_REASON_TEXT = "text";
export const EXIT_REASON_MAX_STEPS = "max_agent_steps";

/** State keys the Agent fills itself and returns as outputs. */
export const RUN_METADATA_KEYS: StateSchema = {
  step_count: { type: "int", handler: replaceValues },
  token_usage: { type: "dict[str, Any]", handler: replaceValues },
  tool_call_counts: { type: "dict[str, int]", handler: replaceValues },
  exit_reason: { type: "str", handler: replaceValues },
};
/** Keys Haystack keeps for its hooks (not implemented in svc): reserved so a schema written for svc stays valid there. */
export const INTERNAL_KEYS = ["continue_run", "stop_run", "tools", "hook_context", "context_tokens"];

/** Haystack's `_accumulate_usage`: numbers summed, nested dicts merged, anything else replaced. */
export function accumulateUsage(current: unknown, incoming: unknown): unknown {
  if (isRecord(current) && isRecord(incoming)) {
    const out: Record<string, unknown> = { ...current };
    for (const [k, x] of Object.entries(incoming)) out[k] = k in out ? accumulateUsage(out[k], x) : structuredClone(x);
    return out;
  }
  if (typeof current === "number" && typeof incoming === "number") return current + incoming;
  return incoming;
}

/** Adds the replies' `meta.usage` to `token_usage`; replies without usage leave it untouched. */
export function recordLlmUsage(state: State, replies: readonly ChatMessage[]): void {
  let current = state.get("token_usage");
  let updated = false;
  for (const reply of replies) {
    const usage = reply.meta?.usage;
    if (isRecord(usage)) {
      current = accumulateUsage(current ?? {}, usage);
      updated = true;
    }
  }
  if (updated) state.set("token_usage", current);
}

/** One more call for each tool that produced a result. */
export function recordToolCalls(state: State, toolMessages: readonly ChatMessage[]): void {
  const counts = { ...((state.get("tool_call_counts") as Record<string, number> | undefined) ?? {}) };
  for (const m of toolMessages) {
    const result = m.toolCallResult;
    if (result) counts[result.origin.tool_name] = (counts[result.origin.tool_name] ?? 0) + 1;
  }
  state.set("tool_call_counts", counts);
}

/**
 * Haystack's `_is_text_exit`: the replies call no tool and end in assistant text. An empty
 * reply (e.g. the model's invalid tool call was dropped) is not an answer: the loop goes on.
 */
export function isTextExit(replies: readonly ChatMessage[]): boolean {
  const last = replies.at(-1);
  return !!last && !replies.some((m) => m.toolCalls.length > 0) && last.role === "assistant" && !!last.text;
}

/**
 * The exit-condition tool this step called, the first one in call order; none when any
 * exit-condition call failed (a failed exit tool cancels the exit, even next to a good one).
 */
export function checkExitConditions(exitConditions: readonly string[], replies: readonly ChatMessage[], toolMessages: readonly ChatMessage[]): string | null {
  const errored = new Set(toolMessages.flatMap((m) => (m.toolCallResult?.error ? [m.toolCallResult.origin.tool_name] : [])));
  let first: string | null = null;
  for (const call of replies.flatMap((m) => m.toolCalls)) {
    if (!exitConditions.includes(call.tool_name)) continue;
    if (errored.has(call.tool_name)) return null;
    first ??= call.tool_name;
  }
  return first;
}

const CHAT_TEMPLATE = /\{%-?\s*message\s/g;
const MESSAGE_ROLE = /\{%-?\s*message\s+role\s*=\s*["'](\w+)["']/g;

/** One message block at most, with the right role when it is written literally. */
export function validatePromptMessageBlocks(userPrompt: string | null | undefined, systemPrompt: string | null | undefined): void {
  for (const [label, prompt, role] of [
    ["user_prompt", userPrompt, "user"],
    ["system_prompt", systemPrompt, "system"],
  ] as const) {
    if (prompt === null || prompt === undefined) continue;
    const blocks = prompt.match(CHAT_TEMPLATE) ?? [];
    const roles = [...prompt.matchAll(MESSAGE_ROLE)].map((m) => m[1]);
    if (blocks.length > 1) throw new Error(`${label} must define exactly one message block, found ${blocks.length}.`);
    if (roles.length && roles[0] !== role) throw new Error(`${label} message block must have role '${role}', found role '${roles[0]}'.`);
  }
}

/** A plain string prompt is wrapped in one message block of the expected role. */
export function templateForRole(prompt: string, role: "user" | "system"): string {
  return new RegExp(CHAT_TEMPLATE.source).test(prompt) ? prompt : `{% message role="${role}" %}${prompt}{% endmessage %}`;
}

/** A prompt's builder; `required` as the Agent's `required_variables`, narrowed to this prompt's variables. */
export function promptBuilder(prompt: string, role: "user" | "system", required: "*" | string[] | null): ChatPromptBuilder {
  const template = templateForRole(prompt, role);
  const probe = new ChatPromptBuilder({ template, required_variables: [] });
  if (required === null) return probe;
  return new ChatPromptBuilder({ template, required_variables: required === "*" ? "*" : required.filter((name) => probe.variables.includes(name)) });
}

/** Renders one prompt; it must give exactly one message of the expected role. */
export function renderPrompt(builder: ChatPromptBuilder, role: "user" | "system", label: string, inputs: Record<string, unknown>): ChatMessage[] {
  const values = Object.fromEntries(builder.variables.filter((name) => inputs[name] !== undefined && inputs[name] !== null).map((name) => [name, inputs[name]]));
  const messages = builder.run(values).prompt;
  if (messages.length !== 1) throw new Error(`${label} must render to exactly one ${role} message. Got ${messages.length} messages.`);
  if (messages[0]!.role !== role) throw new Error(`${label} must render to a ${role} message. Got a message with role ${messages[0]!.role}.`);
  return messages;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return !!x && typeof x === "object" && !Array.isArray(x);
}
