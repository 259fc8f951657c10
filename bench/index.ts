/**
 * @module `npm run bench`: svc against a bare node:http server measured in the same run, each in
 * its own process and loaded by autocannon from this one; then the p50 latency of a deploy, and
 * chat streaming (chunks per second, time to first byte) against a bare SSE server, and MCP
 * `tools/call` against `/run` for the same pipeline; the object store and its explorer; the
 * propagation of redeploys across a cluster of three instances on Redis; `/run` with tracing and
 * monitoring, and with metrics, on against off.
 */
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { NOOP_WRAPPER } from "./server.js";
import { engineBench } from "./engine.js";
import { streamingBench } from "./streaming.js";
import { mcpBench } from "./mcp.js";
import { onOffBench } from "./observability.js";
import { objectStoreBench } from "./object-store.js";
import { startTarget, type Target } from "./target.js";
import { clusterBench } from "./cluster.js";

const DURATION_S = Number(process.env.BENCH_DURATION ?? 3);
const CONNECTIONS = 32;
const DEPLOYS = 30;

interface Scenario {
  name: string;
  method: "GET" | "POST";
  path: string;
  body?: string;
}

const scenarios: Scenario[] = [
  { name: "POST /noop/run (no-op pipeline)", method: "POST", path: "/noop/run", body: JSON.stringify({ question: "What is svc?", top_k: 3 }) },
  { name: "GET small JSON", method: "GET", path: "/ping" },
  { name: "POST JSON echo (1 KiB)", method: "POST", path: "/echo", body: JSON.stringify({ text: "x".repeat(1000) }) },
];

function load(port: number, s: Scenario): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}${s.path}`,
    method: s.method,
    body: s.body,
    headers: { "content-type": "application/json" },
    connections: CONNECTIONS,
    duration: DURATION_S,
  });
}

/** p50 of redeploying a small wrapper over HTTP (overwrite, not saved). */
async function deployLatency(port: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < DEPLOYS; i++) {
    const body = JSON.stringify({ name: "small", overwrite: true, save_files: false, files: { "pipeline_wrapper.ts": NOOP_WRAPPER } });
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/deploy_files`, { method: "POST", body });
    if (res.status !== 200) throw new Error(`deploy failed: ${res.status} ${await res.text()}`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const SERVER = fileURLToPath(new URL("./server.js", import.meta.url));
const started: Target[] = [];
async function launch(kind: "bare" | "svc" | "svc-observed" | "svc-metrics"): Promise<Target> {
  const target = await startTarget(SERVER, [kind]);
  started.push(target);
  return target;
}

// A target that dies (at startup or under load) fails the bench with its output; the others are
// stopped either way, so a failed bench leaves no process behind.
const rows: string[][] = [];
let deployP50: number, streaming: string[], mcp: string[], observability: string[], metrics: string[];
try {
  // Both targets run side by side and are loaded in alternating rounds, so drift on a shared machine
  // hits both alike; each figure is the median of its rounds.
  const targets = { bare: await launch("bare"), svc: await launch("svc") };
  for (const s of scenarios) {
    const samples = { bare: [] as autocannon.Result[], svc: [] as autocannon.Result[] };
    const cpuPerRequest = { bare: [] as number[], svc: [] as number[] };
    for (const kind of ["bare", "svc"] as const) await load(targets[kind].port, s); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of ["bare", "svc"] as const) {
        const { cpu, port } = targets[kind];
        const before = await cpu();
        const r = await load(port, s);
        cpuPerRequest[kind].push(((await cpu()) - before) / r.requests.total);
        samples[kind].push(r);
      }
    }
    for (const kind of ["bare", "svc"] as const) {
      const rs = samples[kind];
      rows.push([
        kind,
        s.name,
        String(Math.round(median(rs.map((r) => r.requests.average)))),
        String(median(rs.map((r) => r.latency.p50))),
        String(median(rs.map((r) => r.latency.p99))),
        String(rs.reduce((n, r) => n + r.non2xx + r.errors, 0)),
        median(cpuPerRequest[kind]).toFixed(1),
      ]);
    }
  }
  deployP50 = await deployLatency(targets.svc.port);
  streaming = await streamingBench({ bare: targets.bare.port, svc: targets.svc.port });
  mcp = await mcpBench(targets.svc.port, targets.svc.cpu, ROUNDS, DURATION_S);
  const observed = await launch("svc-observed");
  observability = await onOffBench({ feature: "tracing + monitoring", bar: 0.9 }, targets.svc, observed, ROUNDS, DURATION_S);
  observed.kill();
  const measured = await launch("svc-metrics");
  metrics = await onOffBench({ feature: "metrics", bar: 0.95 }, targets.svc, measured, ROUNDS, DURATION_S);
} finally {
  for (const target of started) target.kill();
}

const baseline = new Map(rows.filter((r) => r[0] === "bare").map((r) => [r[1], Number(r[2])]));
const cpuBaseline = new Map(rows.filter((r) => r[0] === "bare").map((r) => [r[1], Number(r[6])]));
const header = ["target", "scenario", "req/s", "p50 ms", "p99 ms", "errors", "CPU µs/req", "req/s vs bare", "CPU vs bare"];
const table = [
  header,
  ...rows.map((r) => [...r, (Number(r[2]) / baseline.get(r[1]!)!).toFixed(2), (cpuBaseline.get(r[1]!)! / Number(r[6])).toFixed(2)]),
];
const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
for (const row of table) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join("  "));
console.log(`\ndeploy of a small wrapper (overwrite, over HTTP): p50 ${deployP50.toFixed(1)} ms over ${DEPLOYS} deploys (target ≤ 50 ms)`);
const run = rows.find((r) => r[0] === "svc" && r[1] === scenarios[0]!.name)!;
console.log(
  `/run ratio: ${(Number(run[2]) / baseline.get(run[1]!)!).toFixed(2)} by req/s, ${(cpuBaseline.get(run[1]!)! / Number(run[6])).toFixed(2)} by CPU per request (target ≥ 0.75)`,
);

for (const line of streaming) console.log(line);
for (const line of mcp) console.log(line);
for (const line of observability) console.log(line);
for (const line of metrics) console.log(line);
for (const line of await engineBench()) console.log(line);
for (const line of await objectStoreBench()) console.log(line);
for (const line of await clusterBench()) console.log(line);
