/**
 * @module svc:chat-ui: the embedded chat UI. A page at `SERVICE_CHAT_UI_PATH` (default `/chat`)
 * that talks to the OpenAI-compatible endpoints of the same server: it lists pipelines from
 * `GET /v1/models`, streams answers from `POST /v1/chat/completions` and shows the pipeline's UI
 * events. Hand-written ES modules and CSS from `static/` (served by sirv), Markdown rendering by
 * the installed `marked` and `dompurify` packages; nothing comes from a CDN and nothing is built.
 * `svc run` loads it with `--with-chat-ui` (`SERVICE_CHAT_UI_ENABLED`).
 */
import { definePlugin, type KernelPlugin } from "svc/plugin";
import { registerChatUi } from "./routes.js";
import { chatUiSettings } from "./settings.js";

export { CHAT_UI_CSP } from "./page.js";

export function chatUiPlugin(): KernelPlugin {
  return definePlugin({
    name: "svc:chat-ui",
    settings: chatUiSettings,
    setup(kernel) {
      registerChatUi(kernel);
    },
  });
}

export default chatUiPlugin;
export { chatUiSettings } from "./settings.js";
