/**
 * @module Watching request bodies for stalls: a body that receives nothing for the idle time-out
 * is given up. Every body being read with the same time-out is checked by one shared timer instead
 * of a timer of its own (setting and clearing a timer per request cost more than routing it). The
 * timer ticks ten times per time-out and each body remembers when it last saw progress, so a stall
 * is noticed between 1× and 1.1× the time-out after the last byte (checking once per time-out and
 * giving up at the second check without progress let a 30 s time-out fire after up to 60 s).
 */
import type { IncomingMessage } from "node:http";

interface Watched {
  readonly req: IncomingMessage;
  readonly onStall: () => void;
  /** Socket bytes read when progress was last seen. */
  seen: number;
  /** When progress was last seen (performance.now()). */
  at: number;
}

/** Checks per time-out: the resolution of the stall time. */
const TICKS = 10;

class ProgressSweep {
  private readonly watched = new Set<Watched>();
  private timer?: NodeJS.Timeout;

  constructor(private readonly idleMs: number) {}

  add(req: IncomingMessage, onStall: () => void): () => void {
    const entry: Watched = { req, onStall, seen: req.socket?.bytesRead ?? 0, at: performance.now() };
    this.watched.add(entry);
    // Unref'd: a pending check never keeps the process alive.
    this.timer ??= setInterval(() => this.check(), this.idleMs / TICKS).unref();
    return () => this.watched.delete(entry);
  }

  private check(): void {
    if (this.watched.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    const now = performance.now();
    for (const entry of this.watched) {
      if (entry.req.complete) continue;
      const bytes = entry.req.socket?.bytesRead ?? 0;
      if (bytes !== entry.seen) {
        entry.seen = bytes;
        entry.at = now;
      } else if (now - entry.at >= this.idleMs) {
        this.watched.delete(entry);
        entry.onStall();
      }
    }
  }
}

const sweeps = new Map<number, ProgressSweep>();

/** Calls `onStall` when `req` is incomplete and has received nothing for `idleMs`; returns the stop. */
export function watchBodyProgress(req: IncomingMessage, idleMs: number, onStall: () => void): () => void {
  let sweep = sweeps.get(idleMs);
  if (!sweep) sweeps.set(idleMs, (sweep = new ProgressSweep(idleMs)));
  return sweep.add(req, onStall);
}
