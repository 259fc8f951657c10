/**
 * @module Readiness: whether this process should be sent traffic (`GET /readyz`). Anything that can
 * make the process unfit to serve — startup deploys still running, a shutdown draining, a cluster
 * store out of reach — registers a named check; the process is ready when every check passes.
 * The kernel registers its own checks (startup, shutdown, deploy state); plugins and hosts add more
 * through the `READINESS` token:
 *
 * ```ts
 * const readiness = kernel.resolve(READINESS);
 * const remove = readiness.add("my-queue", () => queue.connected ? ready() : notReady("queue disconnected"));
 * ```
 *
 * A check may be async; one that does not settle within its deadline (default 2 s) counts as
 * failed, so a stalled dependency makes `/readyz` answer 503 instead of hanging the probe.
 */
import { messageOf } from "./errors.js";

export interface CheckResult {
  readonly ready: boolean;
  /** Why not ready (or a short note when ready); shown in the `/readyz` answer. */
  readonly message?: string;
}

export type ReadinessCheck = () => CheckResult | Promise<CheckResult>;

export interface CheckOptions {
  /** How long the check may take before it counts as failed (milliseconds; default 2000). */
  readonly deadlineMs?: number;
}

export interface ReadinessReport {
  readonly ready: boolean;
  /** Every check by name, in registration order. */
  readonly checks: Record<string, CheckResult>;
}

export const ready = (message?: string): CheckResult => (message ? { ready: true, message } : { ready: true });
export const notReady = (message: string): CheckResult => ({ ready: false, message });

const DEFAULT_DEADLINE_MS = 2000;

interface Registered {
  readonly check: ReadinessCheck;
  readonly deadlineMs: number;
}

export class Readiness {
  private readonly checks = new Map<string, Registered>();

  /**
   * Adds (or replaces) the check called `name`; returns a function that removes it. Replacing lets
   * a later part refine an earlier one's check (a cluster store that knows a better probe).
   */
  add(name: string, check: ReadinessCheck, options: CheckOptions = {}): () => void {
    const entry = { check, deadlineMs: options.deadlineMs ?? DEFAULT_DEADLINE_MS };
    this.checks.set(name, entry);
    return () => {
      if (this.checks.get(name) === entry) this.checks.delete(name);
    };
  }

  /** Names of the registered checks, in registration order. */
  get names(): string[] {
    return [...this.checks.keys()];
  }

  /** Runs every check at once, each bounded by its deadline. */
  async report(): Promise<ReadinessReport> {
    const entries = [...this.checks];
    const results = await Promise.all(entries.map(([name, entry]) => runCheck(name, entry)));
    const checks: Record<string, CheckResult> = {};
    entries.forEach(([name], i) => (checks[name] = results[i]!));
    return { ready: results.every((r) => r.ready), checks };
  }
}

async function runCheck(name: string, { check, deadlineMs }: Registered): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve(notReady(`the '${name}' check did not answer within ${deadlineMs} ms`)), deadlineMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(check), deadline]);
  } catch (error) {
    return notReady(`the '${name}' check failed: ${messageOf(error)}`);
  } finally {
    clearTimeout(timer);
  }
}
