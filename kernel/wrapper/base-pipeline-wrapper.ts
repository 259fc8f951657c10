/**
 * @module BasePipelineWrapper: the class a `pipeline_wrapper.ts` extends. `setup()` builds the
 * pipeline once per deploy; each run method it implements opens a transport: `runApi` the REST
 * run endpoint (and the MCP tool), `runChatCompletion` the chat endpoints, `runResponse` the
 * Responses endpoint. Static fields describe it.
 */
import type * as v from "valibot";
import type { Logger } from "../logger.js";
import type { Span } from "../hooks/tracer.js";
import type { UploadedFile } from "./uploaded-file.js";

/** What every run method gets besides its input. */
export interface RunContext {
  readonly pipeline: string;
  /** Aborted when the client disconnects or the server shuts down: stop work when it fires. */
  readonly signal: AbortSignal;
  /** Uploaded files (also in `input.files` when the schema declares `files`). */
  readonly files: readonly UploadedFile[];
  readonly log: Logger;
  readonly span?: Span;
  readonly requestId?: string;
}

export interface ChatMessage {
  role: string;
  content?: unknown;
  [key: string]: unknown;
}

/** A file uploaded to `POST /v1/files`, as `runFileUpload` receives it. */
export interface FileUpload {
  /** The uploaded file's base name. */
  readonly filename: string;
  readonly contentType: string;
  readonly data: Buffer;
  /** The upload's `purpose` field (`user_data`, `assistants`, …). */
  readonly purpose: string;
}

/** A valibot object schema: the JSON body of `POST /{name}/run`. */
export type InputSchema = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined> | v.GenericSchema<unknown, Record<string, unknown>>;

export abstract class BasePipelineWrapper {
  /** The tool and operation description (defaults to the pipeline name). */
  static description?: string;
  /** Validates the run body; descriptions via `v.description`. Without one, any JSON object. */
  static inputSchema?: InputSchema;
  /** Describes `result` in OpenAPI. */
  static outputSchema?: v.GenericSchema;
  /** Keep this pipeline out of the MCP tool list. */
  static skipMcp?: boolean;
  /** Runs of this pipeline at once; more wait in a bounded queue, then get 429 (svc:limits). */
  static maxConcurrency?: number;
  /** A run's time limit in seconds: its signal is aborted and the caller gets 504 (svc:limits). */
  static timeoutSeconds?: number;

  /** Builds the pipeline; called once per deploy, with no arguments. */
  setup(): void | Promise<void> {}

  runApi?(input: any, ctx: RunContext): unknown;
  runChatCompletion?(model: string, messages: ChatMessage[], body: Record<string, unknown>, ctx: RunContext): unknown;
  runResponse?(model: string, input: unknown, body: Record<string, unknown>, ctx: RunContext): unknown;
  /**
   * Takes over `POST /v1/files` (Hayhooks' `run_file_upload`): stores the file where the wrapper
   * wants and returns its OpenAI file object (at least `id`; the other fields default to the
   * upload's). Not a run method: a wrapper still needs one of the three above.
   */
  runFileUpload?(file: FileUpload, ctx: RunContext): unknown;
}

/** The content of the last user message, or undefined. */
export function getLastUserMessage(messages: readonly ChatMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== "user") continue;
    if (typeof m.content === "string") return m.content;
    if (Array.isArray(m.content)) {
      return m.content
        .map((part) => (part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : ""))
        .join("");
    }
    return undefined;
  }
  return undefined;
}
