/**
 * @module svc: the entry for wrapper authors.
 */
export * from "../kernel/index.js";
export {
  chunkSource,
  frameworkItems,
  frameworkResult,
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
  type AgentChunk,
  type AgentItem,
  type ChunkUsage,
  type ChunkWriterOptions,
  type ToolCallDeltaChunk,
  type DetailsTagOptions,
  type NotificationType,
  type SourceData,
  type StatusData,
  type UIEvent,
} from "../plugins/frameworks/index.js";
