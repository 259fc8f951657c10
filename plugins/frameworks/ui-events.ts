/**
 * @module Open WebUI events: what a chat wrapper may yield among its streamed text to drive the
 * chat front-end (status lines, appended or replaced message text, toasts, sources), the
 * `<details>` block Open WebUI renders as a collapsible section, and default tool-call callbacks
 * for `streamingGenerator` (from `svc/engine`). Every event is `{ event: { type, data } }`: the
 * chat endpoints send it as `data: {"event": {...}}`, the Responses endpoint as a named SSE event;
 * `POST /{name}/run` and non-streaming answers drop it.
 */

/** One Open WebUI event as a wrapper yields it. */
export interface UIEvent<T extends string = string, D = unknown> {
  event: { type: T; data: D };
}

export type NotificationType = "info" | "success" | "warning" | "error";
const NOTIFICATION_TYPES: readonly NotificationType[] = ["info", "success", "warning", "error"];

export interface StatusData {
  description: string;
  done: boolean;
  hidden: boolean;
}

/** A citation / source in Open WebUI's shape; any extra keys are kept as given. */
export interface SourceData {
  source?: { name?: string; url?: string; [key: string]: unknown };
  document?: string[];
  metadata?: Record<string, unknown>[];
  [key: string]: unknown;
}

function required(what: string, field: string, value: unknown): string {
  if (typeof value !== "string") throw new TypeError(`${what}: '${field}' must be a string, got ${value === null ? "null" : typeof value}`);
  return value;
}

function event<T extends string, D>(type: T, data: D): UIEvent<T, D> {
  return { event: { type, data } };
}

/** Progress text with a loading indicator until `done`; `hidden` hides the line once shown. */
export function createStatusEvent(description: string, done = false, hidden = false): UIEvent<"status", StatusData> {
  return event("status", { description: required("createStatusEvent", "description", description), done: !!done, hidden: !!hidden });
}

/** Appends `content` to the message being written. */
export function createMessageEvent(content: string): UIEvent<"message", { content: string }> {
  return event("message", { content: required("createMessageEvent", "content", content) });
}

/** Replaces the whole message being written with `content`. */
export function createReplaceEvent(content: string): UIEvent<"replace", { content: string }> {
  return event("replace", { content: required("createReplaceEvent", "content", content) });
}

/** A toast of level info, success, warning or error. */
export function createNotificationEvent(
  content: string,
  type: NotificationType = "info",
): UIEvent<"notification", { type: NotificationType; content: string }> {
  if (!NOTIFICATION_TYPES.includes(type)) {
    throw new TypeError(`createNotificationEvent: type must be one of ${NOTIFICATION_TYPES.join(", ")}; got ${JSON.stringify(type)}`);
  }
  return event("notification", { type, content: required("createNotificationEvent", "content", content) });
}

/**
 * A reference, citation or code result, sent verbatim. Open WebUI reads
 * `{ source: { name, url? }, document: [text…], metadata: [{ source, … }…] }`.
 */
export function createSourceEvent(source: SourceData): UIEvent<"source", SourceData> {
  if (!source || typeof source !== "object" || Array.isArray(source)) throw new TypeError("createSourceEvent: the source must be an object");
  return event("source", source);
}

/** A `chat:completion` event carrying a completion object verbatim. */
export function createChatCompletionEvent(data: Record<string, unknown>): UIEvent<"chat:completion", Record<string, unknown>> {
  return event("chat:completion", data);
}

export interface DetailsTagOptions {
  /** Render the block expanded. */
  open?: boolean;
  /** The `type` attribute; Open WebUI labels tool blocks with the tool name. */
  type?: string;
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The `<details>` block Open WebUI renders as a collapsible section: a string, streamed as
 * ordinary message text (not an event). `open` is a boolean or `{ open, type }`.
 */
export function createDetailsTag(summary: string, content: string, open: boolean | DetailsTagOptions = false): string {
  const options = typeof open === "boolean" ? { open } : open;
  const attributes = `${options.type !== undefined ? ` type="${escapeHtml(options.type)}"` : ""} done="true"${options.open ? " open" : ""}`;
  return `<details${attributes}>\n<summary>${escapeHtml(summary)}</summary>\n\n${content}\n</details>\n\n`;
}

/** The text in a Markdown code fence longer than any backtick run inside it. */
function fenced(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

/**
 * Default `onToolCallStart` for `streamingGenerator`: a status line "Calling '<tool>' tool...",
 * nothing for a delta without a tool name.
 */
export function defaultOnToolCallStart(toolName: string, _args?: Record<string, unknown>, _id?: string | null): UIEvent | undefined {
  return toolName ? createStatusEvent(`Calling '${toolName}' tool...`) : undefined;
}

/**
 * Default `onToolCallEnd`: on success a done status "Called '<tool>' tool" and a details block with
 * the arguments and the response; on error a hidden done status and an error notification.
 */
export function defaultOnToolCallEnd(toolName: string, args: Record<string, unknown>, result: string, error: boolean): (UIEvent | string)[] {
  if (error) {
    return [createStatusEvent(`Called '${toolName}' tool`, true, true), createNotificationEvent(`Error calling '${toolName}' tool`, "error")];
  }
  const body = `Arguments:\n${JSON.stringify(args ?? {}, null, 2)}\n\nResponse:\n${result}`;
  return [createStatusEvent(`Called '${toolName}' tool`, true), createDetailsTag(`Tool call result for '${toolName}'`, fenced(body), { type: toolName })];
}

/** True for an Open WebUI event as yielded by a wrapper (`{ event: { type, data } }`). */
export function isUIEvent(value: unknown): value is UIEvent {
  if (!value || typeof value !== "object") return false;
  const inner = (value as { event?: unknown }).event;
  return !!inner && typeof inner === "object" && typeof (inner as { type?: unknown }).type === "string";
}
