/**
 * @module The CPU-per-request table of issue 28: bare `node:http`, a Fastify 5 target doing the
 * same work (bench/fastify-target.ts), svc with `svc run`'s default plugins (tracing and monitoring
 * on: every run traced and indexed), and the same without tracing and monitoring — four processes
 * side by side, loaded by autocannon (32 connections, `POST /adder/run`, a schema-checked body) in
 * alternating rounds, so drift on the shared machine hits all alike. Server CPU time (user +
 * system, `process.cpuUsage()` inside the target) divided by requests served is the measure; it
 * holds up under other load far better than requests per second. Runs alone as
 * `node dist/bench/cpu.js` (`npm run bench:cpu`) and first in `npm run bench`.
 */
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { startTarget, type Target } from "./target.js";
import { fromRounds, ratioOfRounds, record, recorded, summary } from "./bars.js";

export const KINDS = ["bare", "fastify", "svc-default", "svc-unobserved"] as const;
type Kind = (typeof KINDS)[number];
const LABELS: Record<Kind, string> = {
  bare: "bare node:http",
  fastify: "Fastify 5 (ajv, request id, prom-client)",
  "svc-default": "svc, default plugins (tracing + monitoring on)",
  "svc-unobserved": "svc, without tracing and monitoring",
};

interface Round {
  rps: number;
  cpu: number;
  errors: number;
}

export const SERVER = fileURLToPath(new URL("./server.js", import.meta.url));
const body = JSON.stringify({ a: 2, b: 3 });

/** The load of this table (and of bench/allocations.ts): `POST /adder/run`, 32 connections. */
export function adderLoad(port: number) {
  return { url: `http://127.0.0.1:${port}/adder/run`, method: "POST" as const, body, headers: { "content-type": "application/json" }, connections: 32 };
}

async function measure(target: Target, duration: number): Promise<Round> {
  const before = await target.cpu();
  const r = await autocannon({ ...adderLoad(target.port), duration });
  return { rps: r.requests.average, cpu: ((await target.cpu()) - before) / r.requests.total, errors: r.non2xx + r.errors };
}

const spread = (xs: number[], digits: number) => {
  const { value } = fromRounds(xs);
  return `${value.toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
};

/** Runs the table; records its three bars and returns the lines to print. */
export async function cpuBench(rounds: number, duration: number): Promise<string[]> {
  const targets = {} as Record<Kind, Target>;
  try {
    for (const kind of KINDS) targets[kind] = await startTarget(SERVER, [kind]);
    const samples = Object.fromEntries(KINDS.map((k) => [k, [] as Round[]])) as Record<Kind, Round[]>;
    for (const kind of KINDS) await measure(targets[kind], duration); // warm-up: JIT, pools, caches
    for (let round = 0; round < rounds; round++) {
      for (const kind of KINDS) samples[kind].push(await measure(targets[kind], duration));
    }
    const of = (kind: Kind, key: "rps" | "cpu") => samples[kind].map((s) => s[key]);
    const perRound = (a: Kind, b: Kind) => of(a, "cpu").map((x, i) => x - of(b, "cpu")[i]!);
    record({ name: "POST /adder/run req/s, svc default ÷ Fastify", ...ratioOfRounds(of("svc-default", "rps"), of("fastify", "rps")), bar: 1, direction: "at least", unit: "×" });
    record({ name: "CPU per request, svc default − bare node:http", ...fromRounds(perRound("svc-default", "bare")), bar: 15, direction: "at most", unit: "µs" });
    record({ name: "CPU per request, tracing + monitoring (svc default − without)", ...fromRounds(perRound("svc-default", "svc-unobserved")), bar: 4, direction: "at most", unit: "µs" });

    const header = ["target", "CPU µs/req median (min–max)", "req/s median (min–max)", "errors"];
    const rows = KINDS.map((k) => [LABELS[k], spread(of(k, "cpu"), 1), spread(of(k, "rps"), 0), String(samples[k].reduce((n, s) => n + s.errors, 0))]);
    const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i]!.length)));
    return [
      `POST /adder/run, 32 connections, ${rounds} rounds of ${duration} s per target (alternating):`,
      ...[header, ...rows].map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd()),
    ];
  } finally {
    for (const target of Object.values(targets)) target.kill();
  }
}

// Alone: the table and its bars, exit 1 when a median misses its bar.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const lines = await cpuBench(Number(process.env.BENCH_ROUNDS ?? 5), Number(process.env.BENCH_DURATION ?? 3));
  const { lines: bars, failed } = summary(recorded());
  console.log([...lines, "", ...bars].join("\n"));
  if (failed.length) process.exitCode = 1;
}
