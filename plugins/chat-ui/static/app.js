// The chat page: picks a pipeline, sends the conversation to the chat completions endpoint and
// draws the streamed answer with its UI events. Configuration comes from the page's data
// attributes: `data-api-base` (the root path the server is served under) and
// `data-default-model` (SERVICE_CHAT_UI_DEFAULT_MODEL). When the server requires an API key
// (svc:auth), a refused request opens the key prompt and is sent again with the key entered.
import { currentKey } from "./api-key.js";
import { ChatError, listModels, setKeyPrompt, streamCompletion } from "./api.js";
import { Attachments } from "./attachments.js";
import { FollowScroll } from "./follow-scroll.js";
import { KeyDialog } from "./key-dialog.js";
import { AssistantView, userView } from "./message-view.js";
import { ConversationStore } from "./store.js";
import { showToast } from "./toasts.js";

const $ = (id) => /** @type {any} */ (document.getElementById(id));
const ui = {
  picker: $("model"),
  newChat: $("new-chat"),
  log: $("log"),
  messages: $("messages"),
  empty: $("empty"),
  jump: $("jump"),
  form: $("composer"),
  input: $("input"),
  send: $("send"),
  stop: $("stop"),
  toasts: $("toasts"),
  attach: $("attach"),
  fileInput: $("file-input"),
  attachments: $("attachments"),
  keyButton: $("key-button"),
  keyDialog: $("key-dialog"),
};
const apiBase = document.body.dataset.apiBase ?? "";
const defaultModel = document.body.dataset.defaultModel ?? "";
const store = new ConversationStore(`svc-chat:${location.pathname}`);
const scroll = new FollowScroll(ui.log, ui.jump);
const state = store.load();
/** @type {AbortController | null} */
let running = null;
let waitingForUploads = false;

const save = () => store.save(state);
const toast = (level, text) => showToast(ui.toasts, level, text);
const attachments = new Attachments(ui.attachments, apiBase, (message) => toast("error", message));
const keyDialog = new KeyDialog(ui.keyDialog);

// ---- the API key

/** Why the key is asked for: none sent yet, a key the server refused, or one without the right. */
function keyReason(refusal, sentKey) {
  if (refusal.status === 403) return `This key may not do that. ${refusal.message} Enter a key that may, or cancel.`;
  if (sentKey) return `The server did not accept that key. ${refusal.message} Check it and try again.`;
  return "This server requires an API key.";
}

setKeyPrompt(async (refusal, sentKey) => {
  ui.keyButton.hidden = false; // the server uses keys: let the person change theirs later
  return keyDialog.ask(keyReason(refusal, sentKey), sentKey);
});
ui.keyButton.hidden = currentKey() === "";

// ---- the conversation

function showEmptyHint() {
  ui.empty.hidden = state.messages.length > 0;
}

function drawMessage(message) {
  if (message.role === "user") {
    ui.messages.append(userView(message));
    return undefined;
  }
  const view = new AssistantView(message, () => scroll.update());
  ui.messages.append(view.root);
  return view;
}

function drawConversation() {
  ui.messages.replaceChildren();
  for (const message of state.messages) drawMessage(message);
  showEmptyHint();
  scroll.toBottom();
}

/** A user turn with files: its text and a `file` part per uploaded file (the server reads them). */
function contentOf(message) {
  if (!Array.isArray(message.files) || message.files.length === 0) return message.content;
  const text = message.content ? [{ type: "text", text: message.content }] : [];
  return [...text, ...message.files.map((f) => ({ type: "file", file: { file_id: f.id } }))];
}

/** What the server gets: each turn (failed or empty answers left out). */
function history() {
  return state.messages
    .filter((m) => (m.role === "user" || m.role === "assistant") && typeof m.content === "string" && (m.content !== "" || m.files?.length))
    .map((m) => ({ role: m.role, content: contentOf(m) }));
}

/** One streamed item: a chat.completion.chunk, or a UI event `{event: {type, data}}`. */
function apply(view, item) {
  const event = item?.event;
  if (event && typeof event.type === "string") {
    const data = event.data ?? {};
    switch (event.type) {
      case "status":
        return view.status(data);
      case "message":
      case "chat:message:delta":
        return typeof data.content === "string" ? view.appendText(data.content) : undefined;
      case "replace":
      case "chat:message":
        return typeof data.content === "string" ? view.replaceText(data.content) : undefined;
      case "notification":
        return void toast(data.type, data.content);
      case "source":
      case "citation":
        return view.source(data);
      default:
        return undefined; // other Open WebUI events have no meaning here
    }
  }
  const delta = item?.choices?.[0]?.delta;
  if (delta && typeof delta.content === "string" && delta.content !== "") view.appendText(delta.content);
}

function setRunning(controller) {
  running = controller;
  ui.send.hidden = !!controller;
  ui.stop.hidden = !controller;
  ui.form.classList.toggle("busy", !!controller);
}

/** The attached files, once uploaded; no other message is sent meanwhile. */
async function takeAttachments() {
  if (attachments.count === 0) return [];
  waitingForUploads = true;
  ui.send.disabled = true;
  try {
    return await attachments.take();
  } finally {
    waitingForUploads = false;
    ui.send.disabled = false;
  }
}

async function send(text) {
  const model = ui.picker.value;
  if (!model) {
    toast("warning", "Choose a pipeline first.");
    ui.picker.focus();
    return;
  }
  state.model = model;
  const files = await takeAttachments();
  if (!text && files.length === 0) return;
  const question = { role: "user", content: text, ...(files.length ? { files } : {}) };
  state.messages.push(question);
  drawMessage(question);
  const messages = history();
  const answer = { role: "assistant", model, content: "", steps: [], sources: [] };
  state.messages.push(answer);
  const view = /** @type {AssistantView} */ (drawMessage(answer));
  showEmptyHint();
  scroll.toBottom();
  save();

  const controller = new AbortController();
  setRunning(controller);
  view.setBusy(true);
  try {
    for await (const item of streamCompletion(apiBase, { model, messages }, controller.signal)) apply(view, item);
    view.finish("done");
  } catch (error) {
    if (controller.signal.aborted) view.finish("stopped");
    else view.finish("failed", error instanceof ChatError ? error.message : `Something went wrong: ${String(error)}`);
  } finally {
    if (running === controller) setRunning(null);
    save();
    ui.input.focus();
  }
}

// ---- the pipeline picker

function option(value, label) {
  const node = document.createElement("option");
  node.value = value;
  node.textContent = label;
  return node;
}

async function loadModels() {
  let models;
  try {
    models = await listModels(apiBase);
  } catch (error) {
    ui.picker.replaceChildren(option("", "Pipelines unavailable"));
    toast("error", `Could not load the pipelines: ${error instanceof Error ? error.message : error}`);
    return;
  }
  if (models.length === 0) {
    ui.picker.replaceChildren(option("", "No chat pipelines deployed"));
    return;
  }
  // One pipeline is chosen for the reader; with several, the session's or the configured default.
  const choice = models.length === 1 ? models[0] : [state.model, defaultModel].find((m) => m && models.includes(m)) ?? "";
  ui.picker.replaceChildren(...(choice ? [] : [option("", "Choose a pipeline…")]), ...models.map((m) => option(m, m)));
  ui.picker.value = choice;
  ui.picker.disabled = false;
  state.model = choice;
}

// ---- controls

ui.form.addEventListener("submit", (event) => {
  event.preventDefault();
  const text = ui.input.value.trim();
  if ((!text && attachments.count === 0) || running || waitingForUploads) return;
  ui.input.value = "";
  void send(text);
});

ui.input.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    ui.form.requestSubmit();
  } else if (event.key === "Escape" && running) {
    running.abort();
  }
});

ui.stop.addEventListener("click", () => {
  running?.abort();
  ui.input.focus();
});

ui.attach.addEventListener("click", () => ui.fileInput.click());

ui.fileInput.addEventListener("change", () => {
  attachments.add(ui.fileInput.files ?? []);
  ui.fileInput.value = "";
  ui.input.focus();
});

// Files dropped on the message box are attached too.
ui.form.addEventListener("dragover", (event) => {
  if (event.dataTransfer?.types.includes("Files")) event.preventDefault();
});
ui.form.addEventListener("drop", (event) => {
  if (!event.dataTransfer?.files.length) return;
  event.preventDefault();
  attachments.add(event.dataTransfer.files);
});

ui.picker.addEventListener("change", () => {
  state.model = ui.picker.value;
  save();
  ui.input.focus();
});

ui.keyButton.addEventListener("click", async () => {
  if (!(await keyDialog.ask(""))) return;
  toast("success", "The new key is used from now on.");
  if (ui.picker.disabled) void loadModels();
});

ui.newChat.addEventListener("click", () => {
  running?.abort();
  state.messages = [];
  save();
  drawConversation();
  ui.input.focus();
});

drawConversation();
ui.input.focus();
void loadModels();
