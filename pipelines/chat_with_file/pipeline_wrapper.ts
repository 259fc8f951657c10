// Chat with your file: upload a document (POST /v1/files, the chat UI's attach button, or inline in
// the message), then ask about it. The files a message refers to arrive as `ctx.files`; their text
// goes to an OpenAI-compatible model with the conversation, and the answer streams back. Needs
// OPENAI_API_KEY (and OPENAI_BASE_URL for any other OpenAI-compatible server: Ollama, vLLM, LM
// Studio…; CHAT_WITH_FILE_MODEL picks the model). Without a key it deploys and answers how to set one.
// Open WebUI extracts attached files itself and sends their text in a system message, which is
// passed on with the conversation, so attachments work from there too.
import * as v from "valibot";
import { BasePipelineWrapper, uploadedFiles, type ChatMessage as ChatMessageDict, type RunContext, type UploadedFile } from "svc";
import { ChatMessage, OpenAIChatGenerator, Pipeline, StreamingChunk, streamingGenerator } from "svc/engine";
import { chatMessagesFromOpenAIResponse } from "svc/openai";

/** Characters of file text sent to the model at most (all files together). */
const MAX_CHARS = 100_000;

const SYSTEM = `You answer questions about the user's attached files. Base your answer on their text, quote
it where useful, and say so when the files do not contain the answer.`;

const TEXT_TYPES = /^(text\/|application\/(json|jsonl|xml|yaml|x-yaml|csv|javascript|x-ndjson)\b)/;

/** A file's text for the prompt: text files as they are, anything else as a note (this example reads no PDFs). */
function textOf(file: UploadedFile): string {
  const text = file.text();
  // A file of another type is still read when it decodes as UTF-8 without control bytes.
  if (TEXT_TYPES.test(file.contentType) || !/[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text)) return text;
  return `(${file.contentType}, ${file.size} bytes: not a text file, so its content is not available here)`;
}

function documents(files: readonly UploadedFile[]): string {
  let budget = MAX_CHARS;
  return files
    .map((file) => {
      const text = textOf(file);
      const kept = text.slice(0, Math.max(0, budget));
      budget -= kept.length;
      const cut = kept.length < text.length ? `\n(… ${text.length - kept.length} more characters not shown)` : "";
      return `<file name="${file.filename.replaceAll('"', "'")}">\n${kept}${cut}\n</file>`;
    })
    .join("\n");
}

export class PipelineWrapper extends BasePipelineWrapper {
  static description = "Answers questions about uploaded files with an OpenAI-compatible model.";
  static inputSchema = v.object({
    question: v.pipe(v.string(), v.minLength(1), v.description("What to ask about the files.")),
    files: uploadedFiles(),
  });

  private pipeline!: Pipeline;

  setup(): void {
    const model = process.env.CHAT_WITH_FILE_MODEL ?? "gpt-4o-mini";
    this.pipeline = new Pipeline().addComponent("llm", new OpenAIChatGenerator({ model }));
  }

  /** REST: `curl -F question=… -F files=@report.txt …/chat_with_file/run`. */
  async *runApi(input: { question: string; files: UploadedFile[] }, ctx: RunContext) {
    yield* this.answer([ChatMessage.fromUser(input.question)], input.files, ctx.signal);
  }

  /** Chat completions: messages with `{type: "file", file: {file_id}}` parts. */
  async *runChatCompletion(_model: string, messages: ChatMessageDict[], _body: Record<string, unknown>, ctx: RunContext) {
    yield* this.answer(
      messages.map((m) => ChatMessage.fromOpenAI(m)),
      ctx.files,
      ctx.signal,
    );
  }

  /** Responses: input items with `{type: "input_file", file_id}` parts. */
  async *runResponse(_model: string, input: unknown[], _body: Record<string, unknown>, ctx: RunContext) {
    yield* this.answer(chatMessagesFromOpenAIResponse(input), ctx.files, ctx.signal);
  }

  private async *answer(conversation: ChatMessage[], files: readonly UploadedFile[], signal: AbortSignal) {
    if (!process.env.OPENAI_API_KEY) {
      const received = files.length ? ` I received ${files.map((f) => `'${f.filename}' (${f.size} bytes)`).join(", ")}.` : "";
      yield `chat_with_file needs a model to answer.${received} Set OPENAI_API_KEY (and OPENAI_BASE_URL to use another ` +
        "OpenAI-compatible server such as Ollama or vLLM) where svc runs, then ask again.";
      return;
    }
    const context = files.length ? `${SYSTEM}\n\nThe files:\n${documents(files)}` : `${SYSTEM}\n\nWhen the conversation holds no file text either, ask the user to attach a file.`;
    // Messages with no text (a message holding only a file part) are left out.
    const messages = [ChatMessage.fromSystem(context), ...conversation.filter((m) => m.text || m.toolCalls.length)];
    for await (const item of streamingGenerator({ pipeline: this.pipeline, pipelineRunArgs: { llm: { messages } }, signal })) {
      if (item instanceof StreamingChunk && item.content) yield item.content;
    }
  }
}
