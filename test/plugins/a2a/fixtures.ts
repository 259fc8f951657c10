/**
 * @module Shared pieces of the A2A tests: chat wrappers (a sync echo, a streaming one that can
 * hold until cancelled), a kernel with svc:runs and svc:a2a, and the SDK's client.
 */
import * as assert from "uvu/assert";
import { SendMessageRequest, type StreamResponse, type Task } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from "@a2a-js/sdk/client";
import runsPlugin from "svc/runs";
import a2aPlugin from "svc/a2a";
import type { KernelPlugin } from "svc/plugin";
import { startPipelineKernel, wrapper, type PipelineKernel } from "../../helpers/pipelines.js";

/** Answers with the conversation it got; "fail" fails. */
export const ECHO = wrapper(`runChatCompletion(model: string, messages: { role: string; content: string }[]) {
    if (messages.at(-1)!.content === "fail") throw new Error("boom");
    return "echo: " + messages.map((m) => m.role + ":" + m.content).join("|");
  }`, `  static description = "Echoes the conversation";`);

/** Streams three parts; "hold" waits between the second and third until the signal aborts. */
export const STREAMER = wrapper(`async *runChatCompletion(model: string, messages: { content: string }[], body: unknown, ctx: { signal: AbortSignal }) {
    const q = messages.at(-1)!.content;
    yield "Hello, ";
    yield { choices: [{ delta: { content: "world" } }] };
    yield { event: { type: "status", data: { description: "a UI event" } } };
    if (q === "hold") {
      while (!ctx.signal.aborted) await new Promise((r) => setTimeout(r, 20));
      (globalThis as any).__a2aAborted = ((globalThis as any).__a2aAborted ?? 0) + 1;
    }
    yield " (" + q + ")";
  }`);

export const SKIPPED = wrapper(`runChatCompletion() { return "never"; }`, `  static skipA2a = true;`);
export const API_ONLY = wrapper(`runApi() { return "api"; }`);
export const CARDED = wrapper(`runChatCompletion() { return "sunny"; }`, `  static a2aCard = { name: "Weather Agent", version: "2.1.0", skills: [{ id: "get_weather", tags: ["weather"], examples: ["Weather in Berlin?"] }] };`);

export async function a2aKernel(options: { settings?: Record<string, unknown>; plugins?: KernelPlugin[]; headers?: Record<string, string> } = {}): Promise<PipelineKernel> {
  const k = await startPipelineKernel({ plugins: [runsPlugin(), ...(options.plugins ?? []), a2aPlugin()], settings: options.settings });
  for (const [name, source] of [["echo", ECHO], ["streamer", STREAMER], ["skipped", SKIPPED], ["api_only", API_ONLY], ["carded", CARDED]] as const) {
    const res = await fetch(`${k.url}/deploy_files`, { method: "POST", headers: options.headers, body: JSON.stringify({ name, files: { "pipeline_wrapper.ts": source }, save_files: false, overwrite: true }) });
    assert.is(res.status, 200, await res.text());
  }
  return k;
}

/** A fetch that sends `headers` with every request (an API key). */
const fetchWith = (headers: Record<string, string>): typeof fetch => (input, init) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), ...headers } });

/** The SDK client of one agent, found through its card. */
export function clientOf(baseUrl: string, agent: string, headers: Record<string, string> = {}): Promise<Client> {
  const fetchImpl = fetchWith(headers);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl })], cardResolver: new DefaultAgentCardResolver({ fetchImpl }) }),
  );
  return factory.createFromUrl(`${baseUrl}/${agent}/`);
}

let counter = 0;
/** A SendMessage request with one text part. */
export function message(text: string, extra: { referenceTaskIds?: string[]; returnImmediately?: boolean; contextId?: string } = {}): SendMessageRequest {
  return SendMessageRequest.fromJSON({
    message: { messageId: `m${++counter}`, role: "ROLE_USER", parts: [{ text }], contextId: extra.contextId, referenceTaskIds: extra.referenceTaskIds },
    configuration: extra.returnImmediately ? { returnImmediately: true } : undefined,
  });
}

export const textOf = (task: Task): string =>
  task.artifacts.flatMap((a) => a.parts.map((p) => (p.content?.$case === "text" ? p.content.value : ""))).join("");

export function asTask(result: unknown): Task {
  assert.ok(result && typeof result === "object" && "status" in result, `expected a task, got ${JSON.stringify(result)}`);
  return result as Task;
}

export async function collect(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

export { untilValue as until } from "../../helpers/http.js";
