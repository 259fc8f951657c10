/**
 * @module What a pipeline's `runApi` answer becomes as a tool result. A stream, or an agent
 * framework's result (an AI SDK `streamText()` result, a LangGraph stream…), is drained through
 * the invocation (the kernel's `stream` hook, stopping when the call is cancelled) into one text;
 * a file becomes image or audio content, or an embedded resource; other values are left to the tool server
 * (text or JSON). When the client asked for progress, each streamed part is also sent as it comes,
 * as a `notifications/progress` message (the final result still carries the whole text: a client
 * that ignores progress loses nothing).
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { streamItemText, type FileResult, type Invocation, type Logger } from "svc/plugin";

export async function pipelineToolResult(invocation: Invocation, log: Logger, progress?: (message: string) => Promise<void>): Promise<unknown> {
  const file = invocation.file;
  if (file) return fileContent(file);
  if (!invocation.source) return invocation.result;
  let warned = false;
  const warn = (message: string) => {
    if (!warned) log.warn(message, { pipeline: invocation.pipeline.name });
    warned = true;
  };
  let text: string;
  if (!progress) text = await invocation.text("run.item", warn);
  else {
    text = "";
    for await (const item of invocation.stream("run.item")) {
      const part = streamItemText(item, warn)?.toString();
      if (!part) continue;
      text += part;
      await progress(part);
    }
  }
  invocation.call.signal.throwIfAborted();
  return text;
}

function fileContent(file: FileResult): CallToolResult {
  const data = file.data.toString("base64");
  if (file.contentType.startsWith("image/")) return { content: [{ type: "image", data, mimeType: file.contentType }] };
  if (file.contentType.startsWith("audio/")) return { content: [{ type: "audio", data, mimeType: file.contentType }] };
  const uri = `file:///${encodeURIComponent(file.filename ?? "result")}`;
  return { content: [{ type: "resource", resource: { uri, mimeType: file.contentType, blob: data } }] };
}
