/**
 * @module The template's settings. svc reads them like its own (flags > environment > `.env` >
 * config file > defaults), validates them with the schema and lists them in its docs table; a
 * bad value stops startup with the variable, its source and what it accepts named.
 */
import { setting, settingTypes } from "@svc-serve/svc/plugin";

export const templateSettings = {
  templateMaxEchoLength: setting(settingTypes.integer(1, 1_000_000), {
    env: "TEMPLATE_MAX_ECHO_LENGTH",
    default: 10_000,
    help: "Longest text `POST <prefix>/echo` takes; a longer one gets 400.",
  }),
};
