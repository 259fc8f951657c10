/**
 * @module A background response's stream, from its event log: the logged events after a given
 * `sequence_number`, then the live ones (from whichever instance runs it), as OpenAI's named SSE
 * events. An event's `sequence_number` is its number in the run's log less one, so the first
 * (`response.created`) is 0, as OpenAI numbers them. The stream ends with the terminal event made
 * from the final record: `response.completed`, `response.failed`, `response.incomplete`, or
 * `response.cancelled` (OpenAI's stream has no event for a cancel; svc uses the name of OpenAI's
 * webhook event for it, with the Response whose `status` is `cancelled`).
 */
import type { RequestContext } from "svc/plugin";
import { followRun, isFinalEvent, type RunStore } from "svc/runs";
import type { Json } from "./response-object.js";
import { responseOfRun } from "./stored-responses.js";

/** Relays run `id`'s events with `sequence_number > startingAfter` (−1: all) until it ends or the client leaves. */
export async function relayResponse(c: RequestContext, store: RunStore, id: string, startingAfter: number): Promise<void> {
  const writer = c.sse();
  try {
    for await (const event of followRun(store, id, startingAfter + 1, c.signal)) {
      const sequence_number = event.seq - 1;
      if (isFinalEvent(event)) {
        const run = await store.get(id);
        if (!run) break; // deleted meanwhile
        const response = responseOfRun(run);
        const type = `response.${run.status}`;
        await writer.send({ event: type, data: { type, sequence_number, response } });
        break;
      }
      if (event.type.startsWith("run.")) continue; // the store's own bookkeeping
      await writer.send({ event: event.type, data: { ...(event.data as Json), sequence_number } });
    }
  } finally {
    writer.end();
  }
}
