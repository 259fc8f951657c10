/**
 * @module Object-store benchmarks: `explore` and `search` over a 1 MB JSON object (milliseconds,
 * beside a plain `JSON.stringify` of the same object as the baseline), and store `put`/`get` per
 * second for the memory backend and for Redis (a real redis-server, when one is installed).
 */
import { Explorer, MemoryBackend, ObjectStore, connectRedisBackend, type ObjectStoreBackend } from "svc/object-store";
import { redisSkipReason, startRedis } from "../test/helpers/redis.js";

/** About 1 MB: 2,000 pipeline-like records. */
function bigObject(): unknown {
  return {
    data: Array.from({ length: 2000 }, (_, i) => ({
      pipeline_id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      name: `pipeline-${i}`,
      status: i % 7 === 0 ? "FAILED" : "DEPLOYED",
      created_by: { given_name: "Ada", family_name: "Lovelace", email: "ada@example.com" },
      description: `Pipeline number ${i} answers questions about topic ${i % 50}. `.repeat(6),
      tags: ["rag", "qa", `t${i % 13}`],
    })),
    has_more: false,
    total: 2000,
  };
}

function medianMs(times: number, fn: () => unknown): Promise<number> {
  return (async () => {
    const samples: number[] = [];
    for (let i = 0; i < times; i++) {
      const started = performance.now();
      await fn();
      samples.push(performance.now() - started);
    }
    return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
  })();
}

async function perSecond(ms: number, fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < ms) {
    await fn();
    n++;
  }
  return n / ((performance.now() - started) / 1000);
}

async function storeRate(backend: ObjectStoreBackend): Promise<{ put: number; get: number }> {
  const store = new ObjectStore(backend, 600);
  const value = { name: "rag-qa", status: "DEPLOYED", tags: ["a", "b"], n: 1 };
  const ids: string[] = [];
  const put = await perSecond(1000, async () => ids.push(await store.put(value)));
  let i = 0;
  const get = await perSecond(1000, () => store.get(ids[i++ % ids.length]!));
  return { put, get };
}

export async function objectStoreBench(): Promise<string[]> {
  const lines: string[] = [];
  const store = new ObjectStore(new MemoryBackend(), 0);
  const object = bigObject();
  const id = await store.put(object);
  const bytes = JSON.stringify(object).length;
  const explorer = new Explorer(store);
  const baseline = await medianMs(20, () => JSON.stringify(object));
  const explore = await medianMs(20, () => explorer.explore(id));
  const explorePath = await medianMs(20, () => explorer.explore(id, "data.1500"));
  const search = await medianMs(20, () => explorer.search(id, "topic 42\\b"));
  lines.push(
    `\nexplorer over a ${(bytes / 1e6).toFixed(2)} MB object (median of 20): explore ${explore.toFixed(1)} ms, explore data.1500 ${explorePath.toFixed(1)} ms, search ${search.toFixed(1)} ms (baseline JSON.stringify ${baseline.toFixed(1)} ms)`,
  );
  const memory = await storeRate(new MemoryBackend());
  lines.push(`object store, memory: put ${Math.round(memory.put)}/s, get ${Math.round(memory.get)}/s`);
  const skip = redisSkipReason();
  if (skip) {
    lines.push(`object store, redis: skipped (${skip})`);
    return lines;
  }
  const redis = await startRedis();
  try {
    const backend = await connectRedisBackend(redis.url);
    try {
      const r = await storeRate(backend);
      lines.push(`object store, redis (one connection, sequential): put ${Math.round(r.put)}/s, get ${Math.round(r.get)}/s`);
    } finally {
      await backend.close();
    }
  } finally {
    await redis.stop();
  }
  return lines;
}
