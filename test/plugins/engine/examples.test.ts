import { test } from "uvu";
import * as assert from "uvu/assert";
import { cpSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import OpenAI from "openai";
import enginePlugin from "svc/engine";
import frameworksPlugin from "svc/frameworks";
import pgvectorPlugin from "svc/pgvector";
import { openaiPlugin } from "../../../plugins/openai/index.js";
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
  const k = await startPipelineKernel({ dir, plugins: [enginePlugin(), pgvectorPlugin(), frameworksPlugin()] });
  try {
    const { deployed, total } = await k.kernel.deployer.deployAll();
    assert.equal(deployed.sort(), [
      "ai_sdk_agent",
      "chat_with_file",
      "chat_with_website",
      "chat_with_website_streaming",
      "countdown",
      "docs_search",
      "file_summary",
      "langgraph_agent",
      "pgvector_indexing",
      "pgvector_rag",
      "semantic_search",
      "text_stats",
      "ui_events_demo",
      "weather_agent",
    ]);
    assert.is(total, 14);

    // Copied out of the project, the framework examples find no framework and say what to install.
    for (const [name, install] of [["ai_sdk_agent", "npm install ai @ai-sdk/openai"], ["langgraph_agent", "npm install @langchain/core"]]) {
      const missing = await k.run(name, { question: "Weather in Berlin?" });
      assert.is(missing.status, 503, JSON.stringify(missing.body));
      assert.ok(missing.body.error.message.includes(install), missing.body.error.message);
    }

    const noKey = await k.run("chat_with_website", { urls: [page.url], query: "Which port?" });
    assert.is(noKey.status, 500);
    assert.match(noKey.body.error.message, /OPENAI_API_KEY/);

    process.env.OPENAI_API_KEY = "example-key";
    model.script({ content: "Port 1416." });
    const yaml = await k.run("chat_with_website", { urls: [page.url], query: "Which port?" });
    assert.is(yaml.status, 200, JSON.stringify(yaml.body));
    assert.is(yaml.body.result.llm.replies[0].content[0].text, "Port 1416.");
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

test("the AI SDK and LangGraph.js examples stream an agent's tool call and answer through an OpenAI-compatible server", async () => {
  const model = await startOpenAIFixture({ apiKey: "example-key" });
  const saved = { key: process.env.OPENAI_API_KEY, base: process.env.OPENAI_BASE_URL };
  delete process.env.OPENAI_API_KEY;
  process.env.OPENAI_BASE_URL = model.url;
  const k = await startPipelineKernel({ plugins: [openaiPlugin(), frameworksPlugin()] });
  try {
    for (const name of ["ai_sdk_agent", "langgraph_agent"]) {
      // Deployed from the project's folder, where `npm install` put the frameworks.
      await k.kernel.deployer.deploy({ kind: "files", name, path: join(repoRoot, "pipelines", name), save: false });
      process.env.OPENAI_API_KEY = "";
      const noKey = await k.run(name, { question: "Weather in Berlin?" });
      assert.is(noKey.status, 503, JSON.stringify(noKey.body));
      assert.match(noKey.body.error.message, /set OPENAI_API_KEY/);

      process.env.OPENAI_API_KEY = "example-key";
      model.script([
        { toolCalls: [{ id: `call_${name}`, name: "get_weather", arguments: { city: "Berlin" } }], usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 } },
        { content: "It is fine in Berlin.", usage: { prompt_tokens: 30, completion_tokens: 6, total_tokens: 36 } },
      ]);
      const client = new OpenAI({ baseURL: `${k.url}/v1`, apiKey: "any", maxRetries: 0 });
      const stream = await client.chat.completions.create({ model: name, messages: [{ role: "user", content: "Weather in Berlin?" }], stream: true });
      let content = "";
      const calls: string[] = [];
      let usage: any;
      for await (const chunk of stream) {
        if (!chunk.choices) continue; // an Open WebUI status event
        content += chunk.choices[0]?.delta?.content ?? "";
        for (const call of chunk.choices[0]?.delta?.tool_calls ?? []) if (call.function?.name) calls.push(call.function.name);
        usage = chunk.usage ?? usage;
      }
      assert.is(content, "It is fine in Berlin.", name);
      assert.equal(calls, ["get_weather"], name);
      assert.is(usage?.total_tokens, 52, name);
      // The tool really ran: its answer went back to the model.
      assert.match(JSON.stringify(model.requests.at(-1)!.body), /\d+°C in Berlin/);
    }
  } finally {
    process.env.OPENAI_BASE_URL = saved.base ?? "";
    if (saved.base === undefined) delete process.env.OPENAI_BASE_URL;
    if (saved.key === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved.key;
    await k.close();
    await model.close();
  }
});

test("docs_search answers from the bundled documents with no API key", async () => {
  const dir = join(tempDir(), "pipelines");
  cpSync(join(repoRoot, "pipelines", "docs_search"), join(dir, "docs_search"), { recursive: true });
  const k = await startPipelineKernel({ dir, plugins: [enginePlugin(), pgvectorPlugin(), frameworksPlugin()] });
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
