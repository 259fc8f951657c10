/**
 * @module The settings svc:auth declares; the kernel merges them into its table when the plugin is loaded.
 */
import { setting, settingTypes } from "svc/plugin";

const { boolean, optionalText } = settingTypes;

export const authSettings = {
  authKeysFile: setting(optionalText(), {
    env: "SERVICE_AUTH_KEYS_FILE",
    default: undefined,
    help: "Keys file of the `svc:auth` plugin (YAML or JSON, hashes only); `svc auth add-key` writes it.",
  }),
  authProtectDocs: setting(boolean(), {
    env: "SERVICE_AUTH_PROTECT_DOCS",
    default: false,
    help: "With `svc:auth`, the OpenAPI document and the docs pages need a key too.",
  }),
};
