/**
 * @module The cluster: three `svc run` instances with their own pipelines directories sharing a real
 * redis-server. Under steady load on every instance, one pipeline is redeployed again and again
 * through the instances in turn; the figures are the propagation time (from the deploy's answer
 * until another instance answers with the new version; p50/p99) and the requests that failed.
 * Targets: p99 ≤ 1000 ms, zero failed requests.
 */
import { deployTo, startInstance, stopAll, taggedWrapper, untilServes, type Instance } from "../test/helpers/cluster.js";
import { redisSkipReason, startRedis } from "../test/helpers/redis.js";

const REDEPLOYS = Number(process.env.BENCH_CLUSTER_REDEPLOYS ?? 30);
const CLIENTS_PER_INSTANCE = 4;

interface Load {
  ok: number;
  failed: number;
  /** Per instance: the first time each version was answered. */
  firstSeen: Map<string, number>[];
}

/** Every client sends run requests one after another (keep-alive) until `stop` is set. */
function loadAll(instances: Instance[], stop: { done: boolean }): { load: Load; finished: Promise<void> } {
  const load: Load = { ok: 0, failed: 0, firstSeen: instances.map(() => new Map()) };
  const client = async (index: number) => {
    const url = `${instances[index]!.url}/hot/run`;
    while (!stop.done) {
      try {
        const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
        const body = (await res.json()) as { result?: string };
        if (res.status !== 200) {
          load.failed++;
          continue;
        }
        load.ok++;
        const seen = load.firstSeen[index]!;
        if (body.result && !seen.has(body.result)) seen.set(body.result, performance.now());
      } catch {
        load.failed++;
      }
    }
  };
  const clients = instances.flatMap((_, i) => Array.from({ length: CLIENTS_PER_INSTANCE }, () => client(i)));
  return { load, finished: Promise.all(clients).then(() => undefined) };
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

export async function clusterBench(): Promise<string[]> {
  const skip = redisSkipReason();
  if (skip) return [`cluster propagation: skipped (${skip})`];
  const redis = await startRedis();
  const instances: Instance[] = [];
  try {
    for (let i = 0; i < 3; i++) instances.push(await startInstance({ redisUrl: redis.url }));
    const first = await deployTo(instances[0]!.url, "hot", taggedWrapper("v0"));
    if (first.status !== 200) throw new Error(`deploy failed: ${first.status} ${JSON.stringify(first.body)}`);
    for (const instance of instances) await untilServes(instance.url, "hot", "v0");

    const stop = { done: false };
    const { load, finished } = loadAll(instances, stop);
    const propagation: number[] = [];
    for (let i = 1; i <= REDEPLOYS; i++) {
      const via = i % instances.length;
      const version = `v${i}`;
      const res = await deployTo(instances[via]!.url, "hot", taggedWrapper(version), { overwrite: true });
      if (res.status !== 200) throw new Error(`redeploy ${i} failed: ${res.status} ${JSON.stringify(res.body)}`);
      const answered = performance.now();
      for (const [index, instance] of instances.entries()) {
        if (index === via) continue;
        const deadline = answered + 10_000;
        while (!load.firstSeen[index]!.has(version) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 2));
        const seen = load.firstSeen[index]!.get(version);
        if (seen === undefined) throw new Error(`${instance.url} did not serve ${version} within 10 s`);
        propagation.push(Math.max(0, seen - answered));
      }
    }
    stop.done = true;
    await finished;
    return [
      `cluster (3 instances, Redis, ${CLIENTS_PER_INSTANCE} clients each): ${REDEPLOYS} redeploys under load, propagation to the other instances ` +
        `p50 ${percentile(propagation, 50).toFixed(0)} ms, p99 ${percentile(propagation, 99).toFixed(0)} ms (target ≤ 1000 ms); ` +
        `${load.failed} failed of ${load.ok + load.failed} requests (target 0)`,
    ];
  } finally {
    await stopAll(...instances);
    await redis.stop();
  }
}
