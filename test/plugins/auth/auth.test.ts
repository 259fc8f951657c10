import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import authPlugin from "../../../plugins/auth/index.js";
import openapiPlugin from "../../../plugins/openapi/index.js";
import { openaiPlugin } from "../../../plugins/openai/index.js";
import { addKey } from "../../../cli/auth.js";
import { until } from "../../helpers/http.js";
import { rejects } from "../../helpers/rejects.js";
import { tempDir, withPipelineKernel, type PipelineKernel } from "../../helpers/pipelines.js";
import { chatWrapper } from "../openai/chat-helpers.js";
import mcpPlugin from "../../../plugins/mcp/index.js";
import { httpClient, text } from "../mcp/fixtures.js";

const ECHO = chatWrapper(`  runApi(input: any) { return input; }
  runChatCompletion(_m: string, messages: any[]) { return "Echo: " + getLastUserMessage(messages); }`);

interface Keys {
  file: string;
  run: string;
  admin: string;
  traces: string;
}

async function makeKeys(): Promise<Keys> {
  const file = join(tempDir("svc-auth-"), "keys.yaml");
  return {
    file,
    run: await addKey("runner", { scope: "run", pipelines: "echo", keysFile: file }),
    admin: await addKey("ops", { scope: ["admin"], keysFile: file }),
    traces: await addKey("grafana", { scope: "traces", keysFile: file }),
  };
}

async function withAuth(fn: (k: PipelineKernel, keys: Keys) => Promise<void>, settings: Record<string, unknown> = {}) {
  const keys = await makeKeys();
  await withPipelineKernel((k) => fn(k, keys), {
    settings: { authKeysFile: keys.file, ...settings },
    plugins: [openaiPlugin(), openapiPlugin(), authPlugin()],
  });
}

const call = (k: PipelineKernel, path: string, key: string | undefined, body?: unknown, header = "authorization") =>
  fetch(`${k.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: key === undefined ? {} : { [header]: header === "authorization" ? `Bearer ${key}` : key },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

const deployBody = (name: string) => ({ name, files: { "pipeline_wrapper.ts": ECHO }, save_files: false });

test("the keys file holds hashes only, private to its owner; add-key refuses a duplicate name or an unknown scope", async () => {
  const keys = await makeKeys();
  const text = readFileSync(keys.file, "utf8");
  for (const key of [keys.run, keys.admin, keys.traces]) {
    assert.match(key, /^svc_[A-Za-z0-9_-]{43}$/);
    assert.not.ok(text.includes(key), "never the key itself");
  }
  assert.match(text, /hash: sha256:[0-9a-f]{64}/);
  assert.is(statSync(keys.file).mode & 0o777, 0o600);
  await rejects(() => addKey("runner", { scope: "run", keysFile: keys.file }), /already exists/);
  await rejects(() => addKey("x", { scope: "root", keysFile: keys.file }), /unknown scope root/);
  await rejects(() => addKey("bad name", { scope: "run", keysFile: keys.file }), /name/);
});

test("run keys run, admin keys deploy; 401 without or with a wrong key, 403 without the scope or pipeline", () =>
  withAuth(async (k, keys) => {
    assert.is((await call(k, "/deploy_files", keys.admin, deployBody("echo"))).status, 200, "an admin key deploys");
    assert.is((await call(k, "/deploy_files", keys.admin, deployBody("other"))).status, 200);

    const client = new OpenAI({ baseURL: `${k.url}/v1`, apiKey: keys.run, maxRetries: 0 });
    const answer = await client.chat.completions.create({ model: "echo", messages: [{ role: "user", content: "hi" }] });
    assert.is(answer.choices[0]!.message.content, "Echo: hi", "the openai client's apiKey just works");
    assert.equal((await call(k, "/echo/run", keys.run, { a: 1 })).body, { result: { a: 1 } });
    assert.equal((await call(k, "/echo/run", keys.run, { a: 2 }, "x-api-key")).body, { result: { a: 2 } }, "x-api-key too");

    const noKey = await call(k, "/echo/run", undefined, {});
    assert.is(noKey.status, 401);
    assert.equal(noKey.body.error.type, "authentication_error");
    assert.match(noKey.body.error.message, /API key is required/);
    assert.is((await call(k, "/echo/run", "svc_wrong", {})).status, 401);
    await rejects(() => new OpenAI({ baseURL: `${k.url}/v1`, apiKey: "wrong", maxRetries: 0 }).chat.completions.create({ model: "echo", messages: [] }), /401/);

    const deploy = await call(k, "/deploy_files", keys.run, deployBody("evil"));
    assert.is(deploy.status, 403);
    assert.is(deploy.body.error.type, "permission_error");
    assert.match(deploy.body.error.message, /lacks the 'admin' scope/);
    assert.is((await call(k, "/undeploy/echo", keys.run, {})).status, 403);
    assert.is((await call(k, "/other/run", keys.run, {})).status, 403, "a pipeline outside its list, over REST");
    await rejects(() => client.chat.completions.create({ model: "other", messages: [{ role: "user", content: "x" }] }), /403/);
    assert.is((await call(k, "/other/run", keys.admin, {})).status, 200, "admin may run everything");
    assert.is((await call(k, "/v1/models", keys.traces)).status, 403, "a traces key does not run");
  }));

test("a key added while the server runs works without a restart; a broken file keeps the keys in force", () =>
  withAuth(async (k, keys) => {
    assert.is((await call(k, "/deploy_files", keys.admin, deployBody("echo"))).status, 200);
    const late = await addKey("late", { scope: "run", keysFile: keys.file });
    await until(() => k.logs.some((l) => l.includes("API keys reloaded")), 5000, "the reload");
    assert.is((await call(k, "/echo/run", late, {})).status, 200);
    writeFileSync(keys.file, "keys: [ {name: x} ]");
    await until(() => k.logs.some((l) => l.includes("API keys not reloaded")), 5000, "the refused reload");
    assert.is((await call(k, "/echo/run", late, {})).status, 200, "the previous keys stay in force");
  }));

test("the docs are public unless SERVICE_AUTH_PROTECT_DOCS; then any valid key reads them", async () => {
  await withAuth(async (k) => assert.is((await fetch(`${k.url}/openapi.json`)).status, 200));
  await withAuth(
    async (k, keys) => {
      assert.is((await fetch(`${k.url}/openapi.json`)).status, 401);
      assert.is((await call(k, "/openapi.json", keys.traces)).status, 200);
    },
    { authProtectDocs: true },
  );
});

test("MCP over Streamable HTTP: a run key lists only its pipelines and cannot deploy; an admin key sees every tool", async () => {
  const keys = await makeKeys();
  await withPipelineKernel(
    async (k) => {
      for (const name of ["echo", "other"]) assert.is((await call(k, "/deploy_files", keys.admin, deployBody(name))).status, 200);
      const runner = await httpClient(k.url, { authorization: `Bearer ${keys.run}` });
      const admin = await httpClient(k.url, { "x-api-key": keys.admin });
      try {
        const listed = (await runner.client.listTools()).tools.map((t) => t.name).sort();
        assert.equal(listed, ["echo", "get_all_pipeline_statuses", "get_pipeline_status"]);
        assert.equal(text(await runner.client.callTool({ name: "echo", arguments: { a: 1 } })), '{"a":1}');
        const other = await runner.client.callTool({ name: "other", arguments: {} });
        assert.ok(other.isError);
        assert.match(text(other), /not available to this caller/);
        const deploy = await runner.client.callTool({ name: "deploy_pipeline", arguments: { name: "evil", files: { "pipeline_wrapper.ts": ECHO } } });
        assert.ok(deploy.isError, "a run key cannot deploy over MCP either");
        const all = (await admin.client.listTools()).tools.map((t) => t.name);
        for (const name of ["echo", "other", "deploy_pipeline", "undeploy_pipeline"]) assert.ok(all.includes(name), name);
      } finally {
        await runner.client.close();
        await admin.client.close();
      }
      await rejects(() => httpClient(k.url, { authorization: "Bearer wrong" }), /401/);
    },
    { settings: { authKeysFile: keys.file }, plugins: [mcpPlugin(), authPlugin()] },
  );
});

test("svc:auth without a keys file stops startup with a clear message", async () => {
  await rejects(() => withPipelineKernel(async () => undefined, { plugins: [authPlugin()] }), /SERVICE_AUTH_KEYS_FILE/);
});

test("a wrapper that takes /v1/files uploads over is called only for keys that may run it", () =>
  withAuth(async (k, keys) => {
    const taker = chatWrapper(`  runApi() { return 1; }
  runFileUpload(file: any) { return { id: "custom-1" }; }`);
    assert.is((await call(k, "/deploy_files", keys.admin, { name: "uploads", files: { "pipeline_wrapper.ts": taker }, save_files: false })).status, 200);
    const upload = (key: string) => {
      const form = new FormData();
      form.append("file", new Blob(["x"]), "a.txt");
      form.set("purpose", "user_data");
      return fetch(`${k.url}/v1/files`, { method: "POST", body: form, headers: { authorization: `Bearer ${key}` } }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    };
    const refused = await upload(keys.run);
    assert.is(refused.status, 403, "the run key may run only 'echo'");
    assert.match(refused.body.error.message, "uploads");
    const allowed = await upload(keys.admin);
    assert.is(allowed.status, 200);
    assert.is(allowed.body.id, "custom-1");
  }));

test.run();
