/**
 * @module Test helpers for one service on several processes: `svc run` instances with their own
 * pipelines directories, and requests on fresh connections (so a load balancer or node:cluster
 * may hand each to another process).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSvc, type RunningSvc } from "./cli.js";
import { rawRequest, sleep } from "./http.js";
import { tempDir, wrapper } from "./pipelines.js";

export interface Instance extends RunningSvc {
  dir: string;
}

/** A wrapper whose run answers `tag`; `extra` goes into the class body. */
export function taggedWrapper(tag: string, extra = ""): string {
  return wrapper(`runApi() { return ${JSON.stringify(tag)}; }`, extra);
}

/** A pipelines directory holding `folders` (name → wrapper source). */
export function pipelinesDirWith(folders: Record<string, string> = {}): string {
  const dir = join(tempDir("svc-cluster-"), "pipelines");
  mkdirSync(dir, { recursive: true });
  for (const [name, source] of Object.entries(folders)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, "pipeline_wrapper.ts"), source);
  }
  return dir;
}

export async function startInstance(options: { redisUrl?: string; dir?: string; args?: string[]; env?: Record<string, string>; port?: number } = {}): Promise<Instance> {
  const dir = options.dir ?? pipelinesDirWith();
  // A private cache dir: the operator credential these servers write must not reach later tests.
  const env: Record<string, string> = { SERVICE_CLUSTER_RECONCILE_INTERVAL: "1", XDG_CACHE_HOME: tempDir("svc-cluster-cache-"), ...options.env };
  if (options.redisUrl) env.SERVICE_CLUSTER_REDIS_URL = options.redisUrl;
  const svc = await startSvc(["run", "--host", "127.0.0.1", "--port", String(options.port ?? 0), "--pipelines-dir", dir, ...(options.args ?? [])], { env, ms: 60_000 });
  return Object.assign(svc, { dir });
}

export async function post(url: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await rawRequest(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  let parsed: unknown = res.body;
  try {
    parsed = JSON.parse(res.body);
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed as any };
}

export function deployTo(url: string, name: string, source: string, extra: Record<string, unknown> = {}) {
  return post(`${url}/deploy_files`, { name, files: { "pipeline_wrapper.ts": source }, ...extra });
}

/** The pipeline's answer on a fresh connection, or `#<status>` when it did not answer 200. */
export async function answerOf(url: string, name: string): Promise<string> {
  const res = await post(`${url}/${name}/run`, {}).catch((error: Error) => ({ status: 0, body: error.message }));
  return res.status === 200 ? String(res.body.result) : `#${res.status}`;
}

/** Milliseconds until `url` answers `expected` for `name` (polling), or throws after `ms`. */
export async function untilServes(url: string, name: string, expected: string, ms = 10_000): Promise<number> {
  const started = Date.now();
  let last = "";
  while (Date.now() - started < ms) {
    last = await answerOf(url, name);
    if (last === expected) return Date.now() - started;
    await sleep(20);
  }
  throw new Error(`${url} did not serve '${name}' as '${expected}' within ${ms} ms (last: ${last})`);
}

export async function stopAll(...instances: (RunningSvc | undefined)[]): Promise<void> {
  await Promise.all(instances.map((i) => i?.stop("SIGKILL")));
}
