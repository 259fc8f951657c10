import { test } from "uvu";
import * as assert from "uvu/assert";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, startSvc } from "./helpers/cli.js";
import { startPipelineKernel, tempDir } from "./helpers/pipelines.js";
import enginePlugin from "svc/engine";
import pgvectorPlugin from "svc/pgvector";

test("the example pipelines deploy at startup and work without an API key", async () => {
  const dir = join(tempDir(), "pipelines");
  cpSync(join(repoRoot, "pipelines"), dir, { recursive: true });
  const k = await startPipelineKernel({ dir, plugins: [enginePlugin(), pgvectorPlugin()] }); // pgvector: the pgvector_* examples
  try {
    const { deployed, total } = await k.kernel.deployer.deployAll();
    assert.ok(["countdown", "file_summary", "text_stats", "ui_events_demo"].every((n) => deployed.includes(n)));
    assert.is(deployed.length, total, "every example deploys");

    const stats = await k.run("text_stats", { text: "The cat saw the other cat. Then it left!", top_n: 1 });
    assert.equal(stats.body, { result: { words: 9, characters: 40, sentences: 2, top_words: [{ word: "cat", count: 2 }] } });
    const invalid = await k.run("text_stats", { text: "", top_n: 0 });
    assert.is(invalid.status, 400);

    const countdown = await fetch(`${k.url}/countdown/run`, { method: "POST", body: JSON.stringify({ from: 3, delay_ms: 1 }) });
    assert.is(await countdown.text(), "3… 2… 1… liftoff!\n");

    const form = new FormData();
    form.set("preview_chars", "5");
    form.append("files", new Blob(["line one\nline two\n"], { type: "text/plain" }), "notes.txt");
    const summary = await fetch(`${k.url}/file_summary/run`, { method: "POST", body: form });
    assert.equal(await summary.json(), {
      result: { files: [{ name: "notes.txt", content_type: "text/plain", bytes: 18, lines: 3, preview: "line " }] },
    });
  } finally {
    await k.close();
  }
});

test("quick start: `svc run` in the repository serves the example pipelines", async () => {
  const svc = await startSvc(["run", "--host", "127.0.0.1", "--port", "0"], { cwd: repoRoot });
  try {
    const [, deployed, total] = /deployed (\d+)\/(\d+) pipelines/.exec(svc.output())!;
    assert.is(deployed, total, "every example deploys");
    const status = (await (await fetch(`${svc.url}/status`)).json()) as { pipelines: string[] };
    assert.is(status.pipelines.length, Number(total));
    const res = await fetch(`${svc.url}/text_stats/run`, { method: "POST", body: JSON.stringify({ text: "hello hello world" }) });
    assert.equal(((await res.json()) as { result: { words: number } }).result.words, 3);
    // The default plugins include the OpenAI endpoints: chat-capable examples are models.
    const models = (await (await fetch(`${svc.url}/v1/models`)).json()) as { data: { id: string }[] };
    assert.ok(models.data.some((m) => m.id === "ui_events_demo"), "ui_events_demo is a model");
  } finally {
    await svc.stop("SIGKILL");
  }
});

test.run();
