/**
 * @module The settings svc:platform declares; the kernel merges them into its table when the plugin is loaded.
 */
import { setting, settingTypes } from "svc/plugin";

const { boolean, decimal, list, optionalText } = settingTypes;

export const platformSettings = {
  platformApiKey: setting(optionalText(), { env: "PLATFORM_API_KEY", default: undefined, help: "Static API key of the platform tools (setting it loads them in `svc mcp run`)." }),
  platformApiUrl: setting(optionalText(), {
    env: "PLATFORM_API_URL", shownDefault: "the public API",
    default: undefined,
    help: "Base URL of the platform API.",
  }),
  platformWorkspace: setting(optionalText(), {
    env: "PLATFORM_WORKSPACE",
    default: undefined,
    help: "Fixed workspace of the platform tools; unset adds a `workspace` argument to each tool.",
  }),
  platformApiKeyFromAuthHeader: setting(boolean(), {
    env: "PLATFORM_API_KEY_FROM_AUTH_HEADER",
    default: false,
    help: "Take each call's platform key from its `Authorization: Bearer` header (also loads the tools).",
  }),
  platformApiKeyAsFallback: setting(boolean(), {
    env: "PLATFORM_API_KEY_AS_FALLBACK",
    default: false,
    help: "With the key from the header, serve calls without an `Authorization` header with `PLATFORM_API_KEY` (else they are refused).",
  }),
  platformClientTimeout: setting(decimal(0.1, 3600), {
    env: "PLATFORM_CLIENT_TIMEOUT",
    default: 30,
    help: "Seconds a platform request may take in all (searches get 180).",
  }),
  platformTools: setting(list(), { env: "PLATFORM_TOOLS", shownDefault: "empty (all)", default: [], help: "Platform tools to register." }),
};
