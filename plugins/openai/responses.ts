/**
 * @module The Responses endpoint: `POST /v1/responses` and `POST /responses`. `model` names the
 * pipeline, whose `runResponse(model, input, body, ctx)` runs through the kernel's `run` hook with
 * the input normalised to an item list (and the `input_file`s it refers to as `ctx.files`).
 * Without `stream` the answer is one Response object; with it, named SSE events (see
 * responses-stream.ts), each yielded item passing through the kernel's `stream` hook. Errors before the first byte are HTTP errors (404, 501, 500); a failure after it
 * is a `response.failed` event and the stream ends normally. A client that goes away aborts the run.
 */
import * as v from "valibot";
import { HttpError, SHUTDOWN_MESSAGE, pipelineFailure, type Invocation, type PluginApi, type RequestContext } from "svc/plugin";
import { pipelineForModel } from "./pipeline-lookup.js";
import { takesUploads } from "./file-upload-handlers.js";
import { resolveFiles, responseFileRefs } from "./file-parts.js";
import type { FileStore } from "./file-store.js";
import { fileStoreOf } from "./files.js";
import { isResponseObject, newResponseBase } from "./response-object.js";
import { normalizeResponseInput } from "./response-input.js";
import { ResponseState, type ResponseEvent } from "./responses-stream.js";
import type { openaiSettings } from "./settings.js";

const nullable = <T extends v.GenericSchema>(schema: T, description: string) => v.optional(v.pipe(v.nullable(schema), v.description(description)));

const InputItem = v.looseObject({
  type: v.optional(v.pipe(v.nullable(v.string()), v.description("`message` (the default), `function_call`, `function_call_output`, …"))),
  role: v.optional(v.pipe(v.nullable(v.string()), v.description("`user`, `assistant`, `system` or `developer`"))),
  content: v.optional(v.pipe(v.unknown(), v.description("A string, or parts such as `{type: \"input_text\", text}` and `{type: \"input_file\", file_id}`"))),
});

/** The request; keys beyond these are accepted and reach the wrapper in `body`. */
export const ResponsesRequest = v.looseObject({
  model: v.pipe(v.string(), v.description("The deployed pipeline to run")),
  input: nullable(v.union([v.string(), v.array(InputItem)]), "A user message, or a list of input items"),
  instructions: nullable(v.string(), "System instructions, passed to the wrapper in body"),
  stream: nullable(v.boolean(), "Answer with named server-sent events"),
  tools: nullable(v.array(v.unknown()), "Tools the model may call"),
  tool_choice: v.optional(v.unknown()),
  temperature: nullable(v.number(), "Sampling temperature"),
  top_p: nullable(v.number(), "Nucleus sampling"),
  max_output_tokens: nullable(v.number(), "Output token limit"),
  previous_response_id: nullable(v.string(), "The response this one continues"),
  metadata: v.optional(v.unknown()),
});

const ResponseObject = v.looseObject({
  id: v.string(),
  object: v.literal("response"),
  created_at: v.number(),
  status: v.string(),
  model: v.string(),
  output: v.array(v.looseObject({ id: v.string(), type: v.string() })),
  usage: v.nullable(v.looseObject({ input_tokens: v.number(), output_tokens: v.number(), total_tokens: v.number() })),
  error: v.nullable(v.looseObject({ message: v.string(), type: v.string() })),
  incomplete_details: v.nullable(v.unknown()),
});

export function registerResponseRoutes(kernel: PluginApi<typeof openaiSettings>, fileStore: () => FileStore = fileStoreOf(kernel)): void {
  // SERVICE_OPENAI_UI_EVENTS=false drops UI events for plain OpenAI clients (unset when the routes
  // are mounted without the plugin's settings: events on).
  const uiEvents = kernel.settings.openaiUiEvents !== false;
  const handler = async (c: RequestContext): Promise<void> => {
    const body = (await c.json(ResponsesRequest)) as v.InferOutput<typeof ResponsesRequest> & Record<string, unknown>;
    const pipeline = pipelineForModel(kernel, c, body.model, "runResponse", body.stream === true);
    const input = normalizeResponseInput(body.input);
    const files = await resolveFiles(responseFileRefs(input), fileStore, kernel.settings.filesMaxFileBytes, takesUploads(pipeline), c.state.principal);
    const args = [body.model, input, body];
    const events = body.stream ? uiEvents : false;
    const invocation = await kernel.invoke({ pipeline, method: "runResponse", transport: "openai", input: body, args, files, events, request: c });
    try {
      // The client left while the wrapper worked: answer nothing (closing below stops what it returned).
      if (c.signal.aborted) return;
      if (body.stream) await streamResponse(c, invocation, new ResponseState(newResponseBase(body.model), { uiEvents }));
      else await answerResponse(c, invocation, body.model);
    } finally {
      invocation.close();
    }
  };
  const tags = ["openai"];
  const description = "Runs the pipeline's runResponse. With stream: true the answer is named server-sent events (response.created … response.completed).";
  for (const [path, operationId] of [
    ["/v1/responses", "create_response"],
    ["/responses", "create_response_unversioned"],
  ] as const) {
    kernel.route("POST", path, handler, {
      scope: "run",
      docs: { operationId, summary: "Create a model response (OpenAI Responses API)", description, tags, body: ResponsesRequest, response: ResponseObject },
    });
  }
}

const KIND = "response.event";

/** Non-streaming: a Response object as is, else the text (a drained stream's too) as one. */
async function answerResponse(c: RequestContext, invocation: Invocation, model: string): Promise<void> {
  const result = invocation.result;
  if (isResponseObject(result)) return c.send(200, result);
  const state = new ResponseState(newResponseBase(model));
  if (invocation.source) {
    try {
      for await (const item of invocation.stream(KIND)) {
        state.push(item);
        if (state.final) return c.send(200, state.final);
      }
    } catch (error) {
      throw pipelineFailure(error);
    }
    if (c.signal.aborted) return;
  } else {
    state.push(result);
  }
  state.close();
  state.ensureOutput();
  c.send(200, state.body());
}

/** Streaming: created, in_progress, the items' events, then completed (or failed). */
async function streamResponse(c: RequestContext, invocation: Invocation, state: ResponseState): Promise<void> {
  const items = invocation.stream(KIND, invocation.source?.items ?? [invocation.result]);
  const writer = c.sse();
  const send = async (events: ResponseEvent[]) => {
    for (const e of events) await writer.send({ event: e.event, data: e.data });
  };
  try {
    await send(state.start());
    for await (const item of items) {
      await send(state.push(item));
      if (state.done) break;
    }
    if (c.shutdown) await send(state.fail(new HttpError(503, SHUTDOWN_MESSAGE)));
    else if (!state.done && !c.signal.aborted) await send(state.complete());
  } catch (error) {
    // After the client left nobody reads the failure; otherwise it ends the stream as an event.
    if (c.signal.aborted) return;
    c.log.error("Pipeline execution failed mid-stream (answered with response.failed)", error, { pipeline: invocation.pipeline.name });
    await send(state.fail(error));
  } finally {
    writer.end();
  }
}
