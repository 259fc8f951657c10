/**
 * @module Test helper: a real Redis cluster of three masters on loopback — three `redis-server`s
 * with `--cluster-enabled yes`, joined by `redis-cli --cluster create`, ready once every node
 * reports `cluster_state:ok`. Skips (`clusterSkipReason()`) without redis-server or redis-cli.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { binaryPath, freePort, redisSkipReason, startRedis, type TestRedis } from "./redis.js";

const run = promisify(execFile);
const READY_TIMEOUT_MS = 20_000;

export interface TestRedisCluster {
  /** `redis://[:password@]127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3` — the cluster form of the settings. */
  url: string;
  ports: number[];
  /** Stops every node. */
  stop(): Promise<void>;
}

export function clusterSkipReason(): string | null {
  return redisSkipReason() ?? (binaryPath("redis-cli") ? null : "redis-cli is not installed; Redis cluster tests skipped");
}

export async function startRedisCluster(options: { password?: string } = {}): Promise<TestRedisCluster> {
  const nodes: TestRedis[] = [];
  const stop = async () => void (await Promise.allSettled(nodes.map((n) => n.stop())));
  try {
    for (let i = 0; i < 3; i++) {
      // The bus port defaults to port + 10000, which may not exist: pick one.
      const busPort = await freePort();
      const auth = options.password === undefined ? [] : ["--masterauth", options.password];
      const args = ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-port", String(busPort), ...auth];
      nodes.push(await startRedis({ password: options.password, args }));
    }
    const env = { ...process.env, ...(options.password === undefined ? {} : { REDISCLI_AUTH: options.password }) };
    const cli = binaryPath("redis-cli") ?? "redis-cli";
    await run(cli, ["--cluster", "create", ...nodes.map((n) => `127.0.0.1:${n.port}`), "--cluster-yes"], { env });
    await waitForState(cli, nodes, env);
  } catch (error) {
    await stop();
    throw error;
  }
  const auth = options.password === undefined ? "" : `:${encodeURIComponent(options.password)}@`;
  return { url: `redis://${auth}${nodes.map((n) => `127.0.0.1:${n.port}`).join(",")}`, ports: nodes.map((n) => n.port), stop };
}

async function waitForState(cli: string, nodes: TestRedis[], env: NodeJS.ProcessEnv): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const states = await Promise.all(nodes.map((n) => run(cli, ["-p", String(n.port), "cluster", "info"], { env }).then((r) => r.stdout)));
    if (states.every((s) => s.includes("cluster_state:ok"))) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the test cluster did not reach cluster_state:ok within ${READY_TIMEOUT_MS} ms`);
}
