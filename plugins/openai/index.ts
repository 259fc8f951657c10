/**
 * @module svc:openai: the OpenAI-compatible endpoints. Chat completions (`POST /v1/chat/completions`
 * and `/chat/completions`), the models list (`GET /v1/models` and `/models`) and the Responses
 * endpoint (`POST /v1/responses` and `/responses`). Every call goes through the kernel's `run`
 * hook with transport `openai`, every streamed chunk through its `stream` hook.
 */
import { definePlugin, type KernelPlugin } from "svc";
import { registerChatRoutes } from "./chat.js";
import { registerModelRoutes } from "./models.js";
import { registerResponseRoutes } from "./responses.js";

export function openaiPlugin(): KernelPlugin {
  return definePlugin({
    name: "svc:openai",
    setup(kernel) {
      registerChatRoutes(kernel);
      registerModelRoutes(kernel);
      registerResponseRoutes(kernel);
    },
  });
}

export default openaiPlugin;

/** Helpers for wrappers implementing `runResponse` (import from "svc/openai"). */
export {
  getLastUserInputText,
  getInputFiles,
  chatMessagesFromOpenAIResponse,
  normalizeResponseInput,
  type ResponseInputItem,
} from "./response-input.js";
