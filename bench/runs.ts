/**
 * @module Background runs on two `svc run` instances sharing a real redis-server: 1,000 runs of a
 * wrapper that waits for a release file are created (alternating instances, 50 clients), counted
 * in flight together, then released; the figures are the create-to-queued latency (the 202's round trip,
 * p50/p99), the runs lost (any not `completed` in the end: bar 0) and the Redis cost per run
 * (commands and network bytes in, from `INFO` before and after).
 */
import { createClient } from "@redis/client";
import { pipelinesDirWith, startInstance, stopAll, type Instance } from "../test/helpers/cluster.js";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir, wrapper } from "../test/helpers/pipelines.js";
import { redisSkipReason, startRedis } from "../test/helpers/redis.js";
import { record } from "./bars.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 1000);
const CONCURRENCY = 50;
/** Every run waits until this file exists (one check per 100 ms for all of them, not one per run). */
const releaseFile = join(tempDir("svc-bench-runs-"), "release");
const SLEEPER = `import { existsSync } from "node:fs";
let released: Promise<void> | undefined;
const release = () => (released ??= new Promise<void>((resolve) => {
  const timer = setInterval(() => existsSync(${JSON.stringify(releaseFile)}) && (clearInterval(timer), resolve()), 100);
}));
${wrapper(`async runApi(input: { n: number }) { await release(); return { n: input.n }; }`)}`;

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

/** Total commands processed and bytes received by the server. */
async function redisCounters(url: string): Promise<{ commands: number; bytes: number }> {
  const client = createClient({ url });
  await client.connect();
  try {
    const stats = await client.info("stats");
    const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, "m").exec(stats)?.[1] ?? NaN);
    return { commands: field("total_commands_processed"), bytes: field("total_net_input_bytes") };
  } finally {
    await client.close();
  }
}

export async function runsBench(): Promise<string[]> {
  const skip = redisSkipReason();
  if (skip) return [`background runs: skipped (${skip})`];
  const redis = await startRedis();
  const instances: Instance[] = [];
  try {
    const dir = pipelinesDirWith({ sleeper: SLEEPER });
    for (let i = 0; i < 2; i++) instances.push(await startInstance({ redisUrl: redis.url, dir }));
    // Idle baseline: leases, heartbeats and cluster reconciling cost commands without any run.
    const idleStart = await redisCounters(redis.url);
    const idleStarted = performance.now();
    await new Promise((r) => setTimeout(r, 2000));
    const idleEnd = await redisCounters(redis.url);
    const idlePerMs = (idleEnd.commands - idleStart.commands) / (performance.now() - idleStarted);

    const statuses = new Map<string, string>();
    const listAll = async () => {
      statuses.clear();
      let cursor: string | null = null;
      do {
        const res = await fetch(`${instances[1]!.url}/runs?limit=100${cursor ? `&cursor=${cursor}` : ""}`);
        const page = (await res.json()) as { runs: { id: string; status: string }[]; next_cursor: string | null };
        for (const run of page.runs) statuses.set(run.id, run.status);
        cursor = page.next_cursor;
      } while (cursor);
    };
    const before = await redisCounters(redis.url);
    const started = performance.now();
    const latencies: number[] = [];
    const ids: string[] = [];
    let refused = 0;
    let next = 0;
    const client = async () => {
      while (next < RUNS) {
        const n = next++;
        const t0 = performance.now();
        const res = await fetch(`${instances[n % 2]!.url}/sleeper/runs`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ n }) });
        const body = (await res.json()) as { id?: string; status?: string };
        latencies.push(performance.now() - t0);
        if (res.status === 202 && body.id) ids.push(body.id);
        else refused++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, client));
    const created = performance.now() - started;
    await listAll();
    const inFlight = ids.filter((id) => ["queued", "in_progress"].includes(statuses.get(id) ?? "")).length;
    writeFileSync(releaseFile, "go");
    const deadline = Date.now() + 120_000;
    // Poll the list on the other instance until no run is left unfinished (or a generous deadline).
    let polls = 1;
    while (Date.now() < deadline) {
      await listAll();
      polls++;
      if (ids.every((id) => ["completed", "failed", "cancelled", "incomplete"].includes(statuses.get(id) ?? ""))) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const elapsed = performance.now() - started;
    const after = await redisCounters(redis.url);
    // What one listing pass costs, to take the polls out of the runs' cost (every pass lists all the runs: they were all created before the first).
    await listAll();
    const pass = await redisCounters(redis.url);
    const pollCost = { commands: pass.commands - after.commands - 1, bytes: pass.bytes - after.bytes };
    const completed = ids.filter((id) => statuses.get(id) === "completed").length;
    const lost = RUNS - completed;
    // The idle baseline (leases, heartbeats, reconciling) and the listing polls are taken out.
    const commandsPerRun = (after.commands - before.commands - idlePerMs * elapsed - polls * pollCost.commands) / RUNS;
    const bytesPerRun = (after.bytes - before.bytes - polls * pollCost.bytes) / RUNS;
    record({ name: `background runs in flight together (of ${RUNS})`, value: inFlight, bar: RUNS, noise: 0, direction: "at least", unit: "runs" });
    record({ name: `background runs lost (${RUNS} in flight, 2 instances, Redis)`, value: lost, bar: 0, noise: 0, direction: "at most", unit: "runs" });
    return [
      `background runs (2 instances, Redis): ${RUNS} created in ${(created / 1000).toFixed(1)} s by ${CONCURRENCY} clients, ${inFlight} in flight together before their release; ` +
        `create-to-queued p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms; ` +
        `${completed} completed, ${lost} lost (bar 0), ${refused} refused; Redis per run ≈ ${commandsPerRun.toFixed(0)} commands, ${(bytesPerRun / 1024).toFixed(1)} KiB sent to Redis`,
    ];
  } finally {
    await stopAll(...instances);
    await redis.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await runsBench()) console.log(line);
  const { summary, recorded } = await import("./bars.js");
  console.log(summary(recorded()).lines.join("\n"));
}
