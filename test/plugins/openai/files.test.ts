import { test } from "uvu";
import * as assert from "uvu/assert";
import { NotFoundError, BadRequestError, toFile } from "openai";
import { chatWrapper, withChatKernel } from "./chat-helpers.js";

/** A wrapper answering with what `ctx.files` holds, on the chat and Responses endpoints. */
const FILES_ECHO = chatWrapper(`
  describe(ctx) {
    return JSON.stringify(ctx.files.map((f) => ({ id: f.id ?? null, filename: f.filename, type: f.contentType, bytes: f.size, text: f.text() })));
  }
  runChatCompletion(model, messages, body, ctx) { return this.describe(ctx); }
  runResponse(model, input, body, ctx) { return this.describe(ctx); }`);

const multipart = (parts: Record<string, string | Blob>, filename = "notes.txt") => {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === "string") form.set(name, value);
    else form.set(name, value, filename);
  }
  return form;
};

test("the openai client uploads, lists, retrieves, downloads and deletes a file", () =>
  withChatKernel(async ({ client }) => {
    const before = Math.floor(Date.now() / 1000);
    const file = await client.files.create({ file: await toFile(Buffer.from("The launch code is 4711.\n"), "notes.txt"), purpose: "user_data" });
    assert.match(file.id, /^file-[0-9a-f]{24}$/);
    assert.is(file.object, "file");
    assert.is(file.bytes, 25);
    assert.is(file.filename, "notes.txt");
    assert.is(file.purpose, "user_data");
    assert.is(file.status, "processed");
    assert.ok(file.created_at >= before);
    assert.is(file.expires_at, file.created_at + 86_400, "the default SERVICE_FILES_TTL is a day");

    assert.equal(await client.files.retrieve(file.id), file);
    const other = await client.files.create({ file: await toFile(Buffer.from("{}"), "data.json"), purpose: "batch" });
    const listed = [];
    for await (const f of client.files.list()) listed.push(f.id);
    assert.equal(listed, [other.id, file.id], "newest first");
    const userData = await client.files.list({ purpose: "user_data" });
    assert.equal(userData.data.map((f) => f.id), [file.id]);
    const asc = await client.files.list({ order: "asc", limit: 1 });
    assert.equal(asc.data.map((f) => f.id), [file.id]);
    assert.is(asc.has_more, true);

    const content = await client.files.content(file.id);
    assert.is(await content.text(), "The launch code is 4711.\n");
    assert.is(content.headers.get("content-type"), "application/octet-stream");

    assert.equal(await client.files.delete(file.id), { id: file.id, object: "file", deleted: true });
    try {
      await client.files.retrieve(file.id);
      assert.unreachable("a deleted file is gone");
    } catch (error) {
      assert.instance(error, NotFoundError);
      assert.match((error as NotFoundError).message, new RegExp(`No such File object: ${file.id}`));
    }
  }));

test("a chat message's file part reaches the wrapper as ctx.files, by id or inline", () =>
  withChatKernel(async ({ client, deployChat }) => {
    await deployChat("reader", FILES_ECHO);
    const file = await client.files.create({ file: await toFile(Buffer.from("Line one\nLine two\n"), "doc.md"), purpose: "user_data" });
    const inline = `data:text/csv;base64,${Buffer.from("a,b\n1,2\n").toString("base64")}`;
    const reply = await client.chat.completions.create({
      model: "reader",
      messages: [
        { role: "user", content: [{ type: "text", text: "What does it say?" }, { type: "file", file: { file_id: file.id } }] },
        { role: "assistant", content: "It has two lines." },
        // The same file again, and one sent inline: each id counts once.
        { role: "user", content: [{ type: "file", file: { file_id: file.id } }, { type: "file", file: { file_data: inline, filename: "table.csv" } }] },
      ],
    });
    assert.equal(JSON.parse(reply.choices[0]!.message.content!), [
      { id: file.id, filename: "doc.md", type: "text/markdown", bytes: 18, text: "Line one\nLine two\n" },
      { id: null, filename: "table.csv", type: "text/csv", bytes: 8, text: "a,b\n1,2\n" },
    ]);

    const streamed = await client.chat.completions.create({
      model: "reader",
      stream: true,
      messages: [{ role: "user", content: [{ type: "file", file: { file_id: file.id } }] }],
    });
    let text = "";
    for await (const chunk of streamed) text += chunk.choices[0]?.delta.content ?? "";
    assert.is(JSON.parse(text)[0].text, "Line one\nLine two\n");

    const plain = await client.chat.completions.create({ model: "reader", messages: [{ role: "user", content: "no files" }] });
    assert.is(plain.choices[0]!.message.content, "[]");
  }));

test("a Responses input_file reaches the wrapper as ctx.files", () =>
  withChatKernel(async ({ client, deployChat }) => {
    await deployChat("reader", FILES_ECHO);
    const file = await client.files.create({ file: await toFile(Buffer.from("%PDF-1.4 fake"), "paper.pdf"), purpose: "user_data" });
    const response = await client.responses.create({
      model: "reader",
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "Summarise" },
            { type: "input_file", file_id: file.id },
            { type: "input_file", file_data: Buffer.from("hello").toString("base64"), filename: "hello.txt" },
          ],
        },
      ],
    });
    assert.equal(JSON.parse(response.output_text), [
      { id: file.id, filename: "paper.pdf", type: "application/pdf", bytes: 13, text: "%PDF-1.4 fake" },
      { id: null, filename: "hello.txt", type: "text/plain", bytes: 5, text: "hello" },
    ]);
  }));

test("unknown ids and bad inline data are client errors in the spec's body shape", () =>
  withChatKernel(async ({ client, url, deployChat }) => {
    await deployChat("reader", FILES_ECHO);
    const missing = "file-000000000000000000000000";
    for (const [method, path] of [
      ["GET", `/v1/files/${missing}`],
      ["GET", `/v1/files/${missing}/content`],
      ["DELETE", `/v1/files/${missing}`],
      ["GET", `/files/${missing}`],
    ] as const) {
      const res = await fetch(`${url}${path}`, { method });
      assert.is(res.status, 404, `${method} ${path}`);
      assert.equal(await res.json(), { error: { message: `No such File object: ${missing}`, type: "invalid_request_error", code: 404 } });
    }
    try {
      await client.chat.completions.create({ model: "reader", messages: [{ role: "user", content: [{ type: "file", file: { file_id: missing } }] }] });
      assert.unreachable("an unknown file id is refused");
    } catch (error) {
      assert.instance(error, NotFoundError);
    }
    try {
      await client.chat.completions.create({ model: "reader", messages: [{ role: "user", content: [{ type: "file", file: { file_data: "data:text/plain,not base64" } }] }] });
      assert.unreachable("a data URL that is not base64 is refused");
    } catch (error) {
      assert.instance(error, BadRequestError);
      assert.match((error as BadRequestError).message, /file_data/);
    }
    const res = await fetch(`${url}/v1/responses`, {
      method: "POST",
      body: JSON.stringify({ model: "reader", input: [{ role: "user", content: [{ type: "input_file", file_id: missing }] }] }),
    });
    assert.is(res.status, 404);
  }));

test("uploads without a file or purpose, with a bad purpose or not multipart are refused", () =>
  withChatKernel(async ({ url }) => {
    const post = async (body: BodyInit, headers?: Record<string, string>) => {
      const res = await fetch(`${url}/v1/files`, { method: "POST", body, headers });
      return { status: res.status, error: ((await res.json()) as { error: { message: string; type: string } }).error };
    };
    const noFile = await post(multipart({ purpose: "user_data" }));
    assert.is(noFile.status, 400);
    assert.match(noFile.error.message, /'file'/);
    assert.is(noFile.error.type, "invalid_request_error");
    const noPurpose = await post(multipart({ file: new Blob(["x"]) }));
    assert.is(noPurpose.status, 400);
    assert.match(noPurpose.error.message, /'purpose'/);
    const badPurpose = await post(multipart({ purpose: "everything", file: new Blob(["x"]) }));
    assert.is(badPurpose.status, 400);
    assert.match(badPurpose.error.message, /user_data/);
    const empty = await post(multipart({ purpose: "user_data", file: new Blob([]) }));
    assert.is(empty.status, 400);
    assert.match(empty.error.message, /empty/);
    const json = await post(JSON.stringify({ purpose: "user_data" }), { "content-type": "application/json" });
    assert.is(json.status, 415);
    // Nothing was stored by the refused uploads.
    const list = (await (await fetch(`${url}/v1/files`)).json()) as { data: unknown[] };
    assert.equal(list.data, []);
  }));

test("a file over SERVICE_FILES_MAX_FILE_BYTES, or one the full store cannot take, is a 413", () =>
  withChatKernel(
    async ({ client, url, deployChat }) => {
      await deployChat("reader", FILES_ECHO);
      const big = await fetch(`${url}/v1/files`, { method: "POST", body: multipart({ purpose: "user_data", file: new Blob(["x".repeat(101)]) }) });
      assert.is(big.status, 413);
      assert.match(((await big.json()) as { error: { message: string } }).error.message, /exceeds the limit of 100 bytes/);

      const first = await client.files.create({ file: await toFile(Buffer.alloc(100, 1), "a.bin"), purpose: "user_data" });
      const second = await fetch(`${url}/v1/files`, { method: "POST", body: multipart({ purpose: "user_data", file: new Blob(["y".repeat(60)]) }) });
      assert.is(second.status, 413);
      assert.match(((await second.json()) as { error: { message: string } }).error.message, /file store is full/);
      // Deleting makes room again.
      await client.files.delete(first.id);
      const third = await client.files.create({ file: await toFile(Buffer.alloc(60, 1), "b.bin"), purpose: "user_data" });
      assert.is(third.bytes, 60);
      assert.is(third.expires_at, null, "SERVICE_FILES_TTL=0 keeps files until deleted");

      const inline = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "reader", messages: [{ role: "user", content: [{ type: "file", file: { file_data: Buffer.alloc(101).toString("base64") } }] }] }),
      });
      assert.is(inline.status, 413, "an inline file has the same limit");
    },
    { settings: { filesMaxFileBytes: 100, filesMaxTotalBytes: 150, filesTtl: 0 } },
  ));

test.run();
