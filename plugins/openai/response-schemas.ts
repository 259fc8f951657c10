/**
 * @module The Responses API's schemas (validation and OpenAPI): the create request, the Response
 * object, and the stored responses' routes (retrieve's query, input_items' page, the deletion).
 */
import * as v from "valibot";

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
  previous_response_id: nullable(v.string(), "A stored response this one continues: the wrapper gets that conversation's items (inputs and outputs, in order) before this input"),
  background: nullable(v.boolean(), "Run detached from the request (needs svc:runs): the answer is the queued Response at once (or, with stream, its resumable events)"),
  store: nullable(v.boolean(), "Keep the response for retrieve and previous_response_id (default true; needs svc:runs)"),
  metadata: v.optional(v.unknown()),
});

export const ResponseObject = v.looseObject({
  id: v.string(),
  object: v.literal("response"),
  created_at: v.number(),
  status: v.string(),
  model: v.string(),
  output: v.array(v.looseObject({ id: v.string(), type: v.string() })),
  usage: v.nullable(v.looseObject({ input_tokens: v.number(), output_tokens: v.number(), total_tokens: v.number() })),
  error: v.nullable(v.looseObject({ code: v.string(), message: v.string() })),
  incomplete_details: v.nullable(v.unknown()),
});

const count = (what: string) => v.pipe(v.string(), v.regex(/^\d{1,15}$/, "must be a non-negative integer"), v.transform(Number), v.description(what));
const flag = (what: string) => v.pipe(v.picklist(["true", "false"], "must be true or false"), v.transform((s) => s === "true"), v.description(what));

export const RetrieveQuery = v.looseObject({
  stream: v.optional(flag("Stream a background response's events (replay, then live)")),
  starting_after: v.optional(count("With stream: the events after this sequence_number")),
});

export const InputItemsQuery = v.looseObject({
  after: v.optional(v.pipe(v.string(), v.description("An item id: the items after it, in the chosen order"))),
  limit: v.optional(v.pipe(count("Items per page, 1 to 100 (default 20)"), v.minValue(1, "must be between 1 and 100"), v.maxValue(100, "must be between 1 and 100"))),
  order: v.optional(v.picklist(["asc", "desc"], "must be asc or desc")),
});

export const InputItemList = v.object({
  object: v.literal("list"),
  data: v.array(v.looseObject({ id: v.string(), type: v.string() })),
  first_id: v.nullable(v.string()),
  last_id: v.nullable(v.string()),
  has_more: v.boolean(),
});

export const DeletedResponse = v.object({ id: v.string(), object: v.literal("response.deleted"), deleted: v.literal(true) });
