/**
 * @module Test helpers for pipelines: a kernel with the management and run-api plugins over a
 * temporary pipelines directory, and deploy requests.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import managementPlugin from "../../plugins/management/index.js";
import runApiPlugin from "../../plugins/run-api/index.js";
import type { KernelOptions, KernelPlugin } from "svc/plugin";
import { startKernel, type TestKernel } from "./kernel.js";

export interface PipelineKernel extends TestKernel {
  dir: string;
  deploy(body: Record<string, unknown>): Promise<{ status: number; body: any }>;
  run(name: string, body?: unknown): Promise<{ status: number; body: any }>;
}

export function tempDir(prefix = "svc-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function startPipelineKernel(
  options: { settings?: KernelOptions["settings"]; plugins?: KernelPlugin[]; dir?: string; container?: KernelOptions["container"] } = {},
): Promise<PipelineKernel> {
  const dir = options.dir ?? join(tempDir(), "pipelines");
  const k = await startKernel({
    container: options.container,
    settings: { pipelinesDir: dir, ...options.settings },
    plugins: [managementPlugin(), runApiPlugin(), ...(options.plugins ?? [])],
  });
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${k.url}${path}`, { method: "POST", body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // a text body
    }
    return { status: res.status, body: parsed as any };
  };
  return { ...k, dir, deploy: (body) => post("/deploy_files", body), run: (name, body = {}) => post(`/${name}/run`, body) };
}

/** Runs `fn` against a fresh pipeline kernel and closes it whatever happens. */
export async function withPipelineKernel(
  fn: (k: PipelineKernel) => Promise<void>,
  options: Parameters<typeof startPipelineKernel>[0] = {},
): Promise<void> {
  const k = await startPipelineKernel(options);
  try {
    await fn(k);
  } finally {
    await k.close();
  }
}

/** A wrapper source with a runApi body. */
export function wrapper(runApi: string, extra = ""): string {
  return `import * as v from "valibot";
import { BasePipelineWrapper, HttpError, sse, fileResponse, uploadedFiles } from "svc";
export class PipelineWrapper extends BasePipelineWrapper {
${extra}
  ${runApi}
}
`;
}
