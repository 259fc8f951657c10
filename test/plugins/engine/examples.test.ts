import { test } from "uvu";
import * as assert from "uvu/assert";
import { cpSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import enginePlugin from "svc/engine";
import { repoRoot } from "../../helpers/cli.js";
import { startPipelineKernel, tempDir } from "../../helpers/pipelines.js";
import { startOpenAIFixture } from "../../fixtures/openai-server.js";

/** A local web page for the fetcher, so no test reaches the internet. */
async function pageServer() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<html><body><nav>menu</nav><main><h1>svc</h1><p>svc serves pipelines on port 1416.</p></main></body></html>");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

test("the model examples deploy without a key and answer through any OpenAI-compatible server", async () => {
  const dir = join(tempDir(), "pipelines");
  cpSync(join(repoRoot, "pipelines"), dir, { recursive: true });
  const model = await startOpenAIFixture({ apiKey: "example-key" });
  const page = await pageServer();
  const saved = { key: process.env.OPENAI_API_KEY, base: process.env.OPENAI_BASE_URL };
  delete process.env.OPENAI_API_KEY;
  process.env.OPENAI_BASE_URL = model.url;
  const k = await startPipelineKernel({ dir, plugins: [enginePlugin()] });
  try {
    const { deployed, total } = await k.kernel.deployer.deployAll();
    assert.equal(deployed.sort(), ["chat_with_file", "chat_with_website", "chat_with_website_streaming", "countdown", "docs_search", "file_summary", "semantic_search", "text_stats", "ui_events_demo", "weather_agent"]);
    assert.is(total, 10);

    const noKey = await k.run("chat_with_website", { urls: [page.url], query: "Which port?" });
    assert.is(noKey.status, 500);
    assert.match(noKey.body.error.message, /OPENAI_API_KEY/);

    process.env.OPENAI_API_KEY = "example-key";
    model.script({ content: "Port 1416." });
    const yaml = await k.run("chat_with_website", { urls: [page.url], query: "Which port?" });
    assert.is(yaml.status, 200, JSON.stringify(yaml.body));
    assert.is(yaml.body.result.replies[0].content[0].text, "Port 1416.");
    const sent = JSON.stringify(model.requests.at(-1)!.body);
    assert.match(sent, /svc serves pipelines on port 1416/);
    assert.match(sent, /Which port\?/);
    assert.not.match(sent, /menu/);

    model.script({ content: "Streaming port 1416." });
    const streamed = await fetch(`${k.url}/chat_with_website_streaming/run`, { method: "POST", body: JSON.stringify({ urls: [page.url], question: "Which port?" }) });
    assert.is(await streamed.text(), "Streaming port 1416.");

    model.script([{ toolCalls: [{ id: "call_1", name: "get_weather", arguments: { city: "Berlin" } }] }, { content: "It is fine in Berlin." }]);
    const agent = await fetch(`${k.url}/weather_agent/run`, { method: "POST", body: JSON.stringify({ question: "Weather in Berlin?" }) });
    const text = await agent.text();
    assert.match(text, /\[calling get_weather…\]/);
    assert.match(text, /\[get_weather: \w+, \d+°C in Berlin\]/);
    assert.match(text, /It is fine in Berlin\./);
  } finally {
    process.env.OPENAI_BASE_URL = saved.base ?? "";
    if (saved.base === undefined) delete process.env.OPENAI_BASE_URL;
    if (saved.key === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved.key;
    await k.close();
    await page.close();
    await model.close();
  }
});

test("docs_search answers from the bundled documents with no API key", async () => {
  const dir = join(tempDir(), "pipelines");
  cpSync(join(repoRoot, "pipelines", "docs_search"), join(dir, "docs_search"), { recursive: true });
  const k = await startPipelineKernel({ dir, plugins: [enginePlugin()] });
  try {
    await k.kernel.deployer.deployAll();
    const res = await k.run("docs_search", { query: "client disconnects abort signal", top_k: 2 });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.result.passages.length, 2);
    assert.is(res.body.result.passages[0].source, "running.md");
    assert.match(res.body.result.passages[0].text, /AbortSignal fires/);
    assert.ok(readFileSync(join(dir, "docs_search", "docs", "engine.md"), "utf8").length > 0);
  } finally {
    await k.close();
  }
});

test.run();
