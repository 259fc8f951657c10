/**
 * @module The run path without HTTP: `kernel.invoke` of the adder (bench/server.ts) through a
 * request context, as `POST /adder/run` calls it, in four kernels with `svc run`'s default plugins
 * (as they are, without tracing, without monitoring, without both), in alternating batches. Prints
 * the CPU µs per call of each and the differences: what tracing and monitoring cost per run,
 * together and each alone, once the HTTP layer, the socket and the load generator are out of the
 * picture (docs/benchmarks.md compares it with the same difference over HTTP).
 * `node dist/bench/run-path.js [batches] [calls per batch]`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Request } from "polka";
import { createKernel, Logger, type Kernel } from "svc/plugin";
import { loadPlugins } from "svc/internal";
import { RequestContext, type ContextLimits } from "../kernel/http/context.js";
import { builtinPlugins } from "../cli/default-plugins.js";
import { knownSettings } from "../cli/cli-settings.js";
import { resolveRunConfig } from "../cli/run-settings.js";
import { ADDER_WRAPPER } from "./server.js";

async function kernelWith(env: NodeJS.ProcessEnv): Promise<Kernel> {
  const cwd = mkdtempSync(join(tmpdir(), "svc-run-path-"));
  const { sources, plugins } = resolveRunConfig({ host: "127.0.0.1", port: 0, pipelinesDir: join(cwd, "pipelines") }, cwd, env);
  const kernel = await createKernel({ sources, plugins: await loadPlugins(plugins, { cwd, builtins: builtinPlugins }), logger: new Logger("ERROR"), knownSettings });
  await kernel.deployer.deploy({ kind: "files", name: "adder", files: { "pipeline_wrapper.ts": ADDER_WRAPPER }, save: false });
  return kernel;
}

/** CPU µs per call; yields to the event loop every 10 calls, as a loaded server's turns do. */
async function batch(kernel: Kernel, calls: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    const req = { headers: { "content-type": "application/json" } } as unknown as Request & IncomingMessage;
    const c = new RequestContext(req, {} as ServerResponse, "0b1c2d3e-4f50-4a1b-8c2d-3e4f5a6b7c8d", kernel.log, {} as ContextLimits);
    const invocation = await kernel.invoke({ pipeline: "adder", method: "runApi", transport: "rest", input: { a: 2, b: 3 }, request: c });
    JSON.stringify({ result: invocation.result });
    if (i % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

const batches = Number(process.argv[2] ?? 15);
const calls = Number(process.argv[3] ?? 5000);
/** The default plugins, then without tracing, without monitoring, and without both. */
const VARIANTS = {
  default: {},
  untraced: { SERVICE_TRACING_ENABLED: "false" },
  unmonitored: { SERVICE_MONITORING_ENABLED: "false" },
  neither: { SERVICE_TRACING_ENABLED: "false", SERVICE_MONITORING_ENABLED: "false" },
} satisfies Record<string, NodeJS.ProcessEnv>;
type Variant = keyof typeof VARIANTS;
const names = Object.keys(VARIANTS) as Variant[];
const kernels = {} as Record<Variant, Kernel>;
for (const name of names) kernels[name] = await kernelWith(VARIANTS[name]);
for (let i = 0; i < 3; i++) for (const name of names) await batch(kernels[name], calls); // warm-up
const costs = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Variant, number[]>;
for (let i = 0; i < batches; i++) for (const name of names) costs[name].push(await batch(kernels[name], calls));
/** The median per batch of `a` − `b` (the batches of one round ran side by side). */
const difference = (a: Variant, b: Variant) => median(costs[a].map((x, i) => x - costs[b][i]!)).toFixed(2);
console.log(
  `kernel.invoke, ${batches} alternating batches of ${calls}, CPU µs per call: ` +
    names.map((name) => `${name} ${median(costs[name]).toFixed(2)}`).join(", ") +
    `; tracing + monitoring ${difference("default", "neither")}, tracing ${difference("unmonitored", "neither")}, monitoring ${difference("untraced", "neither")} (medians of the per-batch differences)`,
);
await Promise.all(names.map((name) => kernels[name].close()));
