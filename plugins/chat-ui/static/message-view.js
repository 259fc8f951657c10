// How one message looks. A user message is plain text, with its attached files as chips. An
// assistant message has, top to bottom: progress steps (status events), the answer rendered as
// Markdown, the sources it cites, and a note when it was stopped or failed. The view mutates the
// plain message object it was given, so the conversation can be saved and drawn again from those
// objects.
import { fileChip } from "./attachments.js";
import { renderMarkdown } from "./markdown.js";

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Only http(s) links are followed; anything else is shown as text. */
function safeUrl(value) {
  if (typeof value !== "string") return undefined;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export function userView(message) {
  const article = el("article", "message user");
  article.setAttribute("aria-label", "You said");
  if (message.content) article.append(el("div", "bubble", message.content));
  if (Array.isArray(message.files) && message.files.length) {
    const files = el("div", "files");
    files.setAttribute("aria-label", "Attached files");
    files.append(...message.files.map((f) => fileChip(String(f.filename), Number(f.bytes) || 0)));
    article.append(files);
  }
  return article;
}

export class AssistantView {
  /** @param {object} message the stored assistant message @param {() => void} onChange after each redraw */
  constructor(message, onChange = () => undefined) {
    this.message = message;
    message.steps ??= [];
    message.sources ??= [];
    message.content ??= "";
    this.onChange = onChange;
    this.pending = 0;
    this.root = el("article", "message assistant");
    this.root.setAttribute("aria-label", `Answer from ${message.model ?? "the pipeline"}`);
    this.label = el("div", "who", message.model ?? "");
    this.steps = el("ol", "steps");
    this.steps.setAttribute("aria-label", "Progress");
    this.content = el("div", "content markdown");
    this.sources = el("section", "sources");
    this.sources.setAttribute("aria-label", "Sources");
    this.note = el("p", "note");
    this.root.append(this.label, this.steps, this.content, this.sources, this.note);
    this.drawAll();
  }

  // ---- what the stream does

  appendText(text) {
    this.message.content += text;
    this.scheduleContent();
  }

  replaceText(text) {
    this.message.content = text;
    this.scheduleContent();
  }

  /** A status event: a new description is a new step and completes the earlier ones. */
  status(data) {
    const text = typeof data?.description === "string" ? data.description : "";
    const done = !!data?.done;
    const hidden = !!data?.hidden;
    const steps = this.message.steps;
    const last = steps.at(-1);
    if (last && last.state === "running" && last.text === text) {
      last.state = done ? "done" : "running";
      last.hidden = hidden;
    } else {
      for (const step of steps) if (step.state === "running") step.state = "done";
      if (text) steps.push({ text, state: done ? "done" : "running", hidden });
    }
    this.drawSteps();
  }

  /** A source (or citation) event in Open WebUI's shape; repeated sources are listed once. */
  source(data) {
    const meta = Array.isArray(data?.metadata) ? data.metadata[0] : undefined;
    const url = safeUrl(data?.source?.url) ?? safeUrl(meta?.source);
    const name = String(data?.source?.name ?? meta?.source ?? url ?? "Source");
    const doc = Array.isArray(data?.document) ? data.document.find((d) => typeof d === "string") : undefined;
    const snippet = doc ? (doc.length > 280 ? `${doc.slice(0, 280)}…` : doc) : "";
    if (this.message.sources.some((s) => s.name === name && s.url === url)) return;
    this.message.sources.push({ name, url, snippet });
    this.drawSources();
  }

  /** The end of the answer: `done`, `stopped` (the reader pressed stop) or `failed`. */
  finish(state, error) {
    for (const step of this.message.steps) if (step.state === "running") step.state = state === "done" ? "done" : "stopped";
    if (state === "stopped") this.message.stopped = true;
    if (state === "failed") this.message.error = error;
    this.setBusy(false);
    this.drawAll();
  }

  setBusy(busy) {
    this.root.classList.toggle("streaming", busy);
    this.root.setAttribute("aria-busy", String(busy));
  }

  // ---- drawing

  drawAll() {
    this.drawSteps();
    this.drawContent();
    this.drawSources();
    this.drawNote();
  }

  scheduleContent() {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => {
      this.pending = 0;
      this.drawContent();
    });
  }

  drawContent() {
    if (this.pending) {
      cancelAnimationFrame(this.pending);
      this.pending = 0;
    }
    // A redraw during the stream must not fold up a details block the reader opened.
    const open = [...this.content.querySelectorAll("details")].map((d) => d.open);
    this.content.replaceChildren(renderMarkdown(this.message.content));
    this.content.querySelectorAll("details").forEach((d, i) => {
      if (i < open.length) d.open = open[i];
    });
    this.content.hidden = this.message.content === "";
    this.onChange();
  }

  drawSteps() {
    const visible = this.message.steps.filter((s) => !s.hidden);
    this.steps.replaceChildren(
      ...visible.map((step) => {
        const item = el("li", `step ${step.state}`);
        item.append(el("span", "mark"), el("span", "text", step.text));
        if (step.state === "running") item.setAttribute("aria-current", "step");
        return item;
      }),
    );
    this.steps.hidden = visible.length === 0;
    this.onChange();
  }

  drawSources() {
    const sources = this.message.sources;
    this.sources.hidden = sources.length === 0;
    const list = el("ol", "source-list");
    for (const source of sources) {
      const item = el("li", "source");
      if (source.url) {
        const link = el("a", "source-name", source.name);
        link.href = source.url;
        link.target = "_blank";
        link.rel = "noopener noreferrer";
        item.append(link);
      } else {
        item.append(el("span", "source-name", source.name));
      }
      if (source.snippet) item.append(el("p", "snippet", source.snippet));
      list.append(item);
    }
    this.sources.replaceChildren(el("h2", "sources-title", "Sources"), list);
    this.onChange();
  }

  drawNote() {
    const { error, stopped } = this.message;
    this.note.className = error ? "note error" : "note";
    this.note.setAttribute("role", error ? "alert" : "note");
    this.note.textContent = error ? error : stopped ? "Stopped." : "";
    this.note.hidden = !error && !stopped;
    this.onChange();
  }
}
