import { test } from "uvu";
import * as assert from "uvu/assert";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import authPlugin from "../../../plugins/auth/index.js";
import { addKey } from "../../../cli/auth.js";
import { until } from "../../helpers/http.js";
import { tempDir, withPipelineKernel } from "../../helpers/pipelines.js";

test("a keys file emptied or deleted keeps the keys in force (an error is logged) until a valid file appears; 'keys: []' revokes them", async () => {
  const file = join(tempDir("svc-auth-"), "keys.yaml");
  const admin = await addKey("ops", { scope: "admin", keysFile: file });
  await withPipelineKernel(
    async (k) => {
      const status = (key: string) => fetch(`${k.url}/undeploy/none`, { method: "POST", headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
      const logged = (pattern: RegExp, what: string) => until(() => k.logs.some((l) => pattern.test(l)), 10_000, what);
      assert.is(await status(admin), 404, "the key works (no such pipeline)");

      writeFileSync(file, "");
      await logged(/ERROR.*keys\.yaml is empty: the 1 key\(s\) in force stay until a valid file appears/, "the emptied file's error");
      assert.is(await status(admin), 404, "still in force after the file was emptied");

      rmSync(file);
      await logged(/ERROR.*keys\.yaml is gone: the 1 key\(s\) in force stay/, "the deleted file's error");
      assert.is(await status(admin), 404, "still in force after the file was deleted");

      const fresh = await addKey("fresh", { scope: "admin", keysFile: file });
      await logged(/API keys reloaded from .*: 1 key\(s\)/, "the new file");
      assert.is(await status(fresh), 404, "the new file's key works");
      assert.is(await status(admin), 401, "the old key is gone with the old file");

      writeFileSync(file, "keys: []\n");
      await logged(/API keys reloaded from .*: 0 key\(s\)/, "the explicit revocation");
      assert.is(await status(fresh), 401, "keys: [] revokes every key");
    },
    { settings: { authKeysFile: file }, plugins: [authPlugin()] },
  );
});

test.run();
