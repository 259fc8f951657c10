import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSvc } from "../helpers/cli.js";
import { answerOf, pipelinesDirWith, taggedWrapper, untilServes } from "../helpers/cluster.js";
import { tempDir } from "../helpers/pipelines.js";

test("svc run --reload redeploys a wrapper when its files change, without a restart; a broken change keeps the last version", async () => {
  const dir = pipelinesDirWith({ greet: taggedWrapper("v1") });
  const svc = await startSvc(["run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", dir, "--reload"], {
    env: { XDG_CACHE_HOME: tempDir("svc-reload-cache-") },
    ms: 60_000,
  });
  try {
    assert.is(await answerOf(svc.url, "greet"), "v1");
    const mark = svc.output().length;
    writeFileSync(join(dir, "greet", "pipeline_wrapper.ts"), taggedWrapper("v2"));
    await untilServes(svc.url, "greet", "v2", 30_000);
    await svc.waitFor(/Redeployed 'greet': its files changed/, 10_000, mark);
    assert.not.match(svc.output().slice(mark), /restarting/, "redeployed in place");

    // A new folder is deployed; a broken edit is logged and v2 serves on.
    mkdirSync(join(dir, "added"));
    writeFileSync(join(dir, "added", "pipeline_wrapper.ts"), taggedWrapper("new"));
    await untilServes(svc.url, "added", "new", 30_000);
    writeFileSync(join(dir, "greet", "pipeline_wrapper.ts"), "export class PipelineWrapper { runApi( { syntax error");
    await svc.waitFor(/Could not deploy '.*greet'|Deploy of 'greet' failed/, 30_000, mark);
    assert.is(await answerOf(svc.url, "greet"), "v2");
    rmSync(join(dir, "added"), { recursive: true });
    await untilServes(svc.url, "added", "#404", 30_000);
    assert.is(await svc.stop("SIGTERM"), 0);
  } finally {
    await svc.stop("SIGKILL");
  }
});

test.run();
