/**
 * @module Following a run's events: the logged ones after a given number, then the live ones as
 * they come, each exactly once and in order, until the run's terminal event. The subscription is
 * made before the log is read, so nothing appended in between is lost. A run that became final
 * without a terminal event reaching us (a lost message) is noticed by a status check every
 * `checkMs`, so a follower never waits forever.
 */
import type { RunStore } from "./run-store.js";
import { isFinal, isFinalEvent, type RunEvent } from "./run-record.js";

export async function* followRun(store: RunStore, id: string, after: number, signal: AbortSignal, checkMs = 2000): AsyncGenerator<RunEvent> {
  const live: RunEvent[] = [];
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const unsubscribe = await store.subscribe(id, (message) => {
    if (message.type !== "event") return;
    live.push(message.event);
    notify();
  });
  signal.addEventListener("abort", notify);
  let last = after;
  try {
    for (const event of await store.events(id, after)) {
      last = event.seq;
      yield event;
      if (isFinalEvent(event)) return;
    }
    while (!signal.aborted) {
      while (live.length > 0) {
        const event = live.shift()!;
        if (event.seq <= last) continue;
        // A gap (a message lost while reconnecting): read it from the log.
        const missed = event.seq > last + 1 ? (await store.events(id, last)).filter((e) => e.seq < event.seq) : [];
        for (const e of [...missed, event]) {
          last = e.seq;
          yield e;
          if (isFinalEvent(e)) return;
        }
      }
      const timer = await new Promise<boolean>((resolve) => {
        const t = setTimeout(() => resolve(true), checkMs);
        wake = () => {
          clearTimeout(t);
          resolve(false);
        };
        if (live.length > 0 || signal.aborted) notify();
      });
      if (!timer) continue;
      const run = await store.get(id);
      if (!run) return;
      if (!isFinal(run.status)) continue;
      for (const event of await store.events(id, last)) {
        last = event.seq;
        yield event;
      }
      return;
    }
  } finally {
    signal.removeEventListener("abort", notify);
    await unsubscribe().catch(() => undefined);
  }
}
