// The chat_with_website pipeline built in code instead of YAML, streaming the model's answer as it
// is generated. Works with any OpenAI-compatible server: OPENAI_API_KEY, and OPENAI_BASE_URL for a
// local one.
import * as v from "valibot";
import { BasePipelineWrapper, type ChatMessage as ChatMessageDict, type RunContext, getLastUserMessage } from "svc";
import { ChatPromptBuilder, HTMLToDocument, LinkContentFetcher, OpenAIChatGenerator, Pipeline, StreamingChunk, streamingGenerator } from "svc/engine";

const TEMPLATE = `{% message role="user" %}
According to the contents of these web pages:
{% for document in documents %}
{{ document.content }}
{% endfor %}
Answer the question: {{ query }}
{% endmessage %}`;

export class PipelineWrapper extends BasePipelineWrapper {
  static description = "Answers a question about web pages, streaming the answer.";
  static inputSchema = v.object({
    urls: v.pipe(v.array(v.pipe(v.string(), v.url())), v.minLength(1), v.description("The web pages to read.")),
    question: v.pipe(v.string(), v.minLength(1), v.description("The question to answer from them.")),
  });

  private pipeline!: Pipeline;

  setup(): void {
    this.pipeline = new Pipeline()
      .addComponent("fetcher", new LinkContentFetcher({ timeout: 5 }))
      .addComponent("converter", new HTMLToDocument())
      .addComponent("prompt", new ChatPromptBuilder({ template: TEMPLATE, required_variables: "*" }))
      .addComponent("llm", new OpenAIChatGenerator({ model: process.env.CHAT_WITH_WEBSITE_MODEL ?? "gpt-4o-mini" }))
      .connect("fetcher.streams", "converter.sources")
      .connect("converter.documents", "prompt.documents")
      .connect("prompt.prompt", "llm.messages");
  }

  async *runApi(input: { urls: string[]; question: string }, ctx: RunContext) {
    yield* this.answer(input.urls, input.question, ctx.signal);
  }

  /** Chat clients send the URLs in the message: every http(s) URL in it is read. */
  async *runChatCompletion(_model: string, messages: ChatMessageDict[], _body: Record<string, unknown>, ctx: RunContext) {
    const text = getLastUserMessage(messages) ?? "";
    const urls = text.match(/https?:\/\/\S+/g) ?? [];
    yield* this.answer(urls, text, ctx.signal);
  }

  private async *answer(urls: string[], question: string, signal: AbortSignal) {
    for await (const item of streamingGenerator({ pipeline: this.pipeline, pipelineRunArgs: { fetcher: { urls }, prompt: { query: question } }, signal })) {
      if (item instanceof StreamingChunk && item.content) yield item.content;
    }
  }
}
