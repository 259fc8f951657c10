/**
 * @module svc:auth: optional API keys (off by default; on with `--plugin svc:auth` or the config
 * file). Keys live hashed in `SERVICE_AUTH_KEYS_FILE`; the plugin decides the `run`, `admin`,
 * `traces` and `docs` scopes on the kernel's `auth` hook, and checks a key's pipeline list on the
 * `run` hook too, for transports that learn the pipeline only from the body (chat completions,
 * Responses, MCP tool calls).
 */
import { HttpError, definePlugin, kernelErrors, type KernelPlugin } from "svc/plugin";
import { findKey, presentedKey } from "./api-keys.js";
import { KeyFile } from "./key-file.js";
import { decide, pipelineRefusal, principalOf } from "./policy.js";
import { authSettings } from "./settings.js";

export { hashKey, newKey, KEY_SCOPES, type ApiKey, type KeyScope } from "./api-keys.js";
export { checkKeys, readKeyFile, writeKeyFile } from "./key-file.js";

export default function authPlugin(): KernelPlugin {
  let file: KeyFile | undefined;
  return definePlugin({
    name: "svc:auth",
    settings: authSettings,
    async setup(kernel) {
      const path = kernel.settings.authKeysFile;
      if (!path) throw kernelErrors.settings("SERVICE_AUTH_KEYS_FILE", "svc:auth", path, "the path of the keys file (create one with `svc auth add-key`)");
      const keys = await KeyFile.open(path, kernel.log);
      file = keys;
      const options = { protectDocs: kernel.settings.authProtectDocs };
      kernel.log.info(`API keys required: ${keys.keys.length} key(s) from ${path}`);
      kernel.hooks.auth.tap(({ scope, req, state, pipeline }) => {
        const presented = presentedKey(req);
        const key = presented === undefined ? undefined : findKey(keys.keys, presented);
        const decision = decide(options, scope, presented, key, pipeline);
        // Who is asking, for what routes keep per caller (uploaded files, the models list).
        if (key && decision?.allow) state.principal = principalOf(key);
        return decision;
      });
      kernel.hooks.run.tap((call, next) => {
        const presented = call.headers && presentedKey({ headers: call.headers });
        const key = presented === undefined ? undefined : findKey(keys.keys, presented);
        const refused = key && pipelineRefusal(key, call.pipeline);
        if (refused && !refused.allow) throw new HttpError(refused.status, refused.message);
        return next();
      });
    },
    close() {
      file?.close();
    },
  });
}
export { authSettings } from "./settings.js";
