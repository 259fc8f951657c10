/**
 * @module `POST /adder/run` over real sockets, in one process: bare `node:http`, svc with `svc run`'s
 * default plugins, and svc without tracing and monitoring, each on its own port, loaded in
 * alternating batches by a minimal keep-alive client (raw sockets, no promises: the same small cost
 * for every target). Per request it prints CPU µs (client included, alike for all three), young-
 * generation collections (with a fixed 1 MB semi-space: ~MB allocated), and — with `--promises` —
 * promises created (async_hooks; slows everything, so it is a separate pass). Allocation and
 * promise counts do not move with the machine's load, unlike CPU time: they show a change on a
 * shared machine where the CPU table (bench/cpu.ts) cannot.
 * `node --max-semi-space-size=1 --min-semi-space-size=1 dist/bench/http-path.js [batches] [requests] [--promises]`.
 *
 * The targets keep idle connections for `IDLE_S`: a target waits while the others run their
 * batches, longer than a server's default keep-alive time-out on a loaded machine, and a connection
 * it closed meanwhile would leave its client waiting for an answer that never comes. A connection
 * that closes anyway fails the run, naming the target.
 */
import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { createHook } from "node:async_hooks";
import { PerformanceObserver } from "node:perf_hooks";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKernel, Logger, type Kernel } from "svc/plugin";
import { loadPlugins } from "svc/internal";
import { builtinPlugins } from "../cli/default-plugins.js";
import { knownSettings } from "../cli/cli-settings.js";
import { resolveRunConfig } from "../cli/run-settings.js";
import { ADDER_WRAPPER } from "./server.js";

const CONNECTIONS = 16;
const IDLE_S = 600;
const LAST_CHUNK = Buffer.from("0\r\n\r\n");
const BODY = JSON.stringify({ a: 2, b: 3 });
const REQUEST = Buffer.from(`POST /adder/run HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${BODY.length}\r\n\r\n${BODY}`);

async function svc(env: NodeJS.ProcessEnv): Promise<{ port: number; kernel: Kernel }> {
  const cwd = mkdtempSync(join(tmpdir(), "svc-http-path-"));
  const { sources, plugins } = resolveRunConfig({ host: "127.0.0.1", port: 0, pipelinesDir: join(cwd, "pipelines") }, cwd, { SERVICE_KEEP_ALIVE_TIMEOUT: String(IDLE_S), ...env });
  const kernel = await createKernel({ sources, plugins: await loadPlugins(plugins, { cwd, builtins: builtinPlugins }), logger: new Logger("ERROR"), knownSettings });
  await kernel.deployer.deploy({ kind: "files", name: "adder", files: { "pipeline_wrapper.ts": ADDER_WRAPPER }, save: false });
  return { port: (await kernel.listen()).port, kernel };
}

/** The bare baseline of bench/server.ts. */
async function bare(): Promise<{ port: number; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString() || "{}");
      if (typeof body?.a !== "number" || typeof body?.b !== "number") return void res.writeHead(422, { "content-type": "application/json" }).end("{}");
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ result: body.a + body.b }));
    });
  });
  server.keepAliveTimeout = IDLE_S * 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

/** Sends `total` requests over CONNECTIONS keep-alive sockets, one in flight per socket. */
function load(target: string, sockets: Socket[], total: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = 0;
    for (const socket of sockets) {
      if (socket.destroyed) return reject(new Error(`${target}: a keep-alive connection was closed between batches`));
      socket.removeAllListeners("data").removeAllListeners("close");
      socket.once("close", () => answered < total && reject(new Error(`${target}: a connection closed with answers outstanding`)));
      socket.on("data", (chunk: Buffer) => {
        // Every answer here is small: it ends with its JSON body, or (chunked) with the last chunk.
        if (chunk[chunk.length - 1] !== 0x7d && !chunk.subarray(-5).equals(LAST_CHUNK)) return;
        if (chunk.indexOf("HTTP/1.1 200") !== 0) return reject(new Error(`unexpected answer: ${chunk.toString().slice(0, 300)}`));
        if (++answered === total) return resolve();
        if (sent < total) sent++, socket.write(REQUEST);
      });
      if (sent < total) sent++, socket.write(REQUEST);
    }
  });
}

let collections = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if ((entry as unknown as { detail?: { kind?: number } }).detail?.kind === 1) collections++;
}).observe({ entryTypes: ["gc"] });
let promises = 0;
const counting = process.argv.includes("--promises");
if (counting) createHook({ init: (_id, type) => void (type === "PROMISE" && promises++) }).enable();

interface Sample {
  cpu: number;
  gcs: number;
  promises: number;
}

async function batch(target: string, sockets: Socket[], requests: number): Promise<Sample> {
  const gc0 = collections;
  const p0 = promises;
  const before = process.cpuUsage();
  await load(target, sockets, requests);
  const used = process.cpuUsage(before);
  await new Promise((resolve) => setImmediate(resolve)); // let the gc entries arrive
  return { cpu: (used.user + used.system) / requests, gcs: (collections - gc0) / requests, promises: (promises - p0) / requests };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const batches = Number(args[0] ?? 10);
const requests = Number(args[1] ?? 4000);

const b = await bare();
const observed = await svc({});
const plain = await svc({ SERVICE_TRACING_ENABLED: "false", SERVICE_MONITORING_ENABLED: "false" });
const targets = { bare: b.port, "svc default": observed.port, "svc without T+M": plain.port };
const sockets = Object.fromEntries(
  await Promise.all(
    Object.entries(targets).map(async ([name, port]) => {
      const list = await Promise.all(Array.from({ length: CONNECTIONS }, () => new Promise<Socket>((resolve) => { const s = connect(port, "127.0.0.1", () => resolve(s)); s.setNoDelay(true); })));
      return [name, list] as const;
    }),
  ),
) as Record<keyof typeof targets, Socket[]>;
const samples = Object.fromEntries(Object.keys(targets).map((k) => [k, [] as Sample[]])) as Record<keyof typeof targets, Sample[]>;
for (const name of Object.keys(targets) as (keyof typeof targets)[]) await batch(name, sockets[name], requests); // warm-up
for (let i = 0; i < batches; i++) for (const name of Object.keys(targets) as (keyof typeof targets)[]) samples[name].push(await batch(name, sockets[name], requests));

const of = (name: keyof typeof targets, key: keyof Sample) => samples[name].map((s) => s[key]);
const diff = (a: keyof typeof targets, c: keyof typeof targets) => median(of(a, "cpu").map((x, i) => x - of(c, "cpu")[i]!));
console.log(`POST /adder/run in one process, ${CONNECTIONS} keep-alive connections, ${batches} alternating batches of ${requests} (client included):`);
for (const name of Object.keys(targets) as (keyof typeof targets)[]) {
  const gcs = median(of(name, "gcs"));
  console.log(
    `  ${name.padEnd(16)} CPU ${median(of(name, "cpu")).toFixed(1).padStart(6)} µs/req (${Math.min(...of(name, "cpu")).toFixed(1)}–${Math.max(...of(name, "cpu")).toFixed(1)}), ` +
      `young GCs ${(gcs * 1000).toFixed(2)} per 1000 req` +
      (counting ? `, promises ${median(of(name, "promises")).toFixed(1)} per req` : ""),
  );
}
console.log(`  svc default − bare ${diff("svc default", "bare").toFixed(1)} µs; tracing + monitoring ${diff("svc default", "svc without T+M").toFixed(1)} µs (medians of per-batch differences)`);
for (const list of Object.values(sockets)) for (const s of list) s.removeAllListeners("close").destroy();
b.server.close();
await Promise.all([observed.kernel.close(), plain.kernel.close()]);
