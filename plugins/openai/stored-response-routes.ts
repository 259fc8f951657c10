/**
 * @module The routes of stored responses, as OpenAI serves them: `GET /v1/responses/{id}`
 * (retrieve; with `?stream=true&starting_after=N` a background response's events, replayed then
 * followed live), `POST /v1/responses/{id}/cancel` (background responses only), `DELETE
 * /v1/responses/{id}` and `GET /v1/responses/{id}/input_items` (a cursor page: `after`, `limit`,
 * `order`). Any instance sharing the run store answers; with svc:auth a key sees only its own
 * responses (an admin key all), another key's being a 404 as an unknown one.
 */
import { HttpError, parseOr400, type PluginApi, type RequestContext } from "svc/plugin";
import { followRun, isFinal, type RunRecord, type RunStore } from "svc/runs";
import { relayResponse } from "./response-relay.js";
import { DeletedResponse, InputItemList, InputItemsQuery, ResponseObject, RetrieveQuery } from "./response-schemas.js";
import { inputOf, metadataOf, responseOfRun, visibleResponse } from "./stored-responses.js";

/** How long cancel (and delete of a running response) waits for the run to stop before answering. */
const CANCEL_WAIT_MS = 5000;
const DEFAULT_ITEMS = 20;

export function registerStoredResponseRoutes(kernel: PluginApi, store: RunStore | undefined): void {
  const tags = ["openai"];
  const visible = (c: RequestContext) => visibleResponse(store, c.params.id!, c.state.principal);

  const retrieve = async (c: RequestContext) => {
    const query = parseOr400(RetrieveQuery, c.query, "Invalid query parameters");
    const run = await visible(c);
    if (!query.stream) return responseOfRun(run);
    if (!metadataOf(run).background) throw new HttpError(400, `Response '${c.params.id}' was not created with background: true: only background responses can be streamed again.`);
    const after = query.starting_after ?? -1;
    if (isFinal(run.status) && after >= 0 && (await store!.events(run.id, after + 1)).length === 0) {
      throw new HttpError(400, `starting_after ${after} is at or beyond the last event of response '${c.params.id}', which has ended. (param: starting_after)`);
    }
    await relayResponse(c, store!, run.id, after);
  };

  const cancel = async (c: RequestContext) => {
    const run = await visible(c);
    if (!metadataOf(run).background) throw new HttpError(400, `Response '${c.params.id}' was not created with background: true: only background responses can be cancelled.`);
    if (isFinal(run.status)) throw new HttpError(400, `Cannot cancel a ${run.status} response.`);
    await store!.cancel(run.id);
    return responseOfRun(await untilFinal(store!, run.id, c.signal));
  };

  const remove = async (c: RequestContext) => {
    const run = await visible(c);
    if (!isFinal(run.status)) {
      // Stop it first, so its runner writes nothing after the deletion.
      await store!.cancel(run.id);
      await untilFinal(store!, run.id, c.signal);
    }
    await store!.delete(run.id);
    return { id: c.params.id!, object: "response.deleted", deleted: true };
  };

  const inputItems = async (c: RequestContext) => {
    const query = parseOr400(InputItemsQuery, c.query, "Invalid query parameters");
    const items = inputOf(await visible(c)).items;
    const ordered = query.order === "asc" ? items : [...items].reverse();
    let start = 0;
    if (query.after !== undefined) {
      const at = ordered.findIndex((item) => item.id === query.after);
      if (at < 0) throw new HttpError(400, `Invalid query parameters: after: no input item '${query.after.slice(0, 80)}' in this response`);
      start = at + 1;
    }
    const page = ordered.slice(start, start + (query.limit ?? DEFAULT_ITEMS));
    const id = (i: number) => (page.length ? (page.at(i)!.id as string) : null);
    return { object: "list", data: page, first_id: id(0), last_id: id(-1), has_more: start + page.length < ordered.length };
  };

  for (const prefix of ["/v1/responses", "/responses"]) {
    const suffix = prefix === "/responses" ? "_unversioned" : "";
    kernel.route("GET", `${prefix}/:id`, retrieve, {
      scope: "run",
      lasting: true,
      docs: {
        operationId: `get_response${suffix}`,
        summary: "Retrieve a stored response (OpenAI Responses API)",
        description:
          "The Response object. With stream=true (background responses): its events as server-sent events, each with a sequence_number, replayed after starting_after and then followed live until the response ends.",
        tags,
        response: ResponseObject,
      },
    });
    kernel.route("POST", `${prefix}/:id/cancel`, cancel, {
      scope: "run",
      docs: {
        operationId: `cancel_response${suffix}`,
        summary: "Cancel a background response",
        description: `Aborts the wrapper's signal on whichever instance runs it; answers the Response once it is cancelled (or after ${CANCEL_WAIT_MS / 1000} s as it stands). A response that ended, or that was not created with background: true, is a 400.`,
        tags,
        response: ResponseObject,
      },
    });
    kernel.route("DELETE", `${prefix}/:id`, remove, {
      scope: "run",
      docs: { operationId: `delete_response${suffix}`, summary: "Delete a stored response (a running one is cancelled first)", tags, response: DeletedResponse },
    });
    kernel.route("GET", `${prefix}/:id/input_items`, inputItems, {
      scope: "run",
      docs: {
        operationId: `list_response_input_items${suffix}`,
        summary: "The input items of a stored response",
        description: `Its own input (not the earlier turns of previous_response_id), each item with an id. order: desc (default) or asc; limit ${DEFAULT_ITEMS} by default, 1 to 100; after: the last id of the previous page.`,
        tags,
        response: InputItemList,
      },
    });
  }
}

/** The run once final, or as it is after CANCEL_WAIT_MS. */
async function untilFinal(store: RunStore, id: string, signal: AbortSignal): Promise<RunRecord> {
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(CANCEL_WAIT_MS)]);
  for await (const _ of followRun(store, id, Number.MAX_SAFE_INTEGER, deadline, 200)) break;
  const run = await store.get(id);
  if (!run) throw new HttpError(404, `Response '${id}' not found.`);
  return run;
}
