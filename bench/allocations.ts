/**
 * @module Bytes allocated per request, server side, by target and by function: `POST /adder/run`
 * (as bench/cpu.ts loads it) against bare `node:http`, the Fastify target and svc with and without
 * tracing and monitoring, each sampled by V8's heap profiler inside the target
 * (bench/allocation-sampler.ts). Allocation does not move with the machine's load the way CPU time
 * does, so this shows what a change to the request path makes or spares where the CPU table
 * cannot; every byte is also garbage the young-generation collector must sweep.
 * `node dist/bench/allocations.js [requests] [functions shown per svc target]`.
 */
import autocannon from "autocannon";
import { sampleAllocations, type AllocationSample } from "./allocation-sampler.js";
import { adderLoad, KINDS, SERVER } from "./cpu.js";
import { startTarget, type Target } from "./target.js";

/** Sends `amount` requests; resolves to the requests served, rejects if any was answered with an error. */
async function load(target: Target, amount: number): Promise<number> {
  const result = await autocannon({ ...adderLoad(target.port), amount });
  if (result.non2xx + result.errors > 0) throw new Error("the target answered with errors");
  return result.requests.total;
}

/** Bytes per request while `requests` requests are served, after a warm-up. */
async function sample(kind: string, requests: number): Promise<AllocationSample> {
  const target = await startTarget(SERVER, [kind]);
  try {
    await load(target, requests / 2); // warm-up: JIT, pools, caches
    return await sampleAllocations(target, () => load(target, requests));
  } finally {
    target.kill();
  }
}

const requests = Number(process.argv[2] ?? 40_000);
const shown = Number(process.argv[3] ?? 12);
console.log(`POST /adder/run, ${requests} requests per target, bytes allocated per request (sampled, server side):`);
for (const kind of KINDS) {
  const { total, byFunction } = await sample(kind, requests);
  console.log(`${kind.padEnd(16)} ${total.toFixed(0).padStart(6)} B`);
  if (kind.startsWith("svc")) for (const [name, bytes] of byFunction.slice(0, shown)) console.log(`  ${bytes.toFixed(0).padStart(6)} ${name}`);
}
