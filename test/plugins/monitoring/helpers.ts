/**
 * @module Helpers for the monitoring tests: a kernel with management, run-api and monitoring (plus
 * any other plugins), an operator policy registered by the host under TRACE_ACCESS (bearer
 * `operator-token`: none → 401, another → 403), and clients for deploy, run and /executions.
 */
import { createContainer } from "svc/internal";
import { TRACE_ACCESS, allow, deny, type AccessPolicy, type DependencyContainer, type KernelOptions, type KernelPlugin } from "svc/plugin";
import managementPlugin from "../../../plugins/management/index.js";
import runApiPlugin from "../../../plugins/run-api/index.js";
import monitoringPlugin from "../../../plugins/monitoring/index.js";
import { startKernel, type TestKernel } from "../../helpers/kernel.js";
import { tempDir } from "../../helpers/pipelines.js";
import { sleep } from "../../helpers/http.js";

export const OPERATOR = { authorization: "Bearer operator-token" };

export const operatorPolicy: AccessPolicy = ({ req }) => {
  const header = req.headers.authorization;
  if (!header) return deny(401, "Operator access is required.");
  return header === OPERATOR.authorization ? allow() : deny(403, "Wrong operator token.");
};

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

export interface MonitoredKernel extends TestKernel {
  deploy(name: string, source: string): Promise<void>;
  post(path: string, body?: unknown): Promise<Answer>;
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  /** Polls GET /executions/{id} until `check` holds. */
  waitFor(id: string, check: (record: any) => boolean): Promise<any>;
  /** The newest record of a pipeline. */
  latest(pipeline: string): Promise<any>;
}

export interface MonitoredOptions {
  settings?: KernelOptions["settings"];
  /** Loaded before monitoring (so their run taps are outside its own). */
  before?: KernelPlugin[];
  after?: KernelPlugin[];
  container?: DependencyContainer;
  /** Register the bearer-token operator policy (default true). */
  policy?: boolean;
}

export async function startMonitored(options: MonitoredOptions = {}): Promise<MonitoredKernel> {
  const container = options.container ?? createContainer();
  if (options.policy !== false) container.register(TRACE_ACCESS, { useValue: operatorPolicy });
  const k = await startKernel({
    container,
    settings: { pipelinesDir: `${tempDir()}/pipelines`, ...options.settings },
    plugins: [managementPlugin(), runApiPlugin(), ...(options.before ?? []), monitoringPlugin(), ...(options.after ?? [])],
  });
  const answer = async (res: Response): Promise<Answer> => {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // text
    }
    return { status: res.status, body, headers: res.headers };
  };
  const post = async (path: string, body?: unknown) =>
    answer(await fetch(`${k.url}${path}`, { method: "POST", body: body === undefined ? undefined : JSON.stringify(body) }));
  const get = async (path: string, headers: Record<string, string> = OPERATOR) => answer(await fetch(`${k.url}${path}`, { headers }));
  const deploy = async (name: string, source: string) => {
    const res = await post("/deploy_files", { name, files: { "pipeline_wrapper.ts": source }, save_files: false });
    if (res.status !== 200) throw new Error(`deploy ${name}: ${JSON.stringify(res.body)}`);
  };
  const waitFor = async (id: string, check: (record: any) => boolean) => {
    let last: Answer | undefined;
    for (let i = 0; i < 500; i++) {
      last = await get(`/executions/${id}`);
      if (last.status === 200 && check(last.body)) return last.body;
      await sleep(10);
    }
    throw new Error(`execution ${id} never matched: ${JSON.stringify(last?.body)}`);
  };
  const latest = async (pipeline: string) => {
    const res = await get(`/executions?pipeline=${pipeline}&limit=1`);
    if (res.status !== 200) throw new Error(`GET /executions: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.executions[0];
  };
  return { ...k, deploy, post, get, waitFor, latest };
}

export async function withMonitored(fn: (k: MonitoredKernel) => Promise<void>, options: MonitoredOptions = {}): Promise<void> {
  const k = await startMonitored(options);
  try {
    await fn(k);
  } finally {
    await k.close();
  }
}

/** A wrapper source with the given class members; svc's helpers are in scope. */
export function wrapperWith(members: string): string {
  return `import { BasePipelineWrapper, HttpError, sse } from "svc";
const gates = ((globalThis as any).__monitoringGates ??= new Map<string, Promise<void>>());
const gate = (name: string) => gates.get(name) ?? Promise.resolve();
export class PipelineWrapper extends BasePipelineWrapper {
${members}
}
`;
}

/** A promise wrappers wait on (`await gate("name")`) until the test opens it. */
export function closedGate(name: string): () => void {
  let open!: () => void;
  const gates = ((globalThis as any).__monitoringGates ??= new Map<string, Promise<void>>()) as Map<string, Promise<void>>;
  gates.set(name, new Promise<void>((resolve) => (open = resolve)));
  return () => open();
}
