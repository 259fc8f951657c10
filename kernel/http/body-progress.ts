/**
 * @module Watching request bodies for stalls: a body that receives nothing for the idle time-out
 * is given up. Every body being read with the same time-out is checked by one shared timer instead
 * of a timer of its own (setting and clearing a timer per request cost more than routing it). The
 * timer ticks ten times per time-out and each body remembers when it last saw progress, so a stall
 * is noticed between 1× and 1.1× the time-out after the last byte (checking once per time-out and
 * giving up at the second check without progress let a 30 s time-out fire after up to 60 s).
 */
import { performance } from "node:perf_hooks";
import type { IncomingMessage } from "node:http";
import { LiveList, type LiveLinks } from "./live-list.js";

/** Told when a watched body stalls. */
export interface StallListener {
  stalled(): void;
}

/** A body being watched: `stop` once it ended or was given up. */
export interface BodyWatch {
  stop(): void;
}

class Watched implements LiveLinks<Watched>, BodyWatch {
  livePrev: Watched | undefined = undefined;
  liveNext: Watched | undefined = undefined;
  listed = false;
  /** Socket bytes read when progress was last seen. */
  seen: number;
  /** When progress was last seen (performance.now()). */
  at = performance.now();

  constructor(
    readonly req: IncomingMessage,
    readonly listener: StallListener,
    private readonly sweep: ProgressSweep,
  ) {
    this.seen = req.socket?.bytesRead ?? 0;
  }

  stop(): void {
    this.sweep.remove(this);
  }
}

/** Checks per time-out: the resolution of the stall time. */
const TICKS = 10;

class ProgressSweep {
  private readonly watched = new LiveList<Watched>();
  private timer?: NodeJS.Timeout;

  constructor(readonly idleMs: number) {}

  add(req: IncomingMessage, listener: StallListener): BodyWatch {
    const entry = new Watched(req, listener, this);
    this.watched.add(entry);
    // Unref'd: a pending check never keeps the process alive.
    this.timer ??= setInterval(() => this.check(), this.idleMs / TICKS).unref();
    return entry;
  }

  remove(entry: Watched): void {
    this.watched.delete(entry);
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
        entry.listener.stalled();
      }
    }
  }
}

const sweeps = new Map<number, ProgressSweep>();
/** The sweep used last: a server has one time-out, so this spares a map lookup per request. */
let last: ProgressSweep | undefined;

/** Tells `listener` when `req` is incomplete and has received nothing for `idleMs`. */
export function watchBodyProgress(req: IncomingMessage, idleMs: number, listener: StallListener): BodyWatch {
  if (last?.idleMs !== idleMs) {
    last = sweeps.get(idleMs);
    if (!last) sweeps.set(idleMs, (last = new ProgressSweep(idleMs)));
  }
  return last.add(req, listener);
}
