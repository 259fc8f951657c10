// A chat answer with Open WebUI events, and no model: the answer is scripted, so no API key is
// needed. Point Open WebUI at svc (see docs/openai.md, "Open WebUI") and pick "ui_events_demo": status steps appear
// above the answer, a source is cited, the text streams in, a collapsible details block follows and
// a toast says it is done. Plain OpenAI clients can turn the events off (SERVICE_OPENAI_UI_EVENTS).
import {
  BasePipelineWrapper,
  createDetailsTag,
  createNotificationEvent,
  createSourceEvent,
  createStatusEvent,
  getLastUserMessage,
  type ChatMessage,
  type RunContext,
} from "svc";

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });

export class PipelineWrapper extends BasePipelineWrapper {
  static description = "Streams a scripted chat answer with Open WebUI events (status, source, details, notification). No API key needed.";

  /** Milliseconds between streamed words (UI_EVENTS_DEMO_DELAY_MS; 0 in tests). */
  private delayMs = 40;

  setup(): void {
    const delay = Number(process.env.UI_EVENTS_DEMO_DELAY_MS);
    if (Number.isFinite(delay) && delay >= 0) this.delayMs = delay;
  }

  async *runChatCompletion(_model: string, messages: ChatMessage[], _body: Record<string, unknown>, ctx: RunContext) {
    const question = (getLastUserMessage(messages) ?? "").trim();
    // Open WebUI's side requests (title, tags, follow-ups) start with "### Task:": answer them in
    // the JSON they ask for, without events.
    if (question.startsWith("### Task:")) {
      yield sideAnswer(question);
      return;
    }
    yield createStatusEvent("Looking up the svc documentation...");
    await sleep(this.delayMs * 5, ctx.signal);
    yield createSourceEvent({
      // A page that exists: the events below are Open WebUI's (svc's own docs/openai.md explains them).
      source: { name: "Open WebUI documentation", url: "https://docs.openwebui.com/" },
      document: ["svc serves every pipeline with a chat method as an OpenAI model; wrappers may yield Open WebUI events."],
      metadata: [{ source: "docs/openai.md" }],
    });
    yield createStatusEvent("Writing the answer...");
    const answer = `You asked: "${question || "(nothing)"}". This answer is streamed word by word by the ui_events_demo pipeline, with status lines, a cited source, a details block and a notification along the way.`;
    for (const word of answer.split(/(?<= )/)) {
      if (ctx.signal.aborted) return;
      yield word;
      await sleep(this.delayMs, ctx.signal);
    }
    yield "\n\n";
    yield createDetailsTag("How this answer was made", "The wrapper yields strings (the text) and events made with `createStatusEvent`, `createSourceEvent` and `createNotificationEvent` from `svc`.");
    yield createNotificationEvent("Answer complete", "success");
    yield createStatusEvent("Done", true);
  }
}

function sideAnswer(task: string): string {
  if (/follow[- ]?up/i.test(task)) return JSON.stringify({ follow_ups: ["What are UI events?", "How do I add svc to Open WebUI?"] });
  if (/tags?/i.test(task) && !/title/i.test(task)) return JSON.stringify({ tags: ["svc", "demo"] });
  return JSON.stringify({ title: "svc UI events demo" });
}
