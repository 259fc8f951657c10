/**
 * @module The settings svc:chat-ui declares; the kernel merges them into its table when the plugin is loaded.
 */
import { setting, settingTypes } from "svc/plugin";

const { boolean, optionalText, pathPrefix } = settingTypes;

export const chatUiSettings = {
  chatUiEnabled: setting(boolean(), { env: "SERVICE_CHAT_UI_ENABLED", flag: "--with-chat-ui", default: false, help: "Serve the embedded chat UI." }),
  chatUiPath: setting(pathPrefix(), { env: "SERVICE_CHAT_UI_PATH", default: "/chat", help: "Where the chat UI is served." }),
  chatUiDefaultModel: setting(optionalText(), {
    env: "SERVICE_CHAT_UI_DEFAULT_MODEL",
    default: undefined,
    help: "Pipeline the chat UI selects first (else the only one, if there is one).",
  }),
};
