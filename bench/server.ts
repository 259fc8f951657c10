/**
 * @module A benchmark target in its own process: `bare` (plain node:http, the baseline) or `svc`
 * (the kernel with the default plugins, a no-op pipeline with a valibot input schema and a chat
 * pipeline streaming `chunks` words), `svc-observed` (the same with tracing and monitoring on),
 * `svc-metrics` (the same with metrics on) or `svc-default` (the plugins `svc run` loads with no
 * settings, from the CLI's own default set), `svc-unobserved` (that set without tracing and
 * monitoring), `svc-untraced` / `svc-unmonitored` (without one of the two) or `fastify`
 * (bench/fastify-target.ts). Prints its port on stdout.
 */
import { createServer, type ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { createKernel, definePlugin, Logger } from "svc/plugin";
import { loadPlugins } from "svc/internal";
import { builtinPlugins } from "../cli/default-plugins.js";
import { knownSettings } from "../cli/cli-settings.js";
import { resolveRunConfig } from "../cli/run-settings.js";
import { fastifyTarget } from "./fastify-target.js";
import { answerAllocationRequests } from "./allocation-sampler.js";
import managementPlugin from "../plugins/management/index.js";
import runApiPlugin from "../plugins/run-api/index.js";
import { openaiPlugin } from "../plugins/openai/index.js";
import mcpPlugin from "../plugins/mcp/index.js";
import tracingPlugin from "../plugins/tracing/index.js";
import monitoringPlugin from "../plugins/monitoring/index.js";
import metricsPlugin from "../plugins/metrics/index.js";

/**
 * The no-op pipeline: its input is validated against a valibot schema (as the issue's measurement
 * did), and answered as it came.
 */
export const NOOP_WRAPPER = `import * as v from "valibot";
import { BasePipelineWrapper } from "svc";
export class PipelineWrapper extends BasePipelineWrapper {
  static inputSchema = v.object({ question: v.string(), top_k: v.number() });
  runApi(input: Record<string, unknown>) { return input; }
}
`;

/** The adder of the CPU-per-request table (bench/cpu.ts): two numbers in, their sum out. */
export const ADDER_WRAPPER = `import * as v from "valibot";
import { BasePipelineWrapper } from "svc";
export class PipelineWrapper extends BasePipelineWrapper {
  static inputSchema = v.object({ a: v.number(), b: v.number() });
  runApi(input: { a: number; b: number }) { return input.a + input.b; }
}
`;

/** The same schema, for the bare server's validation. */
const NOOP_INPUT = v.object({ question: v.string(), top_k: v.number() });

/** Streams `body.chunks` chat chunks (default 1). */
export const CHAT_WRAPPER = `import { BasePipelineWrapper } from "svc";
export class PipelineWrapper extends BasePipelineWrapper {
  async *runChatCompletion(_model: string, _messages: unknown[], body: { chunks?: number }) {
    const n = body.chunks ?? 1;
    for (let i = 0; i < n; i++) yield "token ";
  }
}
`;

const kind = process.argv[2];

// The parent asks for CPU time around each load run: CPU per request is steadier than req/s on a
// shared machine.
process.on("message", (message) => {
  if (message === "cpu") process.send!(process.cpuUsage());
});
answerAllocationRequests();

/** The bare SSE baseline: the same chunks, the closing chunk and `[DONE]`, written straight out. */
async function bareChat(res: ServerResponse, body: { model: string; chunks?: number }): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" });
  res.socket?.setNoDelay(true);
  const id = `${body.model}-${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: object, finish_reason: string | null) =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, system_fingerprint: null, choices: [{ index: 0, delta, logprobs: null, finish_reason }], usage: null })}\n\n`;
  const n = body.chunks ?? 1;
  for (let i = 0; i < n; i++) {
    if (!res.write(chunk(i === 0 ? { role: "assistant", content: "token " } : { content: "token " }, null))) await once(res, "drain");
  }
  res.write(chunk({ content: "" }, "stop"));
  res.end("data: [DONE]\n\n");
}

/** The bare baseline answers every route the way svc does, with no framework at all. */
function bare(): void {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = req.method === "POST" ? JSON.parse(Buffer.concat(chunks).toString() || "{}") : undefined;
      if (req.url === "/v1/chat/completions") return void bareChat(res, body);
      if (req.url === "/adder/run") {
        if (typeof body?.a !== "number" || typeof body?.b !== "number") return void res.writeHead(422, { "content-type": "application/json" }).end('{"detail":"a and b must be numbers"}');
        return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ result: body.a + body.b }));
      }
      if (req.url === "/noop/run") {
        const input = v.safeParse(NOOP_INPUT, body);
        if (!input.success) return void res.writeHead(422, { "content-type": "application/json" }).end(JSON.stringify({ detail: input.issues[0].message }));
        return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ result: input.output }));
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(req.url === "/echo" ? { got: body } : { ok: true }));
    });
  });
  server.listen(0, "127.0.0.1", () => console.log((server.address() as AddressInfo).port));
}

/** `observed`: the same server with tracing and monitoring (in-memory index) on; `metrics`: with `/metrics`. */
async function svc(mode: "plain" | "observed" | "metrics" = "plain"): Promise<void> {
  const observed = mode === "observed";
  const bench = definePlugin({
    name: "bench",
    setup(k) {
      k.route("GET", "/ping", () => ({ ok: true }));
      k.route("POST", "/echo", async (c) => ({ got: await c.json() }));
    },
  });
  const kernel = await createKernel({
    settings: { host: "127.0.0.1", port: 0, pipelinesDir: join(mkdtempSync(join(tmpdir(), "svc-bench-")), "pipelines") },
    plugins: [...(observed ? [tracingPlugin()] : []), managementPlugin(), runApiPlugin(), openaiPlugin(), mcpPlugin(), bench, ...(observed ? [monitoringPlugin()] : []), ...(mode === "metrics" ? [metricsPlugin()] : [])],
    logger: new Logger("ERROR"),
  });
  await kernel.deployer.deploy({ kind: "files", name: "noop", files: { "pipeline_wrapper.ts": NOOP_WRAPPER }, save: false });
  await kernel.deployer.deploy({ kind: "files", name: "streamer", files: { "pipeline_wrapper.ts": CHAT_WRAPPER }, save: false });
  console.log((await kernel.listen()).port);
}

/**
 * The plugins `svc run` loads when nothing is configured (an empty environment, no config file);
 * `env` switches some off as a user would (`SERVICE_TRACING_ENABLED=false`).
 */
async function svcDefault(env: NodeJS.ProcessEnv = {}): Promise<void> {
  const cwd = mkdtempSync(join(tmpdir(), "svc-bench-"));
  // As cli/serve.ts does: the kernel reads the loaded plugins' settings from the same sources.
  const { sources, plugins } = resolveRunConfig({ host: "127.0.0.1", port: 0, pipelinesDir: join(cwd, "pipelines") }, cwd, env);
  const entries = await loadPlugins(plugins, { cwd, builtins: builtinPlugins });
  const kernel = await createKernel({ sources, plugins: entries, logger: new Logger("ERROR"), knownSettings });
  await kernel.deployer.deploy({ kind: "files", name: "noop", files: { "pipeline_wrapper.ts": NOOP_WRAPPER }, save: false });
  await kernel.deployer.deploy({ kind: "files", name: "adder", files: { "pipeline_wrapper.ts": ADDER_WRAPPER }, save: false });
  console.log((await kernel.listen()).port);
}

if (kind === "bare") bare();
else if (kind === "svc") await svc();
else if (kind === "svc-observed") await svc("observed");
else if (kind === "svc-metrics") await svc("metrics");
else if (kind === "svc-default") await svcDefault();
else if (kind === "svc-unobserved") await svcDefault({ SERVICE_TRACING_ENABLED: "false", SERVICE_MONITORING_ENABLED: "false" });
else if (kind === "svc-untraced") await svcDefault({ SERVICE_TRACING_ENABLED: "false" });
else if (kind === "svc-unmonitored") await svcDefault({ SERVICE_MONITORING_ENABLED: "false" });
else if (kind === "fastify") await fastifyTarget();
