/**
 * @module Allocation sampling inside a bench target (bench/server.ts): V8's sampling heap profiler,
 * which, told to keep what the garbage collector took too, sees every allocation at one byte in
 * `SAMPLE_BYTES` on average, with the function that made it. The parent (`sampleAllocations`)
 * sends `{ allocations: "start" }`, loads the target, then `{ allocations: "stop" }`, and gets the
 * bytes by function back. Unlike CPU time, what a request allocates does not move with the
 * machine's load.
 */
import { Session } from "node:inspector/promises";
import type { Target } from "./target.js";

const SAMPLE_BYTES = 64;

/** Bytes allocated while sampling (per request, from `sampleAllocations`): in all, and by function (`name file:line`). */
export interface AllocationSample {
  readonly total: number;
  readonly byFunction: [string, number][];
}

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

/** `name file:line`, with the path cut to what follows `dist/` or `node_modules/`. */
function where({ functionName, url, lineNumber }: ProfileNode["callFrame"]): string {
  const file = url.replace(/.*\/dist\//, "").replace(/.*\/node_modules\//, "npm:");
  return `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`;
}

function summarize(head: ProfileNode): AllocationSample {
  const bytes = new Map<string, number>();
  let total = 0;
  const walk = (node: ProfileNode) => {
    if (node.selfSize > 0) {
      const key = where(node.callFrame);
      bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) walk(child);
  };
  walk(head);
  return { total, byFunction: [...bytes].sort((a, b) => b[1] - a[1]) };
}

/** Answers the parent's `{ allocations: "start" | "stop" }` messages. */
export function answerAllocationRequests(): void {
  let session: Session | undefined;
  process.on("message", (message: { allocations?: string }) => {
    if (message?.allocations === "start") void start().then(() => process.send!({ allocations: "started" }));
    if (message?.allocations === "stop") void stop().then((sample) => process.send!({ allocations: sample }));
  });
  async function start(): Promise<void> {
    session = new Session();
    session.connect();
    await session.post("HeapProfiler.enable");
    await session.post("HeapProfiler.startSampling", { samplingInterval: SAMPLE_BYTES, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  }
  async function stop(): Promise<AllocationSample> {
    const { profile } = await session!.post("HeapProfiler.stopSampling");
    session!.disconnect();
    return summarize(profile.head as ProfileNode);
  }
}

/** Asks the target, and waits for its answer (the first message carrying `allocations`). */
function ask<T>(target: Target, allocations: string): Promise<T> {
  return new Promise((resolve) => {
    const answer = (message: { allocations?: unknown }) => {
      if (message?.allocations === undefined) return;
      target.child.off("message", answer);
      resolve(message.allocations as T);
    };
    target.child.on("message", answer);
    target.child.send({ allocations });
  });
}

/** Samples the target while `load` runs (it resolves to the requests served): bytes per request. */
export async function sampleAllocations(target: Target, load: () => Promise<number>): Promise<AllocationSample> {
  await ask(target, "start");
  const served = await load();
  const { total, byFunction } = await ask<AllocationSample>(target, "stop");
  return { total: total / served, byFunction: byFunction.map(([name, bytes]) => [name, bytes / served]) };
}
