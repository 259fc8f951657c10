/**
 * @module Watching request bodies for stalls: a body that receives nothing for the idle time-out
 * is given up. Every body being read with the same time-out is checked by one shared timer instead
 * of a timer of its own (setting and clearing a timer per request cost more than routing it). The
 * timer ticks ten times per time-out and each body remembers when it last saw progress, so a stall
 * is noticed between 1× and 1.1× the time-out after the last byte (checking once per time-out and
 * giving up at the second check without progress let a 30 s time-out fire after up to 60 s).
 */
import type { IncomingMessage } from "node:http";
import { LiveList, type LiveLinks } from "./live-list.js";

class Watched implements LiveLinks<Watched> {
  livePrev: Watched | undefined = undefined;
  liveNext: Watched | undefined = undefined;
  listed = false;
  /** Socket bytes read when progress was last seen. */
  seen: number;
  /** When progress was last seen (performance.now()). */
  at = performance.now();

  constructor(
    readonly req: IncomingMessage,
    readonly onStall: () => void,
  ) {
    this.seen = req.socket?.bytesRead ?? 0;
  }
}

/** Checks per time-out: the resolution of the stall time. */
const TICKS = 10;

class ProgressSweep {
  private readonly watched = new LiveList<Watched>();
  private timer?: NodeJS.Timeout;

  constructor(readonly idleMs: number) {}

  add(req: IncomingMessage, onStall: () => void): () => void {
    const entry = new Watched(req, onStall);
    this.watched.add(entry);
    // Unref'd: a pending check never keeps the process alive.
    this.timer ??= setInterval(() => this.check(), this.idleMs / TICKS).unref();
    return () => void this.watched.delete(entry);
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
/** The sweep used last: a server has one time-out, so this spares a map lookup per request. */
let last: ProgressSweep | undefined;

/** Calls `onStall` when `req` is incomplete and has received nothing for `idleMs`; returns the stop. */
export function watchBodyProgress(req: IncomingMessage, idleMs: number, onStall: () => void): () => void {
  if (last?.idleMs !== idleMs) {
    last = sweeps.get(idleMs);
    if (!last) sweeps.set(idleMs, (last = new ProgressSweep(idleMs)));
  }
  return last.add(req, onStall);
}
