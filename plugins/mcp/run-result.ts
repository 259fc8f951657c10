/**
 * @module What a pipeline's `runApi` answer becomes as a tool result. A stream, or an agent
 * framework's result (an AI SDK `streamText()` result, a LangGraph stream…), is drained through
 * the kernel's `stream` hook (stopping when the call is cancelled) into one text; a file becomes
 * an image or an embedded resource; other values are left to the tool server (text or JSON).
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { FileResult, SseStream, frameworkItems, frameworkResult, isStreamable, streamItemText, untilAborted, type PluginApi } from "svc";

export async function pipelineToolResult(api: PluginApi, pipeline: string, requestId: string, signal: AbortSignal, result: unknown): Promise<unknown> {
  if (result instanceof FileResult) return fileContent(result);
  const stream = result instanceof SseStream ? result.source : isStreamable(result) ? result : undefined;
  const source: AsyncIterable<unknown> | Iterable<unknown> | undefined = frameworkResult(result) ?? (stream ? frameworkItems(stream) : undefined);
  if (!source) return result;
  let text = "";
  let warned = false;
  const warn = (message: string) => {
    if (!warned) api.log.warn(message, { pipeline });
    warned = true;
  };
  for await (const item of untilAborted(api.stream({ pipeline, transport: "mcp", kind: "run.item", requestId }, source), signal)) {
    const part = streamItemText(item, warn);
    if (part !== undefined) text += part.toString();
  }
  signal.throwIfAborted();
  return text;
}

function fileContent(file: FileResult): CallToolResult {
  const data = file.data.toString("base64");
  if (file.contentType.startsWith("image/")) return { content: [{ type: "image", data, mimeType: file.contentType }] };
  const uri = `file:///${encodeURIComponent(file.filename ?? "result")}`;
  return { content: [{ type: "resource", resource: { uri, mimeType: file.contentType, blob: data } }] };
}
