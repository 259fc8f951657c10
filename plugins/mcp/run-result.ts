/**
 * @module What a pipeline's `runApi` answer becomes as a tool result. A stream, or an agent
 * framework's result (an AI SDK `streamText()` result, a LangGraph stream…), is drained through
 * the invocation (the kernel's `stream` hook, stopping when the call is cancelled) into one text;
 * a file becomes image or audio content, or an embedded resource; other values are left to the tool server
 * (text or JSON).
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { FileResult, Invocation, Logger } from "svc/plugin";

export async function pipelineToolResult(invocation: Invocation, log: Logger): Promise<unknown> {
  const file = invocation.file;
  if (file) return fileContent(file);
  if (!invocation.source) return invocation.result;
  let warned = false;
  const text = await invocation.text("run.item", (message) => {
    if (!warned) log.warn(message, { pipeline: invocation.pipeline.name });
    warned = true;
  });
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
