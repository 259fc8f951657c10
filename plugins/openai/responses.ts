/**
 * @module The Responses endpoint: `POST /v1/responses` and `POST /responses`. `model` names the
 * pipeline, whose `runResponse(model, input, body, ctx)` runs through the kernel's `run` hook with
 * the input normalised to an item list (and the `input_file`s it refers to as `ctx.files`).
 * Without `stream` the answer is one Response object; with it, named SSE events (see
 * responses-stream.ts), each yielded item passing through the kernel's `stream` hook. Errors before the first byte are HTTP errors (404, 501, 500); a failure after it
 * is a `response.failed` event and the stream ends normally. A client that goes away aborts the run.
 */
import * as v from "valibot";
import { HttpError, REGISTRY, SHUTDOWN_MESSAGE, chunkSource, isStreamable, untilAborted, type PluginApi, type RequestContext, type StreamInfo } from "svc";
import { resolveFiles, responseFileRefs } from "./file-parts.js";
import type { FileStore } from "./file-store.js";
import { fileStoreOf } from "./files.js";
import { invoke, pipelineFailure, pipelineFor } from "./invoke.js";
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
  const registry = kernel.resolve(REGISTRY);
  // SERVICE_OPENAI_UI_EVENTS=false drops UI events for plain OpenAI clients (read loosely: the
  // setting belongs to the chat side of this plugin).
  const uiEvents = (kernel.settings as unknown as Record<string, unknown>).openaiUiEvents !== false;
  const handler = async (c: RequestContext): Promise<void> => {
    const body = (await c.json(ResponsesRequest)) as v.InferOutput<typeof ResponsesRequest> & Record<string, unknown>;
    const pipeline = pipelineFor(registry, body.model, "runResponse");
    const input = normalizeResponseInput(body.input);
    const files = await resolveFiles(responseFileRefs(input), fileStore, kernel.settings.filesMaxFileBytes);
    const result = await invoke(kernel, c, pipeline, "runResponse", body, [body.model, input, body], files);
    const info: StreamInfo = { pipeline: pipeline.name, transport: "openai", kind: "response.event", requestId: c.id };
    if (c.signal.aborted) {
      // The client left while the wrapper worked: close what it returned and answer nothing.
      if (isStreamable(result)) void closeIterable(result);
      return;
    }
    if (body.stream) await streamResponse(kernel, c, info, new ResponseState(newResponseBase(body.model), { uiEvents }), result, uiEvents);
    else await answerResponse(kernel, c, info, body.model, result);
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

/** Non-streaming: a Response object as is, else the text (a drained stream's too) as one. */
async function answerResponse(kernel: PluginApi, c: RequestContext, info: StreamInfo, model: string, result: unknown): Promise<void> {
  if (isResponseObject(result)) return c.send(200, result);
  const state = new ResponseState(newResponseBase(model));
  const source = chunkSource(result);
  if (source) {
    try {
      for await (const item of untilAborted(kernel.stream(info, source), c.signal)) {
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
async function streamResponse(kernel: PluginApi, c: RequestContext, info: StreamInfo, state: ResponseState, result: unknown, uiEvents: boolean): Promise<void> {
  const source = chunkSource(result, { events: uiEvents }) ?? [result];
  const writer = c.sse();
  const send = async (events: ResponseEvent[]) => {
    for (const e of events) await writer.send({ event: e.event, data: e.data });
  };
  try {
    await send(state.start());
    for await (const item of untilAborted(kernel.stream(info, source), c.signal)) {
      await send(state.push(item));
      if (state.done) break;
    }
    if (c.shutdown) await send(state.fail(new HttpError(503, SHUTDOWN_MESSAGE)));
    else if (!state.done && !c.signal.aborted) await send(state.complete());
  } catch (error) {
    // After the client left nobody reads the failure; otherwise it ends the stream as an event.
    if (c.signal.aborted) return;
    c.log.error("Pipeline execution failed mid-stream (answered with response.failed)", error, { pipeline: info.pipeline });
    await send(state.fail(error));
  } finally {
    writer.end();
  }
}

async function closeIterable(value: AsyncIterable<unknown> | Iterable<unknown>): Promise<void> {
  try {
    const iterator = Symbol.asyncIterator in value ? value[Symbol.asyncIterator]() : (value as Iterable<unknown>)[Symbol.iterator]();
    await iterator.return?.();
  } catch {
    // closing is best effort
  }
}
