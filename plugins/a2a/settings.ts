/**
 * @module The settings svc:a2a declares; the kernel merges them into its table when the plugin is loaded.
 */
import { setting, settingTypes } from "svc/plugin";

const { boolean, integer, optionalText, text } = settingTypes;

export const a2aSettings = {
  a2aHost: setting(text(), { env: "SERVICE_A2A_HOST", flag: "--host", command: "svc a2a run", default: "localhost", help: "A2A server bind host." }),
  a2aPort: setting(integer(0, 65535), { env: "SERVICE_A2A_PORT", flag: "--port", command: "svc a2a run", default: 1418, help: "A2A server port." }),
  a2aExternalUrl: setting(optionalText(), {
    env: "SERVICE_A2A_EXTERNAL_URL",
    flag: "--external-url",
    command: "svc a2a run",
    default: undefined,
    help: "Base URL agent cards advertise (behind a proxy: the URL clients reach); default: the address the request came to.",
  }),
  a2aV03Compat: setting(boolean(), {
    env: "SERVICE_A2A_V0_3_COMPAT",
    default: true,
    help: "Also accept A2A spec 0.3 requests (a request without an `A2A-Version` header is 0.3) and serve 0.3 agent cards to them.",
  }),
};
