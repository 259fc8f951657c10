/**
 * @module Shared pieces of the MCP tests: a kernel with the engine and MCP plugins, a recorder of
 * the `run` hook, wrapper sources and MCP SDK clients over each transport.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { join } from "node:path";
import { definePlugin, type KernelOptions, type KernelPlugin, type RunCall } from "svc/plugin";
import enginePlugin from "svc/engine";
import mcpPlugin from "svc/mcp";
import { startKernel, type TestKernel } from "../../helpers/kernel.js";
import { tempDir, wrapper } from "../../helpers/pipelines.js";

export interface Recorded {
  call: RunCall;
  outcome?: "ok" | "error";
}

export interface McpKernel extends TestKernel {
  dir: string;
  calls: Recorded[];
  deployWrapper(name: string, source: string, extra?: Record<string, string>): Promise<void>;
}

/** `plugins` set up before svc:mcp (svc:runs, svc:auth …). */
export async function startMcpKernel(settings: KernelOptions["settings"] = {}, plugins: KernelPlugin[] = []): Promise<McpKernel> {
  const dir = join(tempDir("svc-mcp-"), "pipelines");
  const calls: Recorded[] = [];
  const recorder = definePlugin({
    name: "test:recorder",
    setup(api) {
      api.hooks.run.tap(async (call, next) => {
        const entry: Recorded = { call };
        calls.push(entry);
        try {
          const result = await next();
          entry.outcome = "ok";
          return result;
        } catch (error) {
          entry.outcome = "error";
          throw error;
        }
      });
    },
  });
  const k = await startKernel({ settings: { pipelinesDir: dir, ...settings }, plugins: [enginePlugin(), recorder, ...plugins, mcpPlugin()] });
  return {
    ...k,
    dir,
    calls,
    deployWrapper: async (name, source, extra = {}) => {
      await k.kernel.deployer.deploy({ kind: "files", name, files: { "pipeline_wrapper.ts": source, ...extra } });
    },
  };
}

/** Runs `fn` against a fresh MCP kernel and closes it whatever happens. */
export async function withMcpKernel(fn: (k: McpKernel) => Promise<void>, settings: KernelOptions["settings"] = {}, plugins: KernelPlugin[] = []): Promise<void> {
  const k = await startMcpKernel(settings, plugins);
  try {
    await fn(k);
  } finally {
    await k.close();
  }
}

export const ECHO = wrapper(
  `async runApi(input: { text: string; delay_ms: number }) {
    await new Promise((r) => setTimeout(r, input.delay_ms));
    return { echo: input.text };
  }`,
  `static description = "Echoes the text back.";
  static inputSchema = v.object({ text: v.pipe(v.string(), v.description("What to echo")), delay_ms: v.optional(v.number(), 0) });`,
);

export const UPPER = wrapper(`runApi(input: { text: string }) { return input.text.toUpperCase(); }`, `static inputSchema = v.object({ text: v.string() });`);

export const FAILING = wrapper(`runApi() { throw new Error("the pipeline broke"); }`);

/** Runs until its signal fires. */
export const SLOW = wrapper(
  `runApi(_input: unknown, ctx: { signal: AbortSignal }) {
    return new Promise((_resolve, reject) => ctx.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true }));
  }`,
);

export const STREAMING = wrapper(`async *runApi() { yield "a"; yield { content: "b" }; yield "c"; }`);

export const SKIPPED = wrapper(`runApi() { return 1; }`, `static skipMcp = true;`);

export const CHAT_ONLY = `import { BasePipelineWrapper } from "svc";
export class PipelineWrapper extends BasePipelineWrapper {
  runChatCompletion() { return "hi"; }
}
`;

export { CALC_YAML } from "../../fixtures/calc-yaml.js";

export async function httpClient(url: string, headers: Record<string, string> = {}): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: "test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
}

export async function sseClient(url: string): Promise<Client> {
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(new SSEClientTransport(new URL(`${url}/sse`)));
  return client;
}

export const text = (result: any): string => result.content[0].text;
