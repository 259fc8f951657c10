/**
 * @module The deploy state of `--workers N` on one host, without any other service: the primary
 * keeps the manifest (`WorkersManifest`) and every worker asks it over node:cluster IPC
 * (`WorkerDeployState`). A change is decided in one event-loop turn of the primary (so the 409/404
 * rules hold across workers), then announced to every other worker, and the deploying worker gets
 * its answer only once they all applied it: an HTTP answer means every worker serves the change.
 * A worker changing a name holds it (`acquire`) from before it stages the files in the shared
 * pipelines directory until it serves the change, so racing deploys neither write the same folder
 * at once nor end with workers serving different versions.
 */
import type { Worker } from "node:cluster";
import { HttpError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { ChangeListener, ClusterHealth, DeployState, ManifestEntry, ManifestWrite, PutResult, RemoveResult } from "./deploy-state.js";
import { LocalDeployState } from "./local-deploy-state.js";

/** Set in a worker's environment by the primary: use `WorkerDeployState`. */
export const WORKERS_STATE_ENV = "SVC_DEPLOY_STATE_WORKERS";
/** A worker that neither applies a change nor exits within this time is not waited for any longer. */
const APPLY_TIMEOUT_MS = 60_000;

type Op = { op: "join" } | { op: "acquire"; name: string } | { op: "get"; name: string } | { op: "list" } | { op: "versions" } | { op: "put"; entry: ManifestWrite; mode: "create" | "replace" } | { op: "remove"; name: string };
type Request = { svc: "deploy-state"; id: number } & Op;
type Reply = { svc: "deploy-state-reply"; id: number; result?: unknown; error?: string };
type Change = { svc: "deploy-change"; seq: number; name: string };
type Applied = { svc: "deploy-applied"; seq: number };
type Settled = { svc: "deploy-settled"; name: string };

/** The primary's side: the manifest, and the workers that joined it. */
export class WorkersManifest {
  private readonly state = new LocalDeployState("primary");
  private readonly joined = new Set<Worker>();
  private readonly waiting = new Map<number, { pending: Set<Worker>; done: () => void }>();
  /** Per name: the change in progress (until its worker serves it), which the next one waits for. */
  private readonly changing = new Map<string, { worker: Worker; done: () => void; tail: Promise<void> }>();
  private seq = 0;

  constructor(private readonly log: Logger) {}

  /** Serves one worker's requests; call for every forked worker. */
  attach(worker: Worker): void {
    worker.on("message", (message: Request | Applied | Settled) => {
      if (message?.svc === "deploy-applied") return this.applied(worker, message.seq);
      if (message?.svc === "deploy-settled") return this.settled(worker, message.name);
      if (message?.svc === "deploy-state") void this.serve(worker, message);
    });
    worker.once("exit", () => {
      this.joined.delete(worker);
      for (const seq of [...this.waiting.keys()]) this.applied(worker, seq);
      for (const name of [...this.changing.keys()]) this.settled(worker, name);
    });
  }

  private async serve(worker: Worker, request: Request): Promise<void> {
    const reply = (body: Omit<Reply, "svc" | "id">) => {
      if (worker.isConnected()) worker.send({ svc: "deploy-state-reply", id: request.id, ...body } satisfies Reply);
    };
    try {
      if (request.op === "join") return void (this.joined.add(worker), reply({}));
      if (request.op === "get") return reply({ result: await this.state.get(request.name) });
      if (request.op === "list") return reply({ result: await this.state.list() });
      if (request.op === "versions") return reply({ result: [...(await this.state.versions())] });
      const name = request.op === "put" ? request.entry.name : request.name;
      // Wait for another worker's change of the name (never for the caller's own hold).
      while (this.changing.has(name) && this.changing.get(name)!.worker !== worker) await this.changing.get(name)!.tail;
      if (request.op === "acquire") return void (this.hold(name, worker), reply({}));
      const result = request.op === "put" ? this.state.putNow(request.entry, request.mode) : this.state.removeNow(request.name);
      if ("version" in result) {
        if (!this.changing.has(name)) this.hold(name, worker);
        await this.announce(name, worker);
      }
      reply({ result });
    } catch (error) {
      this.log.error("The workers' deploy state failed", error);
      reply({ error: (error as Error).message });
    }
  }

  /** Tells every other worker and resolves once each applied it, exited, or timed out. */
  private announce(name: string, from: Worker): Promise<void> {
    const others = [...this.joined].filter((w) => w !== from && w.isConnected());
    if (others.length === 0) return Promise.resolve();
    const seq = ++this.seq;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.log.warn(`Workers ${[...(this.waiting.get(seq)?.pending ?? [])].map((w) => w.process.pid).join(", ")} did not apply the change of '${name}' within ${APPLY_TIMEOUT_MS / 1000} s`);
        finish();
      }, APPLY_TIMEOUT_MS);
      const finish = () => {
        clearTimeout(timer);
        this.waiting.delete(seq);
        resolve();
      };
      this.waiting.set(seq, { pending: new Set(others), done: finish });
      for (const worker of others) worker.send({ svc: "deploy-change", seq, name } satisfies Change);
    });
  }

  /** Keeps later changes of `name` waiting until `worker` serves this one (or exits, or times out). */
  private hold(name: string, worker: Worker): void {
    let done!: () => void;
    const tail = new Promise<void>((resolve) => (done = resolve));
    const timer = setTimeout(() => this.settled(worker, name), APPLY_TIMEOUT_MS);
    this.changing.set(name, { worker, tail, done: () => (clearTimeout(timer), done()) });
  }

  private settled(worker: Worker, name: string): void {
    const change = this.changing.get(name);
    if (change?.worker !== worker) return;
    this.changing.delete(name);
    change.done();
  }

  private applied(worker: Worker, seq: number): void {
    const wait = this.waiting.get(seq);
    if (!wait?.pending.delete(worker)) return;
    if (wait.pending.size === 0) wait.done();
  }
}

/** A worker's side: every read and change is a request to the primary. */
export class WorkerDeployState implements DeployState {
  readonly shared = true;
  readonly sharedDisk = true;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private listener?: ChangeListener;
  private readonly onMessage = (message: Reply | Change) => {
    if (message?.svc === "deploy-state-reply") {
      const call = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error !== undefined) call?.reject(new HttpError(500, `The workers' deploy state failed: ${message.error}`));
      else call?.resolve(message.result);
    } else if (message?.svc === "deploy-change") {
      const ack = () => process.send?.({ svc: "deploy-applied", seq: message.seq } satisfies Applied);
      Promise.resolve(this.listener?.(message.name)).then(ack, ack);
    }
  };

  private constructor(readonly instance: string) {
    process.on("message", this.onMessage);
  }

  /** Joins the primary's manifest: from now on this worker hears every change. */
  static async join(instance: string): Promise<WorkerDeployState> {
    const state = new WorkerDeployState(instance);
    await state.call({ op: "join" });
    return state;
  }

  get(name: string): Promise<ManifestEntry | undefined> {
    return this.call({ op: "get", name }) as Promise<ManifestEntry | undefined>;
  }

  list(): Promise<ManifestEntry[]> {
    return this.call({ op: "list" }) as Promise<ManifestEntry[]>;
  }

  async versions(): Promise<Map<string, number>> {
    return new Map((await this.call({ op: "versions" })) as [string, number][]);
  }

  put(entry: ManifestWrite, mode: "create" | "replace"): Promise<PutResult> {
    return this.call({ op: "put", entry, mode }) as Promise<PutResult>;
  }

  remove(name: string): Promise<RemoveResult> {
    return this.call({ op: "remove", name }) as Promise<RemoveResult>;
  }

  async acquire(name: string): Promise<void> {
    await this.call({ op: "acquire", name });
  }

  settled(name: string): void {
    if (process.connected) process.send?.({ svc: "deploy-settled", name } satisfies Settled);
  }

  follow(listener: ChangeListener): void {
    this.listener = listener;
  }

  health(): ClusterHealth {
    return { mode: "workers", instance: this.instance, connected: process.connected === true };
  }

  async close(): Promise<void> {
    process.off("message", this.onMessage);
    for (const call of this.pending.values()) call.reject(new HttpError(503, "The server is shutting down."));
    this.pending.clear();
  }

  private call(op: Op): Promise<unknown> {
    if (!process.send || !process.connected) return Promise.reject(new HttpError(503, "This worker lost its primary process; deploys are refused."));
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      process.send!({ svc: "deploy-state", id, ...op } satisfies Request);
    });
  }
}
