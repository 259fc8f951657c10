/**
 * @module The Responses event state machine. Fed the items a wrapper yields, it opens and closes
 * output items (a message, a reasoning summary, a function call; one open at a time) and returns
 * the named events to send, in the order and with the payloads of OpenAI's Responses stream:
 * `response.created`, `response.in_progress`, per item `output_item.added` … deltas … `done`
 * events, UI events under their own name, and `response.completed` or `response.failed`. The
 * non-streaming answer uses the same machine and keeps only the finished output.
 */
import { newId } from "svc/plugin";
import {
  ZERO_USAGE,
  isResponseObject,
  readItem,
  responseBody,
  responseError,
  type CallDelta,
  type Json,
  type ResponseBase,
  type ResponseError,
  type ResponseStatus,
  type Usage,
} from "./response-object.js";

/** One named SSE event: `event: <event>` and its JSON data (which repeats the name as `type`). */
export interface ResponseEvent {
  event: string;
  data: Json;
}

type OpenItem =
  | { kind: "message"; id: string; text: string }
  | { kind: "reasoning"; id: string; text: string }
  | { kind: "function_call"; id: string; callId: string; name: string; named: boolean; arguments: string; index?: number };

const event = (type: string, fields: Json): ResponseEvent => ({ event: type, data: { type, ...fields } });

export class ResponseState {
  /** Finished output items, in order. */
  readonly output: Json[] = [];
  /** A whole Response the wrapper produced: it ends the stream and is sent as is. */
  final?: Json;
  private open?: OpenItem;
  private usage?: Usage;

  /** `uiEvents: false` drops UI events (for clients that only know OpenAI's events). */
  constructor(
    readonly base: ResponseBase,
    private readonly options: { uiEvents?: boolean } = {},
  ) {}

  /** True once a whole Response was yielded: nothing after it counts. */
  get done(): boolean {
    return this.final !== undefined;
  }

  start(): ResponseEvent[] {
    const response = responseBody(this.base, "in_progress", [], null);
    return [event("response.created", { response }), event("response.in_progress", { response })];
  }

  /** The events one yielded item produces. */
  push(item: unknown): ResponseEvent[] {
    if (this.done) return [];
    if (isResponseObject(item)) {
      const events = this.close();
      this.final = item;
      events.push(event("response.completed", { response: item }));
      return events;
    }
    const parts = readItem(item);
    if (parts.usage) this.usage = parts.usage;
    if (parts.event) return this.options.uiEvents === false ? [] : [{ event: parts.event.type as string, data: parts.event }];
    const events: ResponseEvent[] = [];
    if (parts.reasoning) this.reasoning(parts.reasoning, events);
    if (parts.text) this.text(parts.text, events);
    for (const call of parts.calls) this.call(call, events);
    return events;
  }

  /** Normal end: close the open item, then `response.completed` with every item. */
  complete(): ResponseEvent[] {
    const events = this.close();
    events.push(event("response.completed", { response: this.body("completed") }));
    return events;
  }

  /** A failure: close the open item, then `response.failed` with the error. */
  fail(error: unknown): ResponseEvent[] {
    const events = this.close();
    events.push(event("response.failed", { response: this.body("failed", responseError(error)) }));
    return events;
  }

  /** The response as it stands (after `complete` or `close`). */
  body(status: ResponseStatus = "completed", error: ResponseError | null = null): Json {
    return responseBody(this.base, status, this.output, this.usage ?? { ...ZERO_USAGE }, error);
  }

  /** Closes whatever item is open; returns its closing events. */
  close(): ResponseEvent[] {
    const item = this.open;
    if (!item) return [];
    this.open = undefined;
    const output_index = this.output.length;
    const events: ResponseEvent[] = [];
    let done: Json;
    if (item.kind === "message") {
      const part = { type: "output_text", text: item.text, annotations: [] };
      done = { id: item.id, type: "message", status: "completed", role: "assistant", content: [part] };
      events.push(
        event("response.output_text.done", { item_id: item.id, output_index, content_index: 0, text: item.text }),
        event("response.content_part.done", { item_id: item.id, output_index, content_index: 0, part }),
      );
    } else if (item.kind === "reasoning") {
      const part = { type: "summary_text", text: item.text };
      done = { id: item.id, type: "reasoning", status: "completed", summary: [part] };
      events.push(
        event("response.reasoning_summary_text.done", { item_id: item.id, output_index, summary_index: 0, text: item.text }),
        event("response.reasoning_summary_part.done", { item_id: item.id, output_index, summary_index: 0, part }),
      );
    } else {
      done = { id: item.id, type: "function_call", status: "completed", call_id: item.callId, name: item.name, arguments: item.arguments };
      events.push(event("response.function_call_arguments.done", { item_id: item.id, output_index, arguments: item.arguments }));
    }
    events.push(event("response.output_item.done", { output_index, item: done }));
    this.output.push(done);
    return events;
  }

  /** An empty message, for a non-streaming answer that produced no item at all. */
  ensureOutput(): void {
    if (this.output.length > 0 || this.open) return;
    this.output.push({ id: newId("msg_"), type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "", annotations: [] }] });
  }

  private text(delta: string, events: ResponseEvent[]): void {
    let item = this.open;
    if (item?.kind !== "message") {
      events.push(...this.close());
      item = this.open = { kind: "message", id: newId("msg_"), text: "" };
      const output_index = this.output.length;
      events.push(
        event("response.output_item.added", { output_index, item: { id: item.id, type: "message", status: "in_progress", role: "assistant", content: [] } }),
        event("response.content_part.added", { item_id: item.id, output_index, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }),
      );
    }
    item.text += delta;
    events.push(event("response.output_text.delta", { item_id: item.id, output_index: this.output.length, content_index: 0, delta }));
  }

  private reasoning(delta: string, events: ResponseEvent[]): void {
    let item = this.open;
    if (item?.kind !== "reasoning") {
      events.push(...this.close());
      item = this.open = { kind: "reasoning", id: newId("rs_"), text: "" };
      const output_index = this.output.length;
      events.push(
        event("response.output_item.added", { output_index, item: { id: item.id, type: "reasoning", status: "in_progress", summary: [] } }),
        event("response.reasoning_summary_part.added", { item_id: item.id, output_index, summary_index: 0, part: { type: "summary_text", text: "" } }),
      );
    }
    item.text += delta;
    events.push(event("response.reasoning_summary_text.delta", { item_id: item.id, output_index: this.output.length, summary_index: 0, delta }));
  }

  private call(delta: CallDelta, events: ResponseEvent[]): void {
    let item = this.open;
    const continues =
      item?.kind === "function_call" &&
      (delta.id ? delta.id === item.callId : delta.index === undefined || item.index === undefined || delta.index === item.index);
    if (!continues || item?.kind !== "function_call") {
      events.push(...this.close());
      const named = !!delta.name;
      item = this.open = { kind: "function_call", id: newId("fc_"), callId: delta.id ?? newId("call_", 12), name: delta.name || "function", named, arguments: "", index: delta.index };
      events.push(
        event("response.output_item.added", {
          output_index: this.output.length,
          item: { id: item.id, type: "function_call", status: "in_progress", call_id: item.callId, name: item.name, arguments: "" },
        }),
      );
    } else if (!item.named && delta.name) {
      // A name that arrives after the first fragment still names the finished item.
      item.name = delta.name;
      item.named = true;
    }
    if (!delta.arguments) return;
    item.arguments += delta.arguments;
    events.push(event("response.function_call_arguments.delta", { item_id: item.id, output_index: this.output.length, delta: delta.arguments }));
  }
}
