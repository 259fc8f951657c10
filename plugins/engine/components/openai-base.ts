/**
 * @module What the OpenAI components (generators and embedders) share: their common init
 * parameters, the lazily created `openai` client, the Chat Completions call (plain, or streamed
 * chunk by chunk to a callback), any other API call (`callApi`) and the translation of the
 * client's failures into errors that name the component, the endpoint and the server's own message.
 */
import * as v from "valibot";
import type OpenAI from "openai";
import { traceHeaders } from "svc/plugin";
import { Component, warnerOf, type ComponentContext } from "../component.js";
import type { ChatMessage } from "../dataclasses/chat-message.js";
import { Secret, secretParameter } from "../dataclasses/secret.js";
import { ValueError } from "../pipeline/errors.js";
import type { StreamingCallback, StreamingChunk } from "../dataclasses/streaming-chunk.js";
import { Toolset } from "../toolset.js";
import { checkFinishReason, messageFromChunks, messagesFromCompletion, toStreamingChunk } from "./openai-conversion.js";

type OpenAISdk = typeof import("openai");
let sdk: OpenAISdk | undefined;
/** The SDK (~11 MB resident) is imported when a component first connects, not when svc starts. */
const loadSdk = async (): Promise<OpenAISdk> => (sdk ??= await import("openai"));

const OPENAI_BASE_URL = "https://api.openai.com/v1";

/** Init parameters of both generators (Haystack's names; `timeout` in seconds). */
export const openAIBaseEntries = {
  api_key: secretParameter("OPENAI_API_KEY"),
  /** Haystack 3's default (2.x used gpt-4o-mini). */
  model: v.optional(v.string(), "gpt-5-mini"),
  /** Default: `OPENAI_BASE_URL`, else OpenAI's. */
  api_base_url: v.nullish(v.string()),
  organization: v.nullish(v.string()),
  generation_kwargs: v.nullish(v.record(v.string(), v.unknown())),
  /** Seconds per attempt; default `OPENAI_TIMEOUT`, else 30. */
  timeout: v.nullish(v.pipe(v.number(), v.minValue(0))),
  /** Default `OPENAI_MAX_RETRIES`, else 5 (Haystack's default; the SDK's own is 2). */
  max_retries: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(0))),
  streaming_callback: v.nullish(v.function()),
  /** Accepted for Haystack YAML; httpx settings have no equivalent here. */
  http_client_kwargs: v.nullish(v.record(v.string(), v.unknown())),
};

export type OpenAIBaseParams = v.InferOutput<v.ObjectSchema<typeof openAIBaseEntries, undefined>>;

/** The request fields a generator chooses; model, stream and stream_options are added here. */
export type ChatRequest = Omit<OpenAI.ChatCompletionCreateParamsNonStreaming, "model" | "stream" | "stream_options"> & Record<string, unknown>;

/** The body stalled: no bytes for the whole time-out after the headers arrived. */
class BodyTimeoutError extends Error {}

function envNumber(name: string): number | undefined {
  const raw = process.env[name];
  const n = raw === undefined || raw.trim() === "" ? NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/**
 * The SDK's time-out ends when the response headers arrive; a server that then stops sending
 * would hang the run. This fetch also bounds every wait for body bytes (httpx's read time-out,
 * which is what Haystack's Python client gets).
 */
function fetchWithIdleTimeout(ms: number): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.body) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let timer: NodeJS.Timeout | undefined;
        const stalled = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new BodyTimeoutError(`no data for ${ms} ms`)), ms);
        });
        try {
          const { done, value } = await Promise.race([reader.read(), stalled]);
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (err) {
          reader.cancel(err).catch(() => {}); // closes the connection
          controller.error(err);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The deepest message of an error's cause chain ("connect ECONNREFUSED …" under "fetch failed"). */
function rootMessage(err: unknown): string {
  let current = err as { message?: string; cause?: unknown } | undefined;
  while (current && typeof current.cause === "object" && current.cause !== null) current = current.cause as typeof current;
  return current?.message ?? String(err);
}

export abstract class OpenAIBase<P extends OpenAIBaseParams = OpenAIBaseParams> extends Component<P> {
  /** The client and the endpoint settings it was made with (error messages quote them). */
  private connection?: { client: OpenAI; baseURL: string; timeoutSeconds: number; maxRetries: number };

  /** The client's settings once connected (Haystack's `client.timeout` / `client.max_retries`), else undefined. */
  get clientSettings(): { baseURL: string; timeoutSeconds: number; maxRetries: number } | undefined {
    if (!this.connection) return undefined;
    const { baseURL, timeoutSeconds, maxRetries } = this.connection;
    return { baseURL, timeoutSeconds, maxRetries };
  }

  /**
   * valibot skips an absent optional key without running secretParameter's transform, so a
   * missing `api_key` arrives as undefined: fall back to the default secret here.
   */
  protected get apiKey(): Secret {
    return this.initParameters.api_key ?? Secret.fromEnvVar("OPENAI_API_KEY");
  }

  private toolsWarmedUp = false;

  /**
   * Warms up the init tools once (a ComponentTool's component), then makes the client. Unlike
   * Haystack 3 this does not need the API key yet: a pipeline deploys without it and fails at run.
   */
  async warmUp(): Promise<void> {
    if (!this.toolsWarmedUp) {
      // Haystack's `warm_up_tools`: a Toolset warms itself (a lazy one loads its tools), a Tool its component.
      const tools = (this.initParameters as { tools?: Iterable<unknown> | null }).tools;
      const items = tools instanceof Toolset ? [tools] : [...(tools ?? [])];
      for (const item of items) await (item as { warmUp?: () => unknown } | null)?.warmUp?.();
      this.toolsWarmedUp = true;
    }
    await this.connect();
  }

  /** Haystack's generators write `generation_kwargs` as `{}` when none were given (embedders have none). */
  override toDict(): { type: string; init_parameters: Record<string, unknown> } {
    const dict = super.toDict();
    if ("generation_kwargs" in dict.init_parameters) dict.init_parameters.generation_kwargs ??= {};
    return dict;
  }

  /** Releases the client (Haystack's `close`); the next run or warm-up makes a new one. Safe without warm-up. */
  close(): void {
    this.connection = undefined;
  }

  /** Env defaults are read here, at warm-up or first run, not at construction. */
  protected async connect(): Promise<NonNullable<OpenAIBase["connection"]>> {
    const { default: OpenAI } = await loadSdk();
    if (!this.connection) {
      const init = this.initParameters;
      const baseURL = init.api_base_url || process.env.OPENAI_BASE_URL || OPENAI_BASE_URL;
      const timeoutSeconds = init.timeout ?? envNumber("OPENAI_TIMEOUT") ?? 30;
      const timeout = Math.round(timeoutSeconds * 1000); // the SDK wants whole milliseconds
      const maxRetries = init.max_retries ?? envNumber("OPENAI_MAX_RETRIES") ?? 5;
      const client = new OpenAI({
        // A function is called before every request: the key is read at run time, never kept
        // from construction, and a rotated key is picked up.
        apiKey: async () => this.apiKey.resolveValue() ?? "",
        baseURL,
        organization: init.organization ?? undefined,
        timeout,
        maxRetries,
        fetch: fetchWithIdleTimeout(timeout),
      });
      this.connection = { client, baseURL, timeoutSeconds, maxRetries };
    }
    return this.connection;
  }

  /**
   * The per-request options of every API call: the run's signal, and the W3C `traceparent` of the
   * component's span (nothing without a tracer), so the provider's side joins the trace.
   */
  protected requestOptions(ctx: ComponentContext): { signal: AbortSignal; headers?: Record<string, string> } {
    const headers = traceHeaders(ctx.span);
    return headers ? { signal: ctx.signal, headers } : { signal: ctx.signal };
  }

  /** `OpenAIChatGenerator 'llm'`, for error messages. */
  private label(ctx: ComponentContext): string {
    return `${this.constructor.name} '${ctx.name}'`;
  }

  /** Fails early, naming the variables to set, instead of the SDK's generic credentials error. */
  protected checkApiKey(ctx: ComponentContext): void {
    const secret = this.apiKey;
    let key: string | undefined;
    try {
      key = secret.resolveValue();
    } catch {
      key = undefined;
    }
    if (!key) {
      const names = secret.envVars.length ? secret.envVars.join(" or ") : "OPENAI_API_KEY";
      throw new Error(`${this.label(ctx)} has no OpenAI API key: set the environment variable ${names}, or pass api_key.`);
    }
  }

  /** One call of any OpenAI API with this component's client, its key checked and its failures described. */
  protected async callApi<T>(ctx: ComponentContext, call: (client: OpenAI) => Promise<T>): Promise<T> {
    this.checkApiKey(ctx);
    const { client } = await this.connect();
    try {
      return await call(client);
    } catch (err) {
      throw this.describe(err, ctx);
    }
  }

  /**
   * One Chat Completions call. With a callback the reply is streamed: every chunk goes to the
   * callback (awaited, so a slow consumer slows the stream rather than piling chunks up) and the
   * reply is rebuilt from the chunks.
   */
  protected async chat(request: ChatRequest, ctx: ComponentContext, callback?: StreamingCallback): Promise<ChatMessage[]> {
    this.checkApiKey(ctx);
    const { client } = await this.connect();
    const warn = warnerOf(ctx);
    // Haystack always sends `n` (1 unless generation kwargs say otherwise).
    const body = { ...request, model: this.initParameters.model, n: request.n ?? 1 };
    if (callback && typeof body.n === "number" && body.n > 1) throw new ValueError("Cannot stream multiple responses, please set n=1.");
    try {
      if (!callback) {
        const completion = await client.chat.completions.create({ ...body, stream: false }, this.requestOptions(ctx));
        const replies = messagesFromCompletion(completion, warn);
        for (const reply of replies) checkFinishReason(reply.meta, warn);
        return replies;
      }
      const streamOptions = { include_usage: true, ...(request.stream_options as object | undefined) };
      const stream = await client.chat.completions.create({ ...body, stream: true, stream_options: streamOptions }, this.requestOptions(ctx));
      const chunks: StreamingChunk[] = [];
      const componentInfo = { type: this.type, name: ctx.name };
      for await (const raw of stream) {
        const chunk = toStreamingChunk(raw, chunks, componentInfo);
        chunks.push(chunk);
        await callback(chunk);
      }
      // The SDK ends a stream quietly when it is aborted; a partial reply must not pass as whole.
      if (ctx.signal.aborted) throw ctx.signal.reason;
      const reply = messageFromChunks(chunks, warn);
      checkFinishReason(reply.meta, warn);
      return [reply];
    } catch (err) {
      throw this.describe(err, ctx);
    }
  }

  /** Called on failures after `connect()`, so the connection and the SDK's error classes are there. */
  protected describe(err: unknown, ctx: ComponentContext): unknown {
    const label = this.label(ctx);
    const { baseURL, timeoutSeconds } = this.connection!;
    const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = sdk!;
    if (ctx.signal.aborted) return ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error(`${label}: the request was aborted.`, { cause: err });
    if (err instanceof BodyTimeoutError || err instanceof APIConnectionTimeoutError) {
      return new Error(`${label}: the OpenAI API at ${baseURL} timed out (no answer within ${timeoutSeconds} s).`, { cause: err });
    }
    if (err instanceof APIUserAbortError) return new Error(`${label}: the request was aborted.`, { cause: err });
    if (err instanceof APIConnectionError) return new Error(`${label}: could not reach the OpenAI API at ${baseURL}: ${rootMessage(err)}`, { cause: err });
    if (err instanceof APIError && err.status) {
      const detail = (err.error as { message?: unknown } | undefined)?.message;
      const message = typeof detail === "string" ? detail : err.message;
      // `apiMessage`: the server's own words, which Haystack's messages quote.
      return Object.assign(new Error(`${label}: the OpenAI API answered ${err.status}: ${message}`, { cause: err }), { status: err.status, apiMessage: message });
    }
    return err;
  }
}
