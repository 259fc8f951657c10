/**
 * @module Request and response schemas of the chat completion and models endpoints (validation
 * and OpenAPI). Requests are loose: clients such as Open WebUI send extra keys (`chat_id`,
 * `features`, `background_tasks`, …), which reach the wrapper in `body`.
 */
import * as v from "valibot";

export const ChatCompletionRequest = v.looseObject({
  model: v.pipe(v.string(), v.description("The pipeline to run (a deployed pipeline's name).")),
  messages: v.pipe(
    v.array(
      v.looseObject({
        role: v.optional(v.pipe(v.string(), v.description("user, assistant, system, tool, …"))),
        content: v.optional(v.pipe(v.unknown(), v.description("A string or a list of content parts."))),
      }),
    ),
    v.description("The conversation, passed to the wrapper untouched."),
  ),
  stream: v.optional(v.pipe(v.boolean(), v.description("Answer with `chat.completion.chunk` Server-Sent Events ending `data: [DONE]`."))),
});

export type ChatCompletionRequest = v.InferOutput<typeof ChatCompletionRequest>;

const usage = v.object({ prompt_tokens: v.number(), completion_tokens: v.number(), total_tokens: v.number() });

export const ChatCompletionResponse = v.pipe(
  v.object({
    id: v.pipe(v.string(), v.description("`<model>-<uuid>`")),
    object: v.literal("chat.completion"),
    created: v.pipe(v.number(), v.description("Unix time in seconds.")),
    model: v.string(),
    choices: v.array(
      v.object({
        index: v.number(),
        message: v.object({ role: v.literal("assistant"), content: v.string() }),
        finish_reason: v.string(),
        logprobs: v.null(),
      }),
    ),
    usage,
  }),
  v.description("With `stream: true`: `text/event-stream` of `chat.completion.chunk` objects (and Open WebUI events), then `data: [DONE]`."),
);

export const ModelList = v.object({
  object: v.literal("list"),
  data: v.array(
    v.object({
      id: v.pipe(v.string(), v.description("The pipeline name.")),
      name: v.string(),
      object: v.literal("model"),
      created: v.pipe(v.number(), v.description("When the pipeline was deployed (Unix seconds).")),
      owned_by: v.literal("svc"),
    }),
  ),
});
