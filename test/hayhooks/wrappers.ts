/**
 * @module Hayhooks' test wrappers (tests/test_files/files/* at deepset-ai/hayhooks 051d5a8) as
 * TypeScript wrappers: the same inputs, the same fixed answers, so the ported cases compare the
 * same values. Python's typed `run_api` parameters become a valibot `inputSchema`.
 */
const HEAD = `import * as v from "valibot";
import { BasePipelineWrapper, HttpError, fileResponse, uploadedFiles } from "svc";
`;

const wrapperOf = (body: string, prelude = "") => `${HEAD}${prelude}
export class PipelineWrapper extends BasePipelineWrapper {
${body}
}
`;

const MOCK = "This is a mock response from the pipeline";

/** chat_with_website: `run_api(urls, question)` and a chat completion, both answering the mock text. */
export const CHAT_WITH_WEBSITE = {
  "pipeline_wrapper.ts": wrapperOf(`
  static inputSchema = v.object({ urls: v.array(v.string()), question: v.string() });
  runApi() { return ${JSON.stringify(MOCK)}; }
  runChatCompletion() { return ${JSON.stringify(MOCK)}; }`),
};

/** chat_with_website_mcp: the same, with the docstring as the tool description. */
export const CHAT_WITH_WEBSITE_MCP = {
  "pipeline_wrapper.ts": wrapperOf(`
  static description = "Ask a question about one or more websites using a Haystack pipeline.";
  static inputSchema = v.object({ urls: v.array(v.string()), question: v.string() });
  runApi() { return ${JSON.stringify(MOCK)}; }`),
};

/** chat_with_website_mcp_skip: `skip_mcp = True`. */
export const CHAT_WITH_WEBSITE_MCP_SKIP = {
  "pipeline_wrapper.ts": wrapperOf(`
  static skipMcp = true;
  static inputSchema = v.object({ urls: v.array(v.string()), question: v.string() });
  runApi() { return ${JSON.stringify(MOCK)}; }`),
};

/** chat_with_website_streaming: the chat answer streams word by word ("Redis …" for a Redis question). */
export const CHAT_WITH_WEBSITE_STREAMING = {
  "pipeline_wrapper.ts": wrapperOf(`
  static inputSchema = v.object({ urls: v.array(v.string()), question: v.string() });
  runApi() { return ${JSON.stringify(MOCK)}; }
  async *runChatCompletion(_model: string, messages: { content?: unknown }[]) {
    const question = String(messages.at(-1)?.content ?? "");
    const text = question.includes("Redis") ? "Redis is an in-memory data structure store, used as a database, cache and message broker." : ${JSON.stringify(MOCK)};
    for (const word of text.split(" ")) yield { content: word + " " };
  }`),
};

/** no_chat: only `run_api(test_param)`. */
export const NO_CHAT = {
  "pipeline_wrapper.ts": wrapperOf(`
  static inputSchema = v.object({ test_param: v.string() });
  runApi(input: { test_param: string }) { return "Dummy result with " + input.test_param; }`),
};

/** run_api_error: `run_api` raises. */
export const RUN_API_ERROR = {
  "pipeline_wrapper.ts": wrapperOf(`
  static inputSchema = v.object({ test_param: v.string() });
  runApi() { throw new Error("This is a test error"); }`),
};

/** missing_methods: no run method at all. */
export const MISSING_METHODS = { "pipeline_wrapper.ts": wrapperOf(`  setup() {}`) };

/** setup_error: `setup()` raises. */
export const SETUP_ERROR = {
  "pipeline_wrapper.ts": wrapperOf(`
  setup() { throw new Error("Setup failed!"); }
  runApi() { return "never"; }`),
};

/** broken_import: imports a module that does not exist. */
export const BROKEN_IMPORT = {
  "pipeline_wrapper.ts": `import { missing } from "./no_such_module.js";\n${wrapperOf(`  runApi() { return missing; }`)}`,
};

/** upload_files: `run_api(test_param, files=None)`. */
export const UPLOAD_FILES = {
  "pipeline_wrapper.ts": wrapperOf(`
  static inputSchema = v.object({ test_param: v.string(), files: v.optional(uploadedFiles()) });
  runApi(input: { test_param: string; files?: { filename: string }[] }) {
    const files = input.files ?? [];
    return files.length > 0 ? "Received files: " + files.map((f) => f.filename).join(", ") + " with param " + input.test_param : "No files received, param: " + input.test_param;
  }`),
};

/** run_api_streaming / async_run_api_streaming: the query's words as chunks. */
export const RUN_API_STREAMING = {
  "pipeline_wrapper.ts": wrapperOf(`
  static inputSchema = v.object({ query: v.string() });
  async *runApi(input: { query: string }) { for (const word of input.query.split(" ")) yield { content: word + " " }; }`),
};

/** run_api_openwebui_event: a stream of UI events only. */
export const RUN_API_EVENTS = {
  "pipeline_wrapper.ts": wrapperOf(`
  static inputSchema = v.object({ query: v.string() });
  *runApi() { yield { event: { type: "status", data: { description: "working", done: false } } }; }`),
};

/** A reasoning model's stream: thinking chunks (empty content), then the answer. */
export const REASONING_STREAM = {
  "pipeline_wrapper.ts": wrapperOf(`
  async *runApi() {
    yield { content: "", reasoning: { reasoning_text: "Thinking. " } };
    yield { content: "", reasoning: null };
    yield { content: "Answer." };
  }`),
};

/** file_response: a PNG as a file response (a fixed 1x1 image; Hayhooks draws random pixels). */
export const FILE_RESPONSE = {
  "pipeline_wrapper.ts": wrapperOf(`
  static inputSchema = v.object({ width: v.optional(v.number(), 64), height: v.optional(v.number(), 64) });
  runApi() {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
    return fileResponse({ data: Buffer.from(png, "base64"), contentType: "image/png", filename: "random_image.png" });
  }`),
};

/** utf8_pipeline: non-ASCII in code and answers. */
export const UTF8_PIPELINE = {
  "pipeline_wrapper.ts": wrapperOf(`
  static inputSchema = v.object({ test_param: v.string() });
  runApi(input: { test_param: string }) {
    return { result: "Processed: " + input.test_param, greeting: "Hello 世界 🌍", message: "你好世界 こんにちは мир" };
  }`),
};

/** responses_basic: `run_response` answering the mock text. */
export const RESPONSES_BASIC = {
  "pipeline_wrapper.ts": wrapperOf(`
  runResponse() { return ${JSON.stringify(MOCK)}; }`),
};

/** responses_with_file_upload: takes `/v1/files` uploads over with `custom-` ids. */
export const RESPONSES_WITH_FILE_UPLOAD = {
  "pipeline_wrapper.ts": wrapperOf(`
  readonly stored = new Map<string, Buffer>();
  runFileUpload(file: { filename: string; data: Buffer; purpose: string }) {
    const id = "custom-" + Math.random().toString(16).slice(2, 14).padEnd(12, "0");
    this.stored.set(id, file.data);
    return { id, object: "file", bytes: file.data.length, created_at: Math.floor(Date.now() / 1000), filename: file.filename, purpose: file.purpose };
  }
  runResponse(_model: string, input: any[]) {
    const ids = input.flatMap((item) => (Array.isArray(item.content) ? item.content : [])).filter((p: any) => p.type === "input_file").map((p: any) => p.file_id);
    const texts = ids.map((id: string) => this.stored.get(id)?.toString() ?? "?");
    return texts.length ? "Files: " + texts.join(" | ") : "Response with file upload support";
  }`),
};
