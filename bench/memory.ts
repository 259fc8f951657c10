/**
 * @module `svc run` as a user starts it (`node dist/cli/index.js run`, the default plugins): idle
 * RSS serving the example pipelines, the RSS the first wrapper adds to an empty service, and the
 * time 1,000 deployed wrappers take from spawn to listening. Each is measured `REPEATS` times in
 * fresh processes; the median is the figure and half the spread its noise. RSS is VmRSS from
 * /proc (Linux), without forcing a GC: the idle figure after `IDLE_MS` without requests (also
 * printed: `SETTLE_MS` after listening), the first wrapper's `SETTLE_MS` after each event.
 *
 * The processes share one compile cache, new for each figure (`XDG_CACHE_HOME`): the first process
 * compiles every wrapper (a first start), the next ones find them compiled (a restart), so the
 * median is a restart and the first sample printed is a first start.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { NOOP_WRAPPER } from "./server.js";
import { fromRounds, record } from "./bars.js";

const CLI = fileURLToPath(new URL("../cli/index.js", import.meta.url));
const REPEATS = 3;
const SETTLE_MS = 2000;
/** How long a service sits without requests before its idle RSS is read: V8 shrinks the young
 * generation grown by the startup deploys only once its memory reducer sees the process idle
 * (about 16 s after the last full GC on Node 20). */
const IDLE_MS = 30_000;
const MANY = 1000;
const MB = 1024 * 1024;

interface Running {
  child: ChildProcess;
  port: number;
  /** Everything it logged up to listening. */
  log: string;
}

/** Spawns `svc run` on port 0 and resolves once it logs that it listens (after its startup deploys). */
function svcRun(pipelinesDir: string, timeoutMs = 120_000): Promise<Running> {
  const child = spawn(process.execPath, [CLI, "run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", pipelinesDir], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, XDG_CACHE_HOME: cacheHome },
  });
  let log = "";
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`svc run ${why}; its output:\n${log.slice(-4000)}`));
    };
    const timer = setTimeout(() => fail(`did not listen within ${timeoutMs / 1000} s`), timeoutMs);
    child.once("exit", (code, signal) => fail(`exited (${signal ?? code})`));
    child.stderr!.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      const port = /svc listening on http:\/\/[^\s]*:(\d+)/.exec(log)?.[1];
      if (port) {
        clearTimeout(timer);
        child.removeAllListeners("exit");
        resolve({ child, port: Number(port), log });
      }
    });
  });
}

function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  if (!kb) throw new Error(`no VmRSS for ${pid}`);
  return (Number(kb) * 1024) / MB;
}

async function stop(run: Running): Promise<void> {
  const exited = new Promise((resolve) => run.child.once("exit", resolve));
  run.child.kill("SIGKILL");
  await exited;
}

const tempDir = () => mkdtempSync(join(tmpdir(), "svc-bench-mem-"));

/** RSS serving a copy of `pipelines/` as `npm start` would: `SETTLE_MS` after it listens, and idle. */
async function idleRss(examples: string, afterStart: number[]): Promise<number> {
  const dir = tempDir();
  try {
    cpSync(examples, join(dir, "pipelines"), { recursive: true });
    const run = await svcRun(join(dir, "pipelines"));
    await sleep(SETTLE_MS);
    afterStart.push(rssMb(run.child.pid!));
    await sleep(IDLE_MS - SETTLE_MS);
    const rss = rssMb(run.child.pid!);
    await stop(run);
    return rss;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** RSS an empty service gains from one small wrapper deployed over HTTP. */
async function firstWrapperRss(): Promise<number> {
  const dir = tempDir();
  try {
    const run = await svcRun(dir);
    await sleep(SETTLE_MS);
    const before = rssMb(run.child.pid!);
    const body = JSON.stringify({ name: "first", save_files: false, files: { "pipeline_wrapper.ts": NOOP_WRAPPER } });
    const res = await fetch(`http://127.0.0.1:${run.port}/deploy_files`, { method: "POST", body });
    if (res.status !== 200) throw new Error(`deploy failed: ${res.status} ${await res.text()}`);
    await sleep(SETTLE_MS);
    const after = rssMb(run.child.pid!);
    await stop(run);
    return after - before;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Seconds from spawn to listening with `MANY` wrapper folders deployed. */
async function manyStartup(): Promise<number> {
  const dir = tempDir();
  try {
    for (let i = 0; i < MANY; i++) {
      mkdirSync(join(dir, `p${i}`));
      writeFileSync(join(dir, `p${i}`, "pipeline_wrapper.ts"), NOOP_WRAPPER);
    }
    const started = performance.now();
    const run = await svcRun(dir);
    const seconds = (performance.now() - started) / 1000;
    await stop(run);
    const deployed = /deployed (\d+)\/(\d+) pipelines/.exec(run.log);
    if (deployed?.[1] !== String(MANY)) throw new Error(`expected ${MANY} deployed, log says: ${deployed?.[0] ?? "nothing"}`);
    return seconds;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The compile cache of the processes of the figure being measured. */
let cacheHome = "";

async function repeat(measure: () => Promise<number>): Promise<number[]> {
  cacheHome = tempDir();
  try {
    const samples: number[] = [];
    for (let i = 0; i < REPEATS; i++) samples.push(await measure());
    return samples;
  } finally {
    rmSync(cacheHome, { recursive: true, force: true });
  }
}

/** Records the three figures; `examples` is the repository's `pipelines/`. */
export async function memoryBench(examples: string): Promise<string[]> {
  const afterStart: number[] = [];
  const idle = await repeat(() => idleRss(examples, afterStart));
  const first = await repeat(firstWrapperRss);
  const many = await repeat(manyStartup);
  const mb = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(", ");
  record({ name: "idle RSS of svc run serving pipelines/", ...fromRounds(idle), bar: 80, direction: "at most", unit: "MB" });
  record({ name: "RSS added by the first wrapper", ...fromRounds(first), bar: 5, direction: "at most", unit: "MB" });
  record({ name: `start with ${MANY} wrappers deployed`, ...fromRounds(many), bar: 5, direction: "at most", unit: "s" });
  return [
    "",
    `svc run RSS serving pipelines/ (MB, ${REPEATS} processes, the first with an empty compile cache): ${mb(afterStart)} ${SETTLE_MS / 1000} s after listening; idle (${IDLE_MS / 1000} s without requests): ${mb(idle)} (target ≤ 80)`,
    `RSS added by the first wrapper deployed over HTTP (MB): ${mb(first)} (target ≤ 5)`,
    `spawn to listening with ${MANY} wrappers deployed (s): ${mb(many)} (target ≤ 5)`,
  ];
}
