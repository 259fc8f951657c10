/**
 * @module Helpers for the agent framework tests: a kernel with the OpenAI, run and MCP endpoints,
 * a deployed wrapper whose methods call functions the test defines (the test file imports the
 * frameworks; a wrapper deployed to a temporary folder could not resolve them), the clients, and
 * readers for what each transport answered.
 */
import * as assert from "uvu/assert";
import { request } from "node:http";
import OpenAI from "openai";
import mcpPlugin from "svc/mcp";
import { httpClient } from "../mcp/fixtures.js";
import { rawChat, withChatKernel, type ChatKernel } from "../openai/chat-helpers.js";

export interface AgentMethods {
  /** runApi(input, ctx) */
  api?(input: any, ctx: any): unknown;
  /** runChatCompletion: the last user message's text, the context */
  chat?(prompt: string, ctx: any): unknown;
  /** runResponse: the input (a string or items), the context */
  response?(input: unknown, ctx: any): unknown;
}

const registry = ((globalThis as any).__frameworkAgents ??= {}) as Record<string, AgentMethods>;

const wrapperSource = (name: string) => `import { BasePipelineWrapper, getLastUserMessage } from "svc";
const agent = () => (globalThis as any).__frameworkAgents[${JSON.stringify(name)}];
export class PipelineWrapper extends BasePipelineWrapper {
  static description = "An agent under test";
  runApi(input: any, ctx: any) { return agent().api(input, ctx); }
  runChatCompletion(_model: string, messages: any[], _body: any, ctx: any) { return agent().chat(getLastUserMessage(messages) ?? "", ctx); }
  runResponse(_model: string, input: any, _body: any, ctx: any) { return agent().response(input, ctx); }
}
`;

export interface AgentKernel extends ChatKernel {
  deployAgent(name: string, methods: AgentMethods): Promise<void>;
}

export function withAgentKernel(fn: (k: AgentKernel) => Promise<void>): Promise<void> {
  return withChatKernel(
    async (k) => {
      const deployAgent = async (name: string, methods: AgentMethods) => {
        registry[name] = methods;
        await k.deployChat(name, wrapperSource(name));
      };
      await fn({ ...k, deployAgent });
    },
    { plugins: [mcpPlugin()] },
  );
}

/** What the `openai` client's chat stream gave: the chunks (UI events left out) added up. */
export async function chatStream(client: OpenAI, model: string, prompt = "What is the weather in Paris?") {
  const stream = await client.chat.completions.create({ model, messages: [{ role: "user", content: prompt }], stream: true, stream_options: { include_usage: true } });
  const chunks: any[] = [];
  for await (const chunk of stream) if ((chunk as any).choices) chunks.push(chunk);
  let content = "";
  let reasoning = "";
  const calls: Record<number, { id?: string; name: string; arguments: string }> = {};
  for (const chunk of chunks) {
    const delta = chunk.choices[0]?.delta ?? {};
    content += delta.content ?? "";
    reasoning += delta.reasoning_content ?? "";
    for (const d of delta.tool_calls ?? []) {
      const call = (calls[d.index] ??= { name: "", arguments: "" });
      if (d.id) call.id = d.id;
      call.name += d.function?.name ?? "";
      call.arguments += d.function?.arguments ?? "";
    }
  }
  const last = chunks.at(-1);
  return { chunks, content, reasoning, calls: Object.values(calls), last, finish: chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean) };
}

/** The raw SSE of a streaming chat request: the Open WebUI status lines it carried. */
export async function chatStatuses(url: string, model: string, prompt = "What is the weather in Paris?"): Promise<string[]> {
  const raw = await rawChat(url, { model, messages: [{ role: "user", content: prompt }], stream: true });
  assert.is(raw.status, 200);
  return raw.json.filter((j) => j.event?.type === "status").map((j) => `${j.event.data.description}${j.event.data.done ? " (done)" : ""}`);
}

/** The Responses stream through the `openai` client: event types and the completed response. */
export async function responseStream(client: OpenAI, model: string, input = "What is the weather in Paris?") {
  const stream = await client.responses.create({ model, input, stream: true });
  const events: any[] = [];
  for await (const event of stream) events.push(event);
  const completed = events.find((e) => e.type === "response.completed")?.response;
  const failed = events.find((e) => e.type === "response.failed")?.response;
  return { events, types: events.map((e) => e.type), completed, failed };
}

/** The text an MCP tool call of the pipeline answered. */
export async function mcpText(url: string, name: string, args: Record<string, unknown> = { question: "What is the weather in Paris?" }): Promise<string> {
  const { client } = await httpClient(url);
  try {
    const result: any = await client.callTool({ name, arguments: args });
    assert.not.ok(result.isError, JSON.stringify(result));
    return result.content.map((c: any) => c.text).join("");
  } finally {
    await client.close();
  }
}

/**
 * Sends a streaming chat request and drops the connection as soon as the first bytes of the
 * answer arrive.
 */
export function disconnectAfterFirstByte(url: string, model: string, path = "/v1/chat/completions"): Promise<void> {
  return new Promise((resolve) => {
    const req = request(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, agent: false });
    req.on("error", () => undefined);
    req.on("response", (res) =>
      res.once("data", () => {
        req.destroy();
        resolve();
      }),
    );
    const body = path.includes("responses") ? { model, input: "hi", stream: true } : { model, messages: [{ role: "user", content: "hi" }], stream: true };
    req.end(JSON.stringify(body));
  });
}
