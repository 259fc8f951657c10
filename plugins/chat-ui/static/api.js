// The calls the UI makes to the OpenAI-compatible endpoints of the same server: the model list, a
// streamed chat completion, file uploads. Every failure becomes a ChatError with a message fit to
// show a person: the server's own error message with its status, or what went wrong with the
// connection. Each call carries the API key when there is one; a 401 or 403 asks for a key
// (through the prompt the page installs) and, once one is entered, sends the request again.
import { currentKey, forgetKey, withKey } from "./api-key.js";
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

/**
 * Asks the person for a key after `refusal` (a 401 or 403 ChatError); `sentKey` tells whether the
 * refused request carried one. Resolves true once a key was entered. Installed by the page.
 * @type {(refusal: ChatError, sentKey: boolean) => Promise<boolean>}
 */
let askForKey = async () => false;

/** @param {typeof askForKey} prompt */
export function setKeyPrompt(prompt) {
  askForKey = prompt;
}

/**
 * `fetch` with the API key; a 401 or 403 asks for a key and tries again with it (the bodies sent
 * here, strings and FormData, can be sent twice). A refused key is forgotten.
 * @returns {Promise<Response>} an answer other than 401/403, or throws a ChatError
 */
async function request(url, init, what) {
  for (;;) {
    const key = currentKey();
    let response;
    try {
      response = await fetch(url, { ...init, headers: withKey(url, init.headers) });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw connectionError(error, what);
    }
    if (response.status !== 401 && response.status !== 403) return response;
    const refusal = await errorFrom(response);
    if (response.status === 401 && key) forgetKey(key);
    if (init.signal?.aborted || !(await askForKey(refusal, key !== ""))) throw refusal;
  }
}

/** @returns {Promise<string[]>} the chat-capable pipelines, in deploy order */
export async function listModels(apiBase) {
  const response = await request(`${apiBase}/v1/models`, { headers: { accept: "application/json" } }, "Could not reach the server");
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
  const init = {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ model, messages, stream: true }),
    signal,
  };
  const response = await request(`${apiBase}/v1/chat/completions`, init, "Could not reach the server");
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
  const response = await request(`${apiBase}/v1/files`, { method: "POST", body: form, signal }, "Could not upload the file");
  if (!response.ok) throw await errorFrom(response);
  return response.json();
}

/** Deletes an uploaded file that was never sent; failures do not matter (the file expires anyway). */
export function deleteFile(apiBase, id) {
  const url = `${apiBase}/v1/files/${encodeURIComponent(id)}`;
  return fetch(url, { method: "DELETE", headers: withKey(url) }).then(
    () => undefined,
    () => undefined,
  );
}
