/**
 * @module The Responses endpoint: `POST /v1/responses` and `POST /responses`. `model` names the
 * pipeline, whose `runResponse(model, input, body, ctx)` runs through the kernel's `run` hook with
 * the input normalised to an item list (and the `input_file`s it refers to as `ctx.files`).
 * Without `stream` the answer is one Response object; with it, named SSE events (see
 * responses-stream.ts), each yielded item passing through the kernel's `stream` hook and each
 * event numbered (`sequence_number` from 0). Errors before the first byte are HTTP errors (404,
 * 501, 500); a failure after it is a `response.failed` event and the stream ends normally. A
 * client that goes away aborts the run.
 *
 * With svc:runs (its RUN_STORE), responses are stored (`store`, default true) for retrieve and
 * `previous_response_id` (whose conversation the wrapper then gets before the new input), and
 * `background: true` runs detached from the request (background-responses.ts). Without it,
 * `store` changes nothing and `background` or `previous_response_id` are refused.
 */
import * as v from "valibot";
import { HttpError, SHUTDOWN_MESSAGE, pipelineFailure, type Invocation, type PluginApi, type Principal, type RequestContext } from "svc/plugin";
import type { RunRecord, RunStore } from "svc/runs";
import { pipelineForModel } from "./pipeline-lookup.js";
import { takesUploads } from "./file-upload-handlers.js";
import { resolveFiles, responseFileRefs } from "./file-parts.js";
import type { FileStore } from "./file-store.js";
import { fileStoreOf } from "./files.js";
import { BackgroundResponses } from "./background-responses.js";
import { isResponseObject, newResponseBase, responseError, type Json, type ResponseError, type ResponseStatus } from "./response-object.js";
import { normalizeResponseInput } from "./response-input.js";
import { relayResponse } from "./response-relay.js";
import { ResponseObject, ResponsesRequest } from "./response-schemas.js";
import { ResponseState, type ResponseEvent } from "./responses-stream.js";
import type { openaiSettings } from "./settings.js";
import { registerStoredResponseRoutes } from "./stored-response-routes.js";
import { RESPONSE_KIND, baseOf, conversationBefore, responseOfRun, storedFinal, storedItems } from "./stored-responses.js";

/** What a response answered in the request ended with (to store it). */
interface Outcome {
  readonly status: "completed" | "failed" | "cancelled";
  readonly response: Json;
  readonly error?: ResponseError;
}

/**
 * Registers `POST /v1/responses` (and the stored responses' routes). `store` is svc:runs' run
 * store when loaded; it returns the background runner, for the plugin to close at shutdown.
 */
export function registerResponseRoutes(
  kernel: PluginApi<typeof openaiSettings>,
  fileStore: () => FileStore = fileStoreOf(kernel),
  store?: RunStore,
): BackgroundResponses | undefined {
  // SERVICE_OPENAI_UI_EVENTS=false drops UI events for plain OpenAI clients (unset when the routes
  // are mounted without the plugin's settings: events on).
  const uiEvents = kernel.settings.openaiUiEvents !== false;
  const background = store ? new BackgroundResponses(kernel, store, kernel.log, uiEvents) : undefined;
  const handler = async (c: RequestContext): Promise<void> => {
    const body = (await c.json(ResponsesRequest)) as v.InferOutput<typeof ResponsesRequest> & Record<string, unknown>;
    const pipeline = pipelineForModel(kernel, c, body.model, "runResponse", body.stream === true);
    const stored = store !== undefined && body.store !== false;
    if (body.background === true && !stored) {
      throw new HttpError(400, store ? "background: true needs store: true (a background response is kept in the run store)." : "background: true needs the run store: load the plugin svc:runs.");
    }
    const own = normalizeResponseInput(body.input);
    const principal = c.state.principal;
    const earlier = body.previous_response_id ? await conversationBefore(store, body.previous_response_id, principal) : [];
    const input = [...earlier, ...own];
    const files = await resolveFiles(responseFileRefs(input), fileStore, kernel.settings.filesMaxFileBytes, takesUploads(pipeline), principal);
    const args = [body.model, input, body];
    if (!stored) {
      await answer(c, await invoke(), new ResponseState(newResponseBase(body.model), { uiEvents }), false);
      return;
    }
    const run = await store.create({
      pipeline: pipeline.name,
      kind: RESPONSE_KIND,
      owner: ownerOf(principal),
      input: { body, items: storedItems(own) },
      metadata: { background: body.background === true, previous_response_id: body.previous_response_id ?? null },
    });
    if (body.background) {
      background!.start(run, { pipeline, args, body, files, headers: c.req.headers });
      if (body.stream) await relayResponse(c, store, run.id, -1);
      else c.send(200, responseOfRun(run));
      return;
    }
    await inForeground(store, run, async () => answer(c, await invoke(), new ResponseState(baseOf(run), { uiEvents }), true));

    function invoke(): Promise<Invocation> {
      const events = body.stream ? uiEvents : false;
      return kernel.invoke({ pipeline, method: "runResponse", transport: "openai", input: body, args, files, events, request: c });
    }
    async function answer(c: RequestContext, invocation: Invocation, state: ResponseState, stored: boolean): Promise<Outcome | undefined> {
      try {
        // The client left while the wrapper worked: answer nothing (closing below stops what it returned).
        if (c.signal.aborted) return undefined;
        return body.stream ? await streamResponse(c, invocation, state, stored) : await answerResponse(c, invocation, state, stored);
      } finally {
        invocation.close();
      }
    }
  };
  const tags = ["openai"];
  const description =
    "Runs the pipeline's runResponse. With stream: true the answer is named server-sent events (response.created … response.completed), each with a sequence_number. With svc:runs: store (default true) keeps the response for retrieve and previous_response_id; background: true answers the queued response at once (with stream: true, its events, resumable with GET /v1/responses/{id}?stream=true&starting_after=N).";
  for (const [path, operationId] of [
    ["/v1/responses", "create_response"],
    ["/responses", "create_response_unversioned"],
  ] as const) {
    kernel.route("POST", path, handler, {
      scope: "run",
      docs: { operationId, summary: "Create a model response (OpenAI Responses API)", description, tags, body: ResponsesRequest, response: ResponseObject },
    });
  }
  registerStoredResponseRoutes(kernel, store);
  return background;
}

function ownerOf(principal: Principal | undefined): { id: string; name: string } | undefined {
  return principal ? { id: principal.id, name: principal.name } : undefined;
}

/** Why a foreground response ended without completing, as its run's error. */
const CLIENT_CLOSED = { code: "client_closed", message: "The client went away before the response finished." };

/**
 * A stored response answered in its request: `in_progress` while it runs, under a lease (an
 * instance that dies leaves it `failed`, not running forever), then its outcome recorded.
 */
async function inForeground(store: RunStore, run: RunRecord, answer: () => Promise<Outcome | undefined>): Promise<void> {
  await store.hold(run.id, () => undefined); // OpenAI cancels background responses only: the lease is all it is for
  try {
    await store.update(run.id, { status: "in_progress", started_at: new Date().toISOString() });
    let outcome: Outcome | undefined;
    try {
      outcome = await answer();
    } catch (error) {
      const message = pipelineFailure(error).message;
      const response = responseOfRun({ ...run, status: "failed", error: { code: "pipeline_failed", message } });
      await store.finish(run.id, "failed", { result: response, error: { code: "pipeline_failed", message } });
      throw error;
    }
    if (outcome?.status === "completed") await store.finish(run.id, "completed", { result: outcome.response });
    else if (outcome?.status === "failed") await store.finish(run.id, "failed", { result: outcome.response, error: { code: "pipeline_failed", message: outcome.error?.message ?? "" } });
    else await store.finish(run.id, "cancelled", { result: outcome?.response, error: CLIENT_CLOSED });
  } finally {
    await store.release(run.id).catch(() => undefined);
  }
}

const KIND = "response.event";

/** The final Response: a stored one under its own id and fields, else as the wrapper made it. */
const finalOf = (state: ResponseState, stored: boolean, status: ResponseStatus, error: ResponseError | null = null): Json =>
  stored ? storedFinal(state, status, error) : (state.final ?? state.body(status, error));

/** Non-streaming: a Response object as is, else the text (a drained stream's too) as one. */
async function answerResponse(c: RequestContext, invocation: Invocation, state: ResponseState, stored: boolean): Promise<Outcome | undefined> {
  const result = invocation.result;
  if (invocation.source && !isResponseObject(result)) {
    try {
      for await (const item of invocation.stream(KIND)) {
        state.push(item);
        if (state.final) break;
      }
    } catch (error) {
      throw pipelineFailure(error);
    }
    if (c.signal.aborted && !state.final) return undefined;
  } else {
    state.push(result);
  }
  if (!state.final) {
    state.close();
    state.ensureOutput();
  }
  const response = finalOf(state, stored, "completed");
  c.send(200, response);
  return { status: "completed", response };
}

/** Streaming: created, in_progress, the items' events, then completed (or failed); every event numbered. */
async function streamResponse(c: RequestContext, invocation: Invocation, state: ResponseState, stored: boolean): Promise<Outcome | undefined> {
  const items = invocation.stream(KIND, invocation.source?.items ?? [invocation.result]);
  const writer = c.sse();
  let sequence = 0;
  const send = async (events: ResponseEvent[]) => {
    for (const e of events) await writer.send({ event: e.event, data: { ...e.data, sequence_number: sequence++ } });
  };
  const failed = async (error: unknown): Promise<Outcome> => {
    await send(state.fail(error));
    const problem = responseError(error);
    return { status: "failed", response: finalOf(state, stored, "failed", problem), error: problem };
  };
  try {
    await send(state.start());
    for await (const item of items) {
      await send(state.push(item));
      if (state.done) break;
    }
    if (c.shutdown) return await failed(new HttpError(503, SHUTDOWN_MESSAGE));
    if (c.signal.aborted && !state.done) return { status: "cancelled", response: finalOf(state, stored, "cancelled") };
    if (!state.done) await send(state.complete());
    return { status: "completed", response: finalOf(state, stored, "completed") };
  } catch (error) {
    // After the client left nobody reads the failure; otherwise it ends the stream as an event.
    if (c.signal.aborted) return { status: "cancelled", response: finalOf(state, stored, "cancelled") };
    c.log.error("Pipeline execution failed mid-stream (answered with response.failed)", error, { pipeline: invocation.pipeline.name });
    return await failed(error);
  } finally {
    writer.end();
  }
}
