/**
 * @module `npm run bench`: the kernel's HTTP layer against a bare node:http server measured in the
 * same run, each in its own process, loaded by autocannon from this one.
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 32;

interface Scenario {
  name: string;
  method: "GET" | "POST";
  path: string;
  body?: string;
}

const scenarios: Scenario[] = [
  { name: "GET small JSON", method: "GET", path: "/ping" },
  { name: "POST JSON echo (1 KiB)", method: "POST", path: "/echo", body: JSON.stringify({ text: "x".repeat(1000) }) },
];

async function startTarget(kind: "bare" | "svc"): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(fileURLToPath(new URL("./server.js", import.meta.url)), [kind], { stdio: ["ignore", "pipe", "inherit", "ipc"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once("data", (d: Buffer) => resolve(Number(d.toString().trim())));
    child.once("exit", (code) => reject(new Error(`${kind} target exited with ${code}`)));
  });
  return { child, port };
}

async function load(port: number, s: Scenario, path = s.path): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    method: s.method,
    body: s.body,
    headers: { "content-type": "application/json" },
    connections: CONNECTIONS,
    duration: DURATION_S,
  });
}

const rows: string[][] = [];
for (const kind of ["bare", "svc"] as const) {
  const { child, port } = await startTarget(kind);
  for (const s of scenarios) {
    await load(port, s); // warm-up run, not reported
    const r = await load(port, s);
    rows.push([kind, s.name, String(Math.round(r.requests.average)), String(r.latency.p50), String(r.latency.p99), String(r.non2xx + r.errors)]);
  }
  child.kill();
}

const baseline = new Map(rows.filter((r) => r[0] === "bare").map((r) => [r[1], Number(r[2])]));
const header = ["target", "scenario", "req/s", "p50 ms", "p99 ms", "errors", "vs bare"];
const table = [header, ...rows.map((r) => [...r, `${((Number(r[2]) / baseline.get(r[1]!)!) * 100).toFixed(0)}%`])];
const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
for (const row of table) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join("  "));
