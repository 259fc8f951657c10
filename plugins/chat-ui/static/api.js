// The two calls the UI makes to the OpenAI-compatible endpoints of the same server: the model list
// and a streamed chat completion. Every failure becomes a ChatError with a message fit to show a
// person: the server's own error message with its status, or what went wrong with the connection.
import { sseData } from "./sse.js";

export class ChatError extends Error {
  /** @param {string} message @param {number} status 0 when there was no HTTP answer */
  constructor(message, status) {
    super(message);
    this.name = "ChatError";
    this.status = status;
  }
}

/** The message of an error answer: the spec's `{"error": {"message"}}` body, else its text. */
async function errorFrom(response) {
  let message = "";
  try {
    const text = await response.text();
    try {
      message = JSON.parse(text)?.error?.message ?? text;
    } catch {
      message = text;
    }
  } catch {
    // the body could not be read: the status alone says it
  }
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  return new ChatError(message ? `${status}: ${message}` : status, response.status);
}

function connectionError(error, what) {
  return new ChatError(`${what}: ${error instanceof Error ? error.message : String(error)}`, 0);
}

/** @returns {Promise<string[]>} the chat-capable pipelines, in deploy order */
export async function listModels(apiBase) {
  let response;
  try {
    response = await fetch(`${apiBase}/v1/models`, { headers: { accept: "application/json" } });
  } catch (error) {
    throw connectionError(error, "Could not reach the server");
  }
  if (!response.ok) throw await errorFrom(response);
  const list = await response.json();
  return (Array.isArray(list?.data) ? list.data : []).map((m) => String(m.id));
}

/**
 * Streams a chat completion: yields each parsed chunk or UI event until `data: [DONE]`. A
 * mid-stream `{"error": …}` event, an HTTP error or a lost connection throws a ChatError; an abort
 * through `signal` throws the abort error unchanged.
 */
export async function* streamCompletion(apiBase, { model, messages }, signal) {
  let response;
  try {
    response = await fetch(`${apiBase}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ model, messages, stream: true }),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw connectionError(error, "Could not reach the server");
  }
  if (!response.ok) throw await errorFrom(response);
  if (!response.body) throw new ChatError("The server sent an empty answer", response.status);
  try {
    for await (const data of sseData(response.body)) {
      if (data === "[DONE]") return;
      let item;
      try {
        item = JSON.parse(data);
      } catch {
        continue;
      }
      if (item && item.error) {
        const { message = "The answer failed", code = 500 } = item.error;
        throw new ChatError(`${code}: ${message}`, Number(code) || 500);
      }
      yield item;
    }
  } catch (error) {
    if (signal.aborted || error instanceof ChatError) throw error;
    throw connectionError(error, "The connection was lost");
  }
  if (signal.aborted) throw signal.reason;
  throw new ChatError("The connection closed before the answer was complete", 0);
}

/**
 * Uploads a file to the Files API for chat messages to refer to (`purpose: user_data`).
 * @returns {Promise<{id: string, filename: string, bytes: number}>} the file object
 */
export async function uploadFile(apiBase, file, signal) {
  const form = new FormData();
  form.set("purpose", "user_data");
  form.set("file", file, file.name);
  let response;
  try {
    response = await fetch(`${apiBase}/v1/files`, { method: "POST", body: form, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw connectionError(error, "Could not upload the file");
  }
  if (!response.ok) throw await errorFrom(response);
  return response.json();
}

/** Deletes an uploaded file that was never sent; failures do not matter (the file expires anyway). */
export function deleteFile(apiBase, id) {
  return fetch(`${apiBase}/v1/files/${encodeURIComponent(id)}`, { method: "DELETE" }).then(
    () => undefined,
    () => undefined,
  );
}
