/**
 * @module Deadlines for Redis calls. node-redis fails commands fast while the connection is down,
 * but a Redis that is paused (SIGSTOP, a frozen VM, a network that drops packets) keeps the TCP
 * connection open and never answers: a command already written waits forever, and the client
 * still calls itself ready. `withDeadline` bounds each call; `RedisWatch` pings on a timer so an
 * idle process notices the stall too, and reports it (for `/status` and `/readyz`) until Redis
 * answers again.
 */
import { messageOf } from "../errors.js";

/** Default deadline of one Redis call (`SERVICE_REDIS_TIMEOUT`, seconds in the settings). */
export const DEFAULT_REDIS_TIMEOUT_MS = 2000;

/** A Redis call that did not answer within its deadline. */
export class RedisTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`Redis did not answer within ${timeoutMs} ms (paused or overloaded?)`);
    this.name = "RedisTimeoutError";
  }
}

/** `work`, or a `RedisTimeoutError` once `timeoutMs` passed (the command itself cannot be taken back). */
export function withDeadline<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisTimeoutError(timeoutMs)), timeoutMs);
  });
  work.catch(() => undefined); // a late failure after the deadline is nobody's to handle
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/** A node-redis client or cluster client, seen through what the watch needs. */
interface Watched {
  ping?(): Promise<unknown>;
  sendCommand?(key: undefined, readonly: boolean, args: string[]): Promise<unknown>;
  readonly isReady?: boolean;
  readonly isOpen?: boolean;
}

/** A cluster client has no keyless PING: it routes one to any node. */
const ping = (client: Watched): Promise<unknown> => (client.ping ? client.ping() : client.sendCommand!(undefined, true, ["PING"]));
const isReady = (client: Watched): boolean => client.isReady ?? client.isOpen ?? false;

/**
 * Watches one connection: a PING every `intervalMs` (one at a time), and every call made through
 * `call`. A call or ping past its deadline marks Redis stalled; the next answer clears it.
 */
export class RedisWatch {
  private timer?: NodeJS.Timeout;
  private pinging = false;
  private failure?: string;

  constructor(
    private readonly client: () => unknown,
    readonly timeoutMs: number,
    private readonly onChange?: (error: string | undefined) => void,
  ) {}

  start(intervalMs = Math.min(1000, this.timeoutMs)): this {
    this.timer = setInterval(() => void this.probe(), intervalMs);
    this.timer.unref();
    return this;
  }

  /** Why Redis is not usable now (stalled, or disconnected), or undefined while it answers. */
  get error(): string | undefined {
    if (!isReady(this.client() as Watched)) return this.failure ?? "not connected";
    return this.failure;
  }

  /** Runs one Redis call under the deadline, noting whether Redis answered. */
  async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      const result = await withDeadline(command(), this.timeoutMs);
      this.answered();
      return result;
    } catch (error) {
      if (error instanceof RedisTimeoutError) this.failed(error.message);
      throw error;
    }
  }

  close(): void {
    clearInterval(this.timer);
  }

  /** One PING at a time: during a stall the next is sent only after Redis answered the last. */
  private probe(): void {
    const client = this.client() as Watched;
    if (this.pinging || !isReady(client)) return;
    this.pinging = true;
    const answer = ping(client);
    answer.then(
      () => this.answered(),
      (error) => this.failed(messageOf(error)),
    ).finally(() => (this.pinging = false));
    withDeadline(answer, this.timeoutMs).catch((error) => {
      if (error instanceof RedisTimeoutError) this.failed(error.message);
    });
  }

  private answered(): void {
    if (this.failure === undefined) return;
    this.failure = undefined;
    this.onChange?.(undefined);
  }

  private failed(message: string): void {
    if (this.failure === message) return;
    this.failure = message;
    this.onChange?.(message);
  }
}
