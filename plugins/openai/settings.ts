/**
 * @module The settings svc:openai declares; the kernel merges them into its table when the plugin is loaded.
 */
import { setting, settingTypes } from "svc/plugin";

const { boolean, integer } = settingTypes;

export const openaiSettings = {
  filesMaxFileBytes: setting(integer(1, 16 * 1024 ** 3), {
    env: "SERVICE_FILES_MAX_FILE_BYTES",
    default: 25 * 1024 * 1024,
    help: "Largest file `POST /v1/files` takes (and largest inline `file_data`); larger files get 413.",
  }),
  filesMaxTotalBytes: setting(integer(1, 64 * 1024 ** 3), {
    env: "SERVICE_FILES_MAX_TOTAL_BYTES",
    default: 256 * 1024 * 1024,
    help: "Bytes the in-memory file store holds at most; uploads beyond it get 413 until files are deleted or expire.",
  }),
  filesTtl: setting(integer(0), {
    env: "SERVICE_FILES_TTL",
    default: 86_400,
    help: "Seconds an uploaded file lives (its `expires_at`); 0 keeps it until deleted.",
  }),
  openaiUiEvents: setting(boolean(), {
    env: "SERVICE_OPENAI_UI_EVENTS",
    default: true,
    help: "Send Open WebUI events in chat completion streams; turn off for plain OpenAI clients.",
  }),
};
