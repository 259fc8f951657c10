/**
 * @module Helpers for the chat completion tests: a kernel with the OpenAI plugin, chat wrapper
 * sources, the real `openai` client, and a raw SSE reader built on eventsource-parser.
 */
import * as assert from "uvu/assert";
import OpenAI from "openai";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { KernelOptions, KernelPlugin } from "svc/plugin";
import { openaiPlugin } from "../../../plugins/openai/index.js";
import frameworksPlugin from "../../../plugins/frameworks/index.js";
import { withPipelineKernel, type PipelineKernel } from "../../helpers/pipelines.js";

export interface ChatKernel extends PipelineKernel {
  client: OpenAI;
  deployChat(name: string, source: string): Promise<void>;
}

export function withChatKernel(
  fn: (k: ChatKernel) => Promise<void>,
  options: { settings?: KernelOptions["settings"]; plugins?: KernelPlugin[] } = {},
): Promise<void> {
  return withPipelineKernel(
    async (k) => {
      const client = new OpenAI({ baseURL: `${k.url}/v1`, apiKey: "any-key", maxRetries: 0, timeout: 10_000 });
      const deployChat = async (name: string, source: string) => {
        const res = await k.deploy({ name, files: { "pipeline_wrapper.ts": source }, save_files: false });
        assert.is(res.status, 200, JSON.stringify(res.body));
      };
      await fn({ ...k, client, deployChat });
    },
    { settings: options.settings, plugins: [openaiPlugin(), frameworksPlugin(), ...(options.plugins ?? [])] },
  );
}

/** A wrapper whose class body is `members`; svc's event helpers and the engine's chunk are in scope. */
export function chatWrapper(members: string): string {
  return `import { BasePipelineWrapper, HttpError, getLastUserMessage, createStatusEvent, createMessageEvent, createReplaceEvent,
  createNotificationEvent, createSourceEvent, createDetailsTag } from "svc";
import { StreamingChunk } from "svc/engine";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export class PipelineWrapper extends BasePipelineWrapper {
${members}
}
`;
}

export interface RawSse {
  status: number;
  headers: Headers;
  text: string;
  events: EventSourceMessage[];
  /** The `data` of every event parsed as JSON, except `[DONE]`. */
  json: any[];
}

/** POSTs a chat request with fetch and parses the raw SSE answer. */
export async function rawChat(url: string, body: Record<string, unknown>, path = "/v1/chat/completions"): Promise<RawSse> {
  const res = await fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await res.text();
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e) });
  parser.feed(text);
  const json = events.filter((e) => e.data !== "[DONE]").map((e) => JSON.parse(e.data));
  return { status: res.status, headers: res.headers, text, events, json };
}

export const userMessage = (content: string) => [{ role: "user" as const, content }];
