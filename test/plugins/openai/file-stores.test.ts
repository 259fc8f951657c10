import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI, { toFile } from "openai";
import { DEPLOY_STATE, OBJECT_STORE, type ObjectStore } from "svc/plugin";
import { createContainer, LocalDeployState } from "svc/internal";
import { objectStorePlugin } from "svc/object-store";
import { MemoryFileStore, openaiPlugin } from "../../../plugins/openai/index.js";
import { startPipelineKernel, type PipelineKernel } from "../../helpers/pipelines.js";
import { redisSkipReason, startRedis } from "../../helpers/redis.js";
import { chatWrapper } from "./chat-helpers.js";

const file = (text: string) => ({ filename: "a.txt", purpose: "user_data", contentType: "text/plain", data: Buffer.from(text) });

test("the memory store drops files after their TTL and frees their bytes", async () => {
  let now = 1_000_000;
  const store = new MemoryFileStore(10, 60, () => now);
  const a = await store.put(file("12345"));
  assert.is(a.expires_at, 1_000 + 60);
  now += 30_000;
  const b = await store.put(file("678"));
  assert.is(store.usedBytes, 8);
  assert.equal((await store.list()).map((r) => r.id), [a.id, b.id]);
  now += 30_000; // a is 60 s old: expired
  assert.is(await store.info(a.id), undefined);
  assert.is(await store.read(a.id), undefined);
  assert.is(await store.delete(a.id), false);
  assert.equal((await store.list()).map((r) => r.id), [b.id]);
  assert.is(store.usedBytes, 3);
  // The freed bytes take a new file that would not have fit before.
  await store.put(file("abcdefg"));
  assert.is(store.usedBytes, 10);
});

const READER = chatWrapper(`
  runChatCompletion(model, messages, body, ctx) { return ctx.files.map((f) => f.filename + ": " + f.text()).join("\\n"); }`);

async function objectStoreKernel(settings: Record<string, unknown>): Promise<PipelineKernel & { client: OpenAI }> {
  // The OpenAI plugin comes first: it finds the object store on its first request, whatever the order.
  const k = await startPipelineKernel({ plugins: [openaiPlugin(), objectStorePlugin()], settings: { filesTtl: 120, ...settings } });
  const res = await k.deploy({ name: "reader", files: { "pipeline_wrapper.ts": READER }, save_files: false, overwrite: true });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return { ...k, client: new OpenAI({ baseURL: `${k.url}/v1`, apiKey: "any", maxRetries: 0 }) };
}

test("with svc:object-store loaded, files live in the object store with the files' TTL", async () => {
  const k = await objectStoreKernel({ objectStoreTtl: 5 });
  try {
    const uploaded = await k.client.files.create({ file: await toFile(Buffer.from("stored text"), "kept.txt"), purpose: "user_data" });
    assert.is(uploaded.expires_at, uploaded.created_at + 120, "SERVICE_FILES_TTL, not OBJECT_STORE_TTL");
    const raw = await k.kernel.resolve(OBJECT_STORE).backend.get(uploaded.id);
    assert.ok(raw, "the file is an object-store entry");
    assert.is(JSON.parse(raw!).record.filename, "kept.txt");
    const reply = await k.client.chat.completions.create({ model: "reader", messages: [{ role: "user", content: [{ type: "file", file: { file_id: uploaded.id } }] }] });
    assert.is(reply.choices[0]!.message.content, "kept.txt: stored text");
    assert.equal((await k.client.files.list()).data.map((f) => f.id), [uploaded.id]);
    assert.is(await (await k.client.files.content(uploaded.id)).text(), "stored text");
    await k.client.files.delete(uploaded.id);
    assert.is(await k.kernel.resolve(OBJECT_STORE).backend.get(uploaded.id), undefined);
    assert.equal((await k.client.files.list()).data, []);
    // An object-store id is not a file.
    const objectId = await k.kernel.resolve(OBJECT_STORE).put({ some: "value" });
    assert.is((await fetch(`${k.url}/v1/files/${objectId}`)).status, 404);
  } finally {
    await k.close();
  }
});

const skip = redisSkipReason();
test("with a Redis object store, a file uploaded to one server is read by a chat on another", async () => {
  if (skip) return console.log(`file-stores.test: ${skip}`);
  const redis = await startRedis();
  const settings = { objectStoreBackend: "redis", objectStoreRedisUrl: redis.url };
  const a = await objectStoreKernel(settings);
  const b = await objectStoreKernel(settings);
  try {
    const uploaded = await a.client.files.create({ file: await toFile(Buffer.from("shared across workers"), "shared.txt"), purpose: "user_data" });
    const reply = await b.client.chat.completions.create({ model: "reader", messages: [{ role: "user", content: [{ type: "file", file: { file_id: uploaded.id } }] }] });
    assert.is(reply.choices[0]!.message.content, "shared.txt: shared across workers");
    assert.equal((await b.client.files.list()).data.map((f) => f.id), [uploaded.id]);
    await b.client.files.delete(uploaded.id);
    assert.is((await fetch(`${a.url}/v1/files/${uploaded.id}`)).status, 404);
  } finally {
    await a.close();
    await b.close();
    await redis.stop();
  }
});

test("the memory file store warns when the deploy state says several processes serve (not from a setting of the kernel)", async () => {
  const uploadOnce = async (mode: "single" | "workers") => {
    // The deploy state of `--workers` (the kernel's own would be `single`): what the warning reads.
    const state = new (class extends LocalDeployState {
      override health() {
        return { ...super.health(), mode };
      }
    })("test");
    const container = createContainer();
    container.register(DEPLOY_STATE, { useValue: state });
    const k = await startPipelineKernel({ plugins: [openaiPlugin()], container });
    try {
      const client = new OpenAI({ baseURL: `${k.url}/v1`, apiKey: "any", maxRetries: 0 });
      await client.files.create({ file: await toFile(Buffer.from("x"), "a.txt"), purpose: "user_data" });
      return k.logs.some((l) => l.includes("kept in each process's memory"));
    } finally {
      await k.close();
    }
  };
  assert.is(await uploadOnce("workers"), true);
  assert.is(await uploadOnce("single"), false);
});

test.run();
