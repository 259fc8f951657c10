import { test } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
import OpenAI, { toFile } from "openai";
import { objectStorePlugin } from "svc/object-store";
import type { KernelPlugin } from "svc/plugin";
import authPlugin from "../../../plugins/auth/index.js";
import { openaiPlugin } from "../../../plugins/openai/index.js";
import { addKey } from "../../../cli/auth.js";
import { rejects } from "../../helpers/rejects.js";
import { tempDir, withPipelineKernel, type PipelineKernel } from "../../helpers/pipelines.js";
import { chatWrapper } from "../openai/chat-helpers.js";

/** Answers with the names and texts of the files the request referred to. */
const FILES_ECHO = chatWrapper(`
  runChatCompletion(model, messages, body, ctx) { return JSON.stringify(ctx.files.map((f) => f.text())); }
  runResponse(model, input, body, ctx) { return JSON.stringify(ctx.files.map((f) => f.text())); }`);

interface Keys {
  alice: string;
  bob: string;
  admin: string;
}

async function withKeys(fn: (k: PipelineKernel, keys: Keys, client: (key: string) => OpenAI) => Promise<void>, plugins: KernelPlugin[] = []) {
  const file = join(tempDir("svc-auth-"), "keys.yaml");
  const keys = {
    alice: await addKey("alice", { scope: "run", pipelines: "reader", keysFile: file }),
    bob: await addKey("bob", { scope: "run", pipelines: "reader,other", keysFile: file }),
    admin: await addKey("ops", { scope: ["admin"], keysFile: file }),
  };
  await withPipelineKernel(
    async (k) => {
      for (const name of ["reader", "other", "third"]) {
        const res = await fetch(`${k.url}/deploy_files`, {
          method: "POST",
          headers: { authorization: `Bearer ${keys.admin}` },
          body: JSON.stringify({ name, files: { "pipeline_wrapper.ts": FILES_ECHO }, save_files: false }),
        });
        assert.is(res.status, 200);
      }
      await fn(k, keys, (key) => new OpenAI({ baseURL: `${k.url}/v1`, apiKey: key, maxRetries: 0, timeout: 10_000 }));
    },
    { settings: { authKeysFile: file }, plugins: [openaiPlugin(), authPlugin(), ...plugins] },
  );
}

const ids = (page: { data: { id: string }[] }) => page.data.map((f) => f.id).sort();

for (const [store, plugins] of [
  ["memory", []],
  ["object store", [objectStorePlugin()]],
] as const) {
  test(`with svc:auth (${store}), an uploaded file belongs to its key: others neither list, read, delete nor use it; admin sees all`, () =>
    withKeys(async (k, keys, client) => {
      const alice = client(keys.alice);
      const bob = client(keys.bob);
      const admin = client(keys.admin);
      const secret = await alice.files.create({ file: await toFile(Buffer.from("alice's secret"), "a.txt"), purpose: "user_data" });
      const own = await bob.files.create({ file: await toFile(Buffer.from("bob's notes"), "b.txt"), purpose: "user_data" });

      assert.equal(ids(await bob.files.list()), [own.id], "bob lists only his own file");
      assert.equal(ids(await alice.files.list()), [secret.id]);
      assert.equal(ids(await admin.files.list()), [own.id, secret.id].sort(), "admin lists every file");

      await rejects(() => bob.files.retrieve(secret.id), /^Error: 404 No such File object/);
      await rejects(() => bob.files.content(secret.id), /^Error: 404 No such File object/);
      await rejects(() => bob.files.delete(secret.id), /^Error: 404 No such File object/);
      const chat = (c: OpenAI, id: string) =>
        c.chat.completions.create({ model: "reader", messages: [{ role: "user", content: [{ type: "file", file: { file_id: id } }] }] });
      await rejects(() => chat(bob, secret.id), /^Error: 404 No such File object/);
      await rejects(() => bob.responses.create({ model: "reader", input: [{ role: "user", content: [{ type: "input_file", file_id: secret.id }] }] }), /^Error: 404 No such File object/);
      const raw = await fetch(`${k.url}/files/${secret.id}/content`, { headers: { "x-api-key": keys.bob } });
      assert.is(raw.status, 404, "the unversioned path too");

      assert.is((await chat(alice, secret.id)).choices[0]!.message.content, JSON.stringify(["alice's secret"]), "the owner uses it");
      assert.is((await alice.files.retrieve(secret.id)).filename, "a.txt");
      assert.is((await chat(admin, own.id)).choices[0]!.message.content, JSON.stringify(["bob's notes"]), "admin uses any file");
      assert.ok((await admin.files.delete(secret.id)).deleted, "admin deletes any file");
      await rejects(() => alice.files.retrieve(secret.id), /^Error: 404 No such File object/);
      assert.ok((await bob.files.delete(own.id)).deleted);
    }, [...plugins]));
}

test("with svc:auth, /v1/models lists only the pipelines a key may run (admin: all)", () =>
  withKeys(async (_k, keys, client) => {
    const names = async (key: string) => (await client(key).models.list()).data.map((m) => m.id).sort();
    assert.equal(await names(keys.alice), ["reader"]);
    assert.equal(await names(keys.bob), ["other", "reader"]);
    assert.equal(await names(keys.admin), ["other", "reader", "third"]);
  }));

test.run();
