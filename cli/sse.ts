/**
 * @module Incremental `text/event-stream` parsing, as the HTML standard reads it: the `id`,
 * `event` and `data` of each complete event. `svc pipeline run --stream` prints the data;
 * `svc runs watch` also keeps the ids to resume after.
 */

export interface SseEvent {
  /** The last `id:` seen so far (it carries over to later events, as in EventSource). */
  readonly id?: string;
  readonly event: string;
  readonly data: string;
}

export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private event = "";
  private id?: string;

  push(text: string): SseEvent[] {
    this.buffer += text;
    const out: SseEvent[] = [];
    let newline: number;
    while ((newline = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, newline);
      const width = this.buffer.startsWith("\r\n", newline) ? 2 : 1;
      // A lone `\r` at the end may be the first half of `\r\n`: wait for more.
      if (width === 1 && this.buffer[newline] === "\r" && newline === this.buffer.length - 1) break;
      this.buffer = this.buffer.slice(newline + width);
      this.line(line, out);
    }
    return out;
  }

  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.buffer) this.line(this.buffer, out);
    this.buffer = "";
    this.line("", out);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === "") {
      if (this.data.length) out.push({ id: this.id, event: this.event || "message", data: this.data.join("\n") });
      this.data = [];
      this.event = "";
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id" && !value.includes("\0")) this.id = value;
  }
}
