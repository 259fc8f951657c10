/**
 * @module svc:openai: the OpenAI-compatible endpoints. Chat completions (`POST /v1/chat/completions`
 * and `/chat/completions`), the models list (`GET /v1/models` and `/models`) and the Responses
 * endpoint (`POST /v1/responses` and `/responses`), and the Files API (`/v1/files`) whose uploads
 * chat and Responses requests refer to (`ctx.files`). Every call goes through the kernel's `run`
 * hook with transport `openai`, every streamed chunk through its `stream` hook. With svc:runs
 * (RUN_STORE), responses are stored and may run in the background (`/v1/responses/{id}` …).
 */
import { OBJECT_STORE, REGISTRY, definePlugin, type KernelPlugin } from "svc/plugin";
import { RUN_STORE } from "svc/runs";
import type { BackgroundResponses } from "./background-responses.js";
import { FileUploadHandlers } from "./file-upload-handlers.js";
import { registerChatRoutes } from "./chat.js";
import { FILE_STORE, fileStoreOf, registerFileRoutes } from "./files.js";
import { registerModelRoutes } from "./models.js";
import { registerResponseRoutes } from "./responses.js";
import { openaiSettings } from "./settings.js";

export function openaiPlugin(): KernelPlugin {
  let background: BackgroundResponses | undefined;
  return definePlugin({
    name: "svc:openai",
    settings: openaiSettings,
    // Where uploads go: a host's FILE_STORE, else svc:object-store's store, else memory.
    // Stored and background responses: svc:runs' store when loaded (else responses are not stored).
    optional: [FILE_STORE, OBJECT_STORE, RUN_STORE],
    setup(kernel) {
      const files = fileStoreOf(kernel);
      registerChatRoutes(kernel, files);
      registerModelRoutes(kernel);
      background = registerResponseRoutes(kernel, files, kernel.optional(RUN_STORE));
      registerFileRoutes(kernel, files, new FileUploadHandlers(kernel, kernel.resolve(REGISTRY)).start());
    },
    async close() {
      await background?.close();
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

/** Files API: the store protocol (register one under `FILE_STORE` to replace it) and `ctx.files` entries. */
export { FILE_STORE, FILE_PURPOSES } from "./files.js";
export { MemoryFileStore, fileObject, type FileStore, type FileRecord, type NewFile } from "./file-store.js";
export { ChatFile } from "./file-parts.js";
export { openaiSettings } from "./settings.js";
