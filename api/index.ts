/**
 * @module `@svc-serve/svc` (also `svc`): the entry for wrapper authors — what a
 * `pipeline_wrapper.ts` imports. The wrapper base class and its run context, chat messages,
 * streamed and file results, uploaded files, the errors a wrapper throws, logging and spans, and
 * the agent-framework and Open WebUI event helpers. Nothing else: plugin authors import
 * `@svc-serve/svc/plugin`, host applications `@svc-serve/svc/host`. test/boundaries.test.ts keeps
 * this list at 60 names or fewer; docs/wrappers.md#the-svc-entry lists them.
 */
// The wrapper and what a run gets.
export { BasePipelineWrapper, getLastUserMessage, type ChatMessage, type FileUpload, type InputSchema, type RunContext } from "../kernel/wrapper/base-pipeline-wrapper.js";
// What a run returns besides plain values.
export { FileResult, SseStream, fileResponse, isStreamable, sse } from "../kernel/wrapper/results.js";
// Uploaded files (multipart `files` and chat attachments).
export { UploadedFile, uploadedFiles } from "../kernel/wrapper/uploaded-file.js";
// Errors a wrapper throws: `HttpError(status, message)` answers with that status.
export { HttpError, KernelError, type ErrorType } from "../kernel/errors.js";
// Logging and tracing (`ctx.log`, `ctx.span`).
export { Logger, type LogLevel } from "../kernel/logger.js";
export { NOOP_TRACER, type Span, type Tags, type TagValue, type Tracer } from "../kernel/hooks/tracer.js";
export {
  // Agent frameworks' results as chunks (the frameworks plugin does this for a returned result).
  chunkSource,
  frameworkItems,
  frameworkResult,
  type AgentChunk,
  type AgentItem,
  type ChunkUsage,
  type ChunkWriterOptions,
  type ToolCallDeltaChunk,
  // Open WebUI events and tool-call rendering.
  createChatCompletionEvent,
  createDetailsTag,
  createMessageEvent,
  createNotificationEvent,
  createReplaceEvent,
  createSourceEvent,
  createStatusEvent,
  defaultOnToolCallEnd,
  defaultOnToolCallStart,
  isUIEvent,
  type DetailsTagOptions,
  type NotificationType,
  type SourceData,
  type StatusData,
  type UIEvent,
} from "../plugins/frameworks/index.js";
