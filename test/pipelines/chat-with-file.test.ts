import { test } from "uvu";
import * as assert from "uvu/assert";
import { cpSync } from "node:fs";
import { join } from "node:path";
import OpenAI, { toFile } from "openai";
import enginePlugin from "svc/engine";
import { openaiPlugin } from "../../plugins/openai/index.js";
import { repoRoot } from "../helpers/cli.js";
import { startPipelineKernel, tempDir } from "../helpers/pipelines.js";
import { startOpenAIFixture } from "../fixtures/openai-server.js";

const NOTES = "Meeting notes, 3 March.\nThe launch moved to Thursday.\nBudget: 12,000 EUR.\n";

test("chat_with_file: upload with the openai client, ask in a chat, the model gets the file's text", async () => {
  const dir = join(tempDir(), "pipelines");
  cpSync(join(repoRoot, "pipelines", "chat_with_file"), join(dir, "chat_with_file"), { recursive: true });
  const model = await startOpenAIFixture({ apiKey: "example-key" });
  const saved = { key: process.env.OPENAI_API_KEY, base: process.env.OPENAI_BASE_URL };
  delete process.env.OPENAI_API_KEY;
  process.env.OPENAI_BASE_URL = model.url;
  const k = await startPipelineKernel({ dir, plugins: [enginePlugin(), openaiPlugin()] });
  const client = new OpenAI({ baseURL: `${k.url}/v1`, apiKey: "any", maxRetries: 0 });
  try {
    const { deployed } = await k.kernel.deployer.deployAll();
    assert.equal(deployed, ["chat_with_file"]);
    const file = await client.files.create({ file: await toFile(Buffer.from(NOTES), "notes.txt"), purpose: "user_data" });
    const ask = (question: string) => [{ role: "user" as const, content: [{ type: "text" as const, text: question }, { type: "file" as const, file: { file_id: file.id } }] }];

    // No key: an answer that says what to set, not a failure.
    const noKey = await client.chat.completions.create({ model: "chat_with_file", messages: ask("When is the launch?") });
    assert.match(noKey.choices[0]!.message.content!, /Set OPENAI_API_KEY/);
    assert.match(noKey.choices[0]!.message.content!, /'notes\.txt' \(\d+ bytes\)/);
    assert.is(model.requests.length, 0, "no model call without a key");

    process.env.OPENAI_API_KEY = "example-key";
    model.script({ content: "The launch is on Thursday." });
    const stream = await client.chat.completions.create({ model: "chat_with_file", stream: true, messages: ask("When is the launch?") });
    let answer = "";
    for await (const chunk of stream) answer += chunk.choices[0]?.delta.content ?? "";
    assert.is(answer, "The launch is on Thursday.");
    const sent = model.requests.at(-1)!.body.messages as { role: string; content: string }[];
    assert.is(sent[0]!.role, "system");
    assert.ok(sent[0]!.content.includes(`<file name="notes.txt">\n${NOTES}\n</file>`), sent[0]!.content);
    assert.equal(sent.slice(1), [{ role: "user", content: "When is the launch?" }]);

    // The Responses endpoint, with the file's id in an input_file part.
    model.script({ content: "12,000 EUR." });
    const response = await client.responses.create({
      model: "chat_with_file",
      input: [{ role: "user", content: [{ type: "input_text", text: "What is the budget?" }, { type: "input_file", file_id: file.id }] }],
    });
    assert.is(response.output_text, "12,000 EUR.");
    assert.match(JSON.stringify(model.requests.at(-1)!.body.messages), /Budget: 12,000 EUR/);

    // REST: multipart question and files.
    model.script({ content: "On Thursday." });
    const form = new FormData();
    form.set("question", "When is the launch?");
    form.append("files", new Blob([NOTES], { type: "text/plain" }), "notes.txt");
    const rest = await fetch(`${k.url}/chat_with_file/run`, { method: "POST", body: form });
    assert.is(await rest.text(), "On Thursday.");

    // Open WebUI sends no file, only the text it extracted, in a system message: it is passed on.
    model.script({ content: "Thursday." });
    await client.chat.completions.create({
      model: "chat_with_file",
      messages: [
        { role: "system", content: '<context>\n<source id="1" name="notes.txt">The launch moved to Thursday.</source>\n</context>' },
        { role: "user", content: "When is the launch?" },
      ],
    });
    const fromWebUi = model.requests.at(-1)!.body.messages as { role: string; content: string }[];
    assert.equal(fromWebUi.map((m) => m.role), ["system", "system", "user"]);
    assert.match(fromWebUi[1]!.content, /<source id="1" name="notes.txt">/);

    // A binary file is named, not pasted.
    const binary = await client.files.create({ file: await toFile(Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0x01, 0x02]), "scan.pdf"), purpose: "user_data" });
    model.script({ content: "I cannot read it." });
    await client.chat.completions.create({ model: "chat_with_file", messages: [{ role: "user", content: [{ type: "text", text: "Read it" }, { type: "file", file: { file_id: binary.id } }] }] });
    assert.match(model.requests.at(-1)!.body.messages[0].content, /<file name="scan.pdf">\n\(application\/pdf, 7 bytes: not a text file/);
  } finally {
    if (saved.base === undefined) delete process.env.OPENAI_BASE_URL;
    else process.env.OPENAI_BASE_URL = saved.base;
    if (saved.key === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved.key;
    await k.close();
    await model.close();
  }
});

test.run();
