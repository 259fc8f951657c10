import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createKernel, definePlugin, HttpError, Logger, yamlStaging, type Kernel, type KernelOptions } from "svc/plugin";
import { type DeployStaging } from "svc/internal";
import { tempDir } from "../helpers/pipelines.js";

const quiet = new Logger("ERROR", () => undefined);

async function withKernel(plugins: KernelOptions["plugins"], fn: (k: Kernel, dir: string) => Promise<void>): Promise<void> {
  const dir = join(tempDir(), "pipelines");
  const kernel = await createKernel({ logger: quiet, plugins, settings: { pipelinesDir: dir } });
  try {
    await fn(kernel, dir);
  } finally {
    await kernel.close();
  }
}

test("a deploy source's failure names its plugin and hook; nothing stays on disk", () =>
  withKernel(
    [
      definePlugin({
        name: "acme-source",
        setup(kernel) {
          kernel.hooks.deploy.source("acme", async () => {
            throw new Error("acme cannot load this");
          });
        },
      }),
    ],
    async (k, dir) => {
      try {
        await k.deployer.deploy({ kind: "acme", name: "thing", source: "text" });
        assert.unreachable();
      } catch (error) {
        assert.instance(error, HttpError);
        const failure = error as HttpError;
        assert.is(failure.status, 422);
        assert.is(failure.message, "Failed to load pipeline 'thing': acme cannot load this");
        assert.is(failure.plugin, "acme-source");
        assert.is(failure.hook, "deploy.source");
      }
      assert.not.ok(existsSync(join(dir, "thing.yml")), "the staged file was rolled back");
      // The kernel's own `files` source is attributed to the kernel.
      try {
        await k.deployer.deploy({ kind: "files", name: "broken", files: { "pipeline_wrapper.ts": "syntax error (" } });
        assert.unreachable();
      } catch (error) {
        assert.is((error as HttpError).plugin, "svc:kernel");
      }
    },
  ));

test("a source kind stages with its own staging (the default: one text file like YAML)", async () => {
  const staged: unknown[] = [];
  const jsonStaging: DeployStaging = {
    ...yamlStaging,
    async stage(request, files, save) {
      const result = await yamlStaging.stage(request, files, save);
      staged.push(result.payload);
      return { payload: { parsed: JSON.parse((result.payload as { source: string }).source) }, installed: result.installed };
    },
  };
  const loaded = (name: string) => ({ description: name, wrapper: {}, capabilities: { api: true, chat: false, response: false }, skipMcp: false, requiresFiles: false });
  await withKernel(
    [
      definePlugin({
        name: "json-source",
        setup(kernel) {
          kernel.hooks.deploy.source("json", async (request) => {
            assert.equal(request.payload, { parsed: { a: 1 } });
            return loaded(request.name);
          }, jsonStaging);
          kernel.hooks.deploy.source("text", async (request) => {
            assert.equal(request.payload, { source: "plain" });
            return loaded(request.name);
          });
        },
      }),
    ],
    async (k, dir) => {
      await k.deployer.deploy({ kind: "json", name: "j", source: '{"a":1}' });
      assert.is(staged.length, 1);
      assert.is(readFileSync(join(dir, "j.yml"), "utf8"), '{"a":1}');
      await k.deployer.deploy({ kind: "text", name: "t", source: "plain", save: false });
      assert.ok(k.registry.has("j") && k.registry.has("t"));
    },
  );
});

test.run();
