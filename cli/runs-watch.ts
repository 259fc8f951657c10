/**
 * @module `svc runs watch <id>`: follows `GET /runs/{id}/events` (Server-Sent Events), printing
 * the run's streamed output as it comes. A dropped connection is resumed with `Last-Event-ID` (the
 * last event received), so nothing is printed twice or lost; it gives up after
 * `MAX_RECONNECTS` attempts in a row without a new event. The exit code tells how the run ended:
 * 0 completed, 1 failed or incomplete, 2 cancelled.
 */
import type { IncomingMessage } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { CliError, ServerError, SvcClient, ensureOk } from "./client.js";
import { formatValue, print, success, warn } from "./output.js";
import { SseParser } from "./sse.js";

const MAX_RECONNECTS = 8;
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 4000;

/** What a run's terminal event carries. */
interface RunEnd {
  readonly status: string;
  readonly result: unknown;
  readonly error: { message?: string; code?: string } | null;
}

export interface WatchOptions {
  /** Print each event as one JSON line `{seq, type, data}` instead of the output. */
  readonly json?: boolean;
}

/** Follows the run to its end and reports it; a run that did not complete is a CliError with its exit code. */
export async function watchRun(client: SvcClient, id: string, options: WatchOptions = {}): Promise<void> {
  let last = 0;
  let printed = false;
  let lastChar = "\n";
  const write = (text: string) => {
    if (!text) return;
    process.stdout.write(text);
    printed = true;
    lastChar = text.at(-1)!;
  };
  const path = `/runs/${encodeURIComponent(id)}/events`;
  let failures = 0;
  for (;;) {
    let res: IncomingMessage | undefined;
    let end: RunEnd | undefined;
    let lost = "";
    try {
      res = await client.send("GET", path, undefined, last > 0 ? { "last-event-id": String(last) } : {});
      await ensureOk(res);
      const parser = new SseParser();
      const handle = (seq: number, type: string, data: unknown): RunEnd | undefined => {
        if (seq <= last) return undefined; // already seen (a replay after a resume)
        last = seq;
        failures = 0;
        if (options.json) process.stdout.write(`${JSON.stringify({ seq, type, data })}\n`);
        else if (type === "run.output") write(String((data as { text?: unknown } | null)?.text ?? ""));
        return isEnd(type) ? (data as RunEnd) : undefined;
      };
      res.setEncoding("utf8");
      for await (const chunk of res) {
        for (const event of parser.push(chunk as string)) {
          end = handle(Number(event.id), event.event, parseData(event.data));
          if (end) break;
        }
        if (end) break;
      }
      lost = "the stream ended before the run did";
    } catch (error) {
      res?.destroy();
      // An HTTP error that is not the server's passing trouble (an unknown run: 404) is final.
      if (error instanceof ServerError && error.status < 500) throw error;
      lost = (error as Error).message;
    }
    if (end) {
      res?.destroy();
      return finish(id, end, { printed, lastChar, json: options.json === true });
    }
    if (++failures > MAX_RECONNECTS) throw new CliError(`Lost the events of run ${id} (${lost}); gave up after ${MAX_RECONNECTS} reconnects`);
    if (lastChar !== "\n") {
      process.stdout.write("\n");
      lastChar = "\n";
    }
    warn(`Connection lost (${lost}); resuming after event ${last}…`);
    await sleep(Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (failures - 1)));
  }
}

const isEnd = (type: string): boolean => ["run.completed", "run.failed", "run.cancelled", "run.incomplete"].includes(type);

function parseData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/** The run's end as the user reads it, and its exit code. */
function finish(id: string, end: RunEnd, seen: { printed: boolean; lastChar: string; json: boolean }): void {
  if (seen.lastChar !== "\n") process.stdout.write("\n");
  if (end.status === "completed") {
    if (seen.json) return; // stdout is JSON lines only
    success(`Run ${id} completed`);
    if (!seen.printed && end.result !== null && end.result !== undefined) print(formatValue(end.result));
    return;
  }
  const why = end.error?.message ? `: ${end.error.message}` : "";
  if (end.status === "cancelled") throw new CliError(`Run ${id} was cancelled${why}`, 2);
  throw new CliError(`Run ${id} ${end.status === "failed" ? "failed" : `ended ${end.status}`}${why}`, 1);
}

