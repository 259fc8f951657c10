/**
 * @module Watching request bodies for stalls: a body that receives nothing for the idle time-out
 * is given up. Every body being read with the same time-out is checked by one shared timer, every
 * `idleMs`, instead of a timer of its own: setting and clearing a timer per request cost more than
 * routing it. A body is given up at the second check that finds it without progress, so between
 * `idleMs` and twice that after its last byte (as a timer re-armed on progress would).
 */
import type { IncomingMessage } from "node:http";

interface Watched {
  readonly req: IncomingMessage;
  readonly onStall: () => void;
  /** Socket bytes read at the last check (undefined before the first). */
  seen?: number;
}

class ProgressSweep {
  private readonly watched = new Set<Watched>();
  private timer?: NodeJS.Timeout;

  constructor(private readonly idleMs: number) {}

  add(req: IncomingMessage, onStall: () => void): () => void {
    const entry: Watched = { req, onStall };
    this.watched.add(entry);
    // Unref'd: a pending check never keeps the process alive.
    this.timer ??= setInterval(() => this.check(), this.idleMs).unref();
    return () => this.watched.delete(entry);
  }

  private check(): void {
    if (this.watched.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    for (const entry of this.watched) {
      if (entry.req.complete) continue;
      const now = entry.req.socket?.bytesRead ?? 0;
      if (entry.seen === now) {
        this.watched.delete(entry);
        entry.onStall();
      } else entry.seen = now;
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
