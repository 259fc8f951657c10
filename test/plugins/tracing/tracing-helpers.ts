/**
 * @module Helpers for the tracing tests: a pipeline kernel with the tracing plugin (and the
 * engine and openai plugins), an operator token, and reading `GET /traces`.
 */
import type { KernelOptions } from "svc/plugin";
import enginePlugin from "svc/engine";
import { openaiPlugin } from "svc/openai";
import tracingPlugin from "../../../plugins/tracing/index.js";
import openapiPlugin from "../../../plugins/openapi/index.js";
import type { WireSpan, WireTrace } from "../../../plugins/tracing/index.js";
import { sleep } from "../../helpers/http.js";
import { startPipelineKernel, type PipelineKernel } from "../../helpers/pipelines.js";

export const OPERATOR_TOKEN = "operator-token-for-tests";

export interface TracingKernel extends PipelineKernel {
  traces(query?: string): Promise<{ status: number; body: any }>;
  /** The newest trace whose root span has `name` (waits until it is there and finished). */
  trace(rootName: string, where?: (t: WireTrace) => boolean): Promise<WireTrace>;
}

export async function withTracingKernel(fn: (k: TracingKernel) => Promise<void>, settings: KernelOptions["settings"] = {}): Promise<void> {
  const k = await startPipelineKernel({
    settings: { operatorToken: OPERATOR_TOKEN, ...settings },
    plugins: [tracingPlugin(), enginePlugin(), openaiPlugin(), openapiPlugin()],
  });
  const traces = async (query = "") => {
    const res = await fetch(`${k.url}/traces${query}`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
    return { status: res.status, body: (await res.json()) as any };
  };
  const trace = async (rootName: string, where: (t: WireTrace) => boolean = () => true) => {
    for (let attempt = 0; attempt < 250; attempt++) {
      const { body } = await traces("?limit=100");
      const t = (body.traces as WireTrace[]).find((t) => t.root_span?.name === rootName && t.state !== "running" && where(t));
      if (t) return t;
      await sleep(20);
    }
    throw new Error(`no finished trace with root span ${rootName}`);
  };
  try {
    await fn({ ...k, traces, trace });
  } finally {
    await k.close();
  }
}

/** Every span of a tree, depth first. */
export function flatten(span: WireSpan | null): WireSpan[] {
  if (!span) return [];
  return [span, ...span.children.flatMap(flatten)];
}

export function tagsOf(span: { tags: { key: string; value: string }[] }): Record<string, string> {
  return Object.fromEntries(span.tags.map((t) => [t.key, t.value]));
}
