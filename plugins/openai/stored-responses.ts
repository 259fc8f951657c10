/**
 * @module Responses kept in the run store (svc:runs' RUN_STORE): a response is a run of kind
 * `responses` whose id is the run's (`resp_<hex>` ↔ `run_<hex>`), whose input holds the request and
 * its input items (each with an id, for `input_items`), and whose result is the final Response
 * object. Here: the id mapping, the Response object of any record (also one that ended without
 * a result: cancelled while queued, or failed because its instance died), the lookup a caller may
 * see (another key's response is a 404, as an unknown one), and the conversation a
 * `previous_response_id` continues.
 */
import { HttpError, newId, ownedBy, type Principal } from "svc/plugin";
import { isFinal, type RunRecord, type RunStore } from "svc/runs";
import { isObject, isResponseObject, responseBody, type Json, type ResponseBase, type ResponseError, type ResponseStatus } from "./response-object.js";
import type { ResponseState } from "./responses-stream.js";
import type { ResponseInputItem } from "./response-input.js";

export const RESPONSE_KIND = "responses";

/** What a stored response's run record keeps as `input`. */
export interface StoredInput {
  /** The request body as the client sent it. */
  readonly body: Json;
  /** Its input items, each with an `id` (`msg_…` when the client gave none). */
  readonly items: ResponseInputItem[];
}

/** What a stored response's run record keeps as `metadata`. */
export interface StoredMetadata {
  readonly background: boolean;
  readonly previous_response_id: string | null;
}

const HEX = /^resp_([0-9a-f]{28})$/;

export const responseIdOf = (runId: string): string => `resp_${runId.slice(4)}`;

/** The run id of a stored response's id; undefined for an id svc never gave out. */
export function runIdOf(responseId: string): string | undefined {
  const match = HEX.exec(responseId);
  return match ? `run_${match[1]}` : undefined;
}

/** The envelope of a stored response's objects and events: its id, creation time, model and stored fields. */
export function baseOf(run: RunRecord): ResponseBase {
  return { id: responseIdOf(run.id), created_at: Math.floor(Date.parse(run.created_at) / 1000), model: run.pipeline, extra: { ...metadataOf(run) } };
}

export const metadataOf = (run: RunRecord): StoredMetadata => ({
  background: run.metadata.background === true,
  previous_response_id: typeof run.metadata.previous_response_id === "string" ? run.metadata.previous_response_id : null,
});

export const inputOf = (run: RunRecord): StoredInput => {
  const input = isObject(run.input) ? run.input : {};
  return { body: isObject(input.body) ? input.body : {}, items: Array.isArray(input.items) ? (input.items as ResponseInputItem[]) : [] };
};

/** The Response object of a record: its result once it ended with one, else built from its status. */
export function responseOfRun(run: RunRecord): Json {
  if (isResponseObject(run.result)) return run.result;
  const error = run.error && run.status !== "cancelled" ? { code: "server_error", message: run.error.message } : null;
  return responseBody(baseOf(run), run.status as ResponseStatus, [], null, error);
}

/** The input items as stored: each with an id, a string content as one `input_text` part (as OpenAI lists them). */
export function storedItems(items: readonly ResponseInputItem[]): ResponseInputItem[] {
  return items.map((item) => {
    if (typeof item.id === "string" && item.id) return item;
    const isMessage = item.type === undefined || item.type === null || item.type === "message";
    if (!isMessage) return { id: newId(`${String(item.type).slice(0, 2)}_`), ...item };
    const content = typeof item.content === "string" ? [{ type: "input_text", text: item.content }] : item.content;
    return { id: newId("msg_"), type: "message", ...item, content };
  });
}

/** The stored response `id` the caller may see, or the 404 (unknown, deleted, another key's, or not stored). */
export async function visibleResponse(store: RunStore | undefined, id: string, principal: Principal | undefined, param?: string): Promise<RunRecord> {
  const runId = runIdOf(id);
  const run = store && runId ? await store.get(runId) : undefined;
  if (run && run.kind === RESPONSE_KIND && ownedBy(run.owner_id ?? undefined, principal)) return run;
  const what = param === "previous_response_id" ? "Previous response" : "Response";
  const why = store ? "" : " (responses are stored only with the plugin svc:runs)";
  throw new HttpError(404, `${what} with id '${id.slice(0, 80)}' not found${why}.${param ? ` (param: ${param})` : ""}`);
}

/** The longest chain of previous responses followed (ids grow with time, so a chain has no cycle). */
const MAX_CHAIN = 1000;

/**
 * The conversation before a new response: for each response of the chain, oldest first, its
 * input items then its output items. The previous response must have ended.
 */
export async function conversationBefore(store: RunStore | undefined, previousId: string, principal: Principal | undefined): Promise<ResponseInputItem[]> {
  let run: RunRecord | undefined = await visibleResponse(store, previousId, principal, "previous_response_id");
  if (!isFinal(run.status)) throw new HttpError(400, `Previous response '${previousId}' has not finished yet (status ${run.status}). (param: previous_response_id)`);
  const turns: ResponseInputItem[][] = [];
  for (let depth = 0; run && depth < MAX_CHAIN; depth++) {
    const output = isResponseObject(run.result) ? (run.result.output as ResponseInputItem[]) : [];
    turns.push([...inputOf(run).items, ...output]);
    const previous: string | null = metadataOf(run).previous_response_id;
    const runId: string | undefined = previous ? runIdOf(previous) : undefined;
    run = runId ? await store!.get(runId) : undefined;
  }
  return turns.reverse().flat();
}

/**
 * The Response object a run ends with: the state's (its output so far, with `status`), or the
 * whole Response a wrapper yielded, under the stored response's id and fields.
 */
export function storedFinal(state: ResponseState, status: ResponseStatus, error: ResponseError | null = null): Json {
  if (!state.final) return state.body(status, error);
  const { base } = state;
  return { ...state.final, id: base.id, ...base.extra, ...(status === "completed" ? {} : { status }) };
}
