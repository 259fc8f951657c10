/**
 * @module `POST /chat/completions` and `POST /v1/chat/completions`: `model` names the pipeline and
 * its `runChatCompletion(model, messages, body, ctx)` runs through the kernel's `run` hook
 * (transport `openai`); `body` is the whole request, extra keys included. A body without `model`
 * or `messages` is a 400; an unknown model 404; a pipeline without the method 501; a wrapper
 * failure 500 `Pipeline execution failed: …`. Files the messages refer to reach it as `ctx.files`.
 */
import type { PluginApi, RequestContext } from "svc/plugin";
import { completeChat, streamChat, type ChatAnswerOptions } from "./chat-stream.js";
import { chatFileRefs, resolveFiles } from "./file-parts.js";
import type { FileStore } from "./file-store.js";
import { fileStoreOf } from "./files.js";
import { pipelineForModel } from "./pipeline-lookup.js";
import { takesUploads } from "./file-upload-handlers.js";
import { ChatCompletionRequest, ChatCompletionResponse } from "./schemas.js";
import type { openaiSettings } from "./settings.js";

export const CHAT_PATHS = ["/v1/chat/completions", "/chat/completions"] as const;

export function registerChatRoutes(kernel: PluginApi<typeof openaiSettings>, fileStore: () => FileStore = fileStoreOf(kernel)): void {
  const options: ChatAnswerOptions = {
    events: kernel.settings.openaiUiEvents,
    heartbeatMs: kernel.settings.sseHeartbeatMs,
    showTracebacks: kernel.settings.showTracebacks,
  };

  const handler = async (c: RequestContext): Promise<unknown> => {
    const body = await c.json(ChatCompletionRequest);
    const pipeline = pipelineForModel(kernel, c, body.model, "runChatCompletion", body.stream === true);
    const files = await resolveFiles(chatFileRefs(body.messages), fileStore, kernel.settings.filesMaxFileBytes, takesUploads(pipeline), c.state.principal);
    const events = body.stream ? options.events : false;
    const args = [body.model, body.messages, body];
    let invocation;
    try {
      invocation = await kernel.invoke({ pipeline, method: "runChatCompletion", transport: "openai", input: body, args, files, events, request: c });
      // The client left while the wrapper worked: answer nothing (closing below stops what it returned).
      if (c.signal.aborted) return undefined;
      if (body.stream) return await streamChat(c, invocation, body.model, options);
      return await completeChat(invocation, body.model);
    } catch (error) {
      // The client went away: there is no one to answer, and the abort is not a server error.
      if (c.signal.aborted) {
        c.log.debug(`Chat completion of '${pipeline.name}' ended after the client disconnected`);
        return undefined;
      }
      throw error;
    } finally {
      invocation?.close();
    }
  };

  for (const [i, path] of CHAT_PATHS.entries()) {
    kernel.route("POST", path, handler, {
      scope: "run",
      docs: {
        operationId: i === 0 ? "openai_chat_completions" : "openai_chat_completions_alias",
        summary: "OpenAI-compatible chat completion (streaming with `stream: true`)",
        description:
          "Runs the `runChatCompletion` method of the pipeline named by `model`. Extra request keys are accepted and passed to the wrapper in `body`.",
        tags: ["openai"],
        body: ChatCompletionRequest,
        response: ChatCompletionResponse,
      },
    });
  }
}
