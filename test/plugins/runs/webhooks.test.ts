/**
 * Completion webhooks of background runs: a loopback receiver verifies the Standard Webhooks
 * signature (with the standardwebhooks library, as a receiver would), gets the run after a 500 is
 * retried, and exactly one delivery per run with two instances on Redis; URLs the allow-list does
 * not name are refused at creation (400, nothing stored). The allow-list and signer on their own.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import runsPlugin, { WebhookAllowList, WebhookSigner } from "svc/runs";
import { startPipelineKernel, wrapper, type PipelineKernel } from "../../helpers/pipelines.js";
import { redisSkipReason, startRedis } from "../../helpers/redis.js";

const test = suite("run webhooks");
const SECRET = `whsec_${Buffer.from("a test key of 32 bytes, no more.").toString("base64")}`;
const ECHO = wrapper(`runApi(input: { q: string }) { if (input.q === "fail") throw new Error("no luck"); return { echo: input.q }; }`, `  static inputSchema = v.object({ q: v.string() });`);

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A loopback receiver answering the statuses of `answers` in turn (then 204). */
async function receiver(answers: number[] = []): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(answers.shift() ?? 204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, close: () => new Promise((r) => server.close(() => r())) };
}

async function kernelWith(settings: Record<string, unknown>): Promise<PipelineKernel> {
  const k = await startPipelineKernel({ plugins: [runsPlugin()], settings: { webhookSecret: SECRET, webhookRetrySeconds: 0.05, ...settings } });
  const res = await k.deploy({ name: "echo", files: { "pipeline_wrapper.ts": ECHO }, save_files: false, overwrite: true });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return k;
}

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, { method: "POST", body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};

async function until(ok: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
}

test("a completed run is POSTed to its webhook_url, signed; a 500 is retried with the same webhook-id", async () => {
  const hook = await receiver([500]);
  const k = await kernelWith({ webhookAllowedUrls: [`${hook.url}/hooks/`] });
  try {
    const created = await post(`${k.url}/echo/runs`, { q: "hi", webhook_url: `${hook.url}/hooks/runs?tag=1` });
    assert.is(created.status, 202, JSON.stringify(created.body));
    await until(() => hook.received.length >= 2);
    assert.is(hook.received.length, 2, "one 500, then the retry");
    const [first, second] = hook.received as [Received, Received];
    assert.is(first.headers["webhook-id"], created.body.id);
    assert.is(second.headers["webhook-id"], created.body.id);
    assert.is(second.headers["content-type"], "application/json");
    const verified = new Webhook(SECRET).verify(second.body, second.headers as Record<string, string>) as any;
    assert.is(verified.type, "run.completed");
    assert.equal(verified.data.result, { echo: "hi" });
    assert.is(verified.data.id, created.body.id);
    assert.is(verified.data.status, "completed");
    assert.is(verified.data.pipeline, "echo");
    assert.ok(verified.data.ended_at);
    assert.is("input" in verified.data, false);
    // A wrong key or a changed body does not verify.
    assert.throws(() => new Webhook(`whsec_${Buffer.from("another key").toString("base64")}`).verify(second.body, second.headers as Record<string, string>));
    assert.throws(() => new Webhook(SECRET).verify(second.body.replace("hi", "ho"), second.headers as Record<string, string>));
    const run = (await (await fetch(`${k.url}/runs/${created.body.id}`)).json()) as any;
    assert.is(run.metadata.webhook_url, `${hook.url}/hooks/runs?tag=1`);
    // A failed run is reported too; a 4xx answer is not retried.
    hook.received.length = 0;
    const failed = await post(`${k.url}/echo/runs`, { q: "fail", webhook_url: `${hook.url}/hooks/x` });
    await until(() => hook.received.length >= 1);
    const body = new Webhook(SECRET).verify(hook.received[0]!.body, hook.received[0]!.headers as Record<string, string>) as any;
    assert.is(body.data.id, failed.body.id);
    assert.is(body.type, "run.failed");
    assert.is(body.data.error.code, "pipeline_failed");
  } finally {
    await k.close();
    await hook.close();
  }
});

test("URLs the allow-list does not name are refused at creation (400, nothing stored); no allow-list or no secret refuses all", async () => {
  const hook = await receiver();
  const k = await kernelWith({ webhookAllowedUrls: [`${hook.url}/hooks`] });
  const open = await kernelWith({ webhookAllowedUrls: [] });
  const unsigned = await kernelWith({ webhookAllowedUrls: [hook.url], webhookSecret: undefined });
  try {
    for (const url of [`${hook.url}/other`, `${hook.url}/hooksx`, "http://169.254.169.254/latest/meta-data", "file:///etc/passwd", "not a url", `http://user:pw@${hook.url.slice(7)}/hooks`, 42]) {
      const res = await post(`${k.url}/echo/runs`, { q: "x", webhook_url: url });
      assert.is(res.status, 400, String(url));
      assert.match(res.body.error.message, /^Invalid request body: webhook_url: /);
      assert.is(res.body.error.type, "invalid_request_error");
    }
    const disabled = await post(`${open.url}/echo/runs`, { q: "x", webhook_url: `${hook.url}/hooks` });
    assert.is(disabled.status, 400);
    assert.match(disabled.body.error.message, /SERVICE_WEBHOOK_ALLOWED_URLS is empty/);
    const noSecret = await post(`${unsigned.url}/echo/runs`, { q: "x", webhook_url: `${hook.url}/hooks` });
    assert.is(noSecret.status, 400);
    assert.match(noSecret.body.error.message, /SERVICE_WEBHOOK_SECRET/);
    for (const server of [k, open, unsigned]) assert.equal(((await (await fetch(`${server.url}/runs`)).json()) as any).runs, []);
    // The schema still validates the rest of the body; webhook_url is not passed to the pipeline.
    assert.is((await post(`${k.url}/echo/runs`, { q: 1, webhook_url: `${hook.url}/hooks` })).status, 400);
    const ok = await post(`${k.url}/echo/runs`, { q: "x", webhook_url: `${hook.url}/hooks/a/b` });
    assert.is(ok.status, 202);
    await until(() => hook.received.length >= 1);
    assert.equal((JSON.parse(hook.received[0]!.body) as any).data.result, { echo: "x" });
  } finally {
    await Promise.all([k.close(), open.close(), unsigned.close()]);
    await hook.close();
  }
});

test("WebhookAllowList: origins and path prefixes at a segment boundary; bad entries throw naming the setting", () => {
  const list = new WebhookAllowList(["https://hooks.example.com", "http://10.0.0.5:8080/cb/", "https://example.com/in"]);
  assert.is(list.refusal("https://hooks.example.com/anything?x=1"), undefined);
  assert.is(list.refusal("https://HOOKS.example.com:443/a"), undefined);
  assert.is(list.refusal("http://hooks.example.com/a"), "the URL is not in SERVICE_WEBHOOK_ALLOWED_URLS");
  assert.is(list.refusal("https://hooks.example.com.evil.io/a"), "the URL is not in SERVICE_WEBHOOK_ALLOWED_URLS");
  assert.is(list.refusal("http://10.0.0.5:8080/cb/1"), undefined);
  assert.ok(list.refusal("http://10.0.0.5:8080/cb"));
  assert.ok(list.refusal("http://10.0.0.5/cb/1"));
  assert.is(list.refusal("https://example.com/in"), undefined);
  assert.is(list.refusal("https://example.com/in/x"), undefined);
  assert.ok(list.refusal("https://example.com/inbox"));
  assert.ok(list.refusal("https://example.com/x/../inbox"));
  assert.is(list.refusal("https://example.com/in/../x"), "the URL is not in SERVICE_WEBHOOK_ALLOWED_URLS");
  assert.ok(list.refusal(`https://hooks.example.com/${"a".repeat(3000)}`));
  assert.throws(() => new WebhookAllowList(["ftp://x"]), /SERVICE_WEBHOOK_ALLOWED_URLS: 'ftp:\/\/x'/);
  assert.throws(() => new WebhookAllowList(["hooks.example.com"]), /SERVICE_WEBHOOK_ALLOWED_URLS/);
  assert.is(new WebhookAllowList([]).enabled, false);
});

test("WebhookSigner: headers a Standard Webhooks receiver verifies, for whsec_ and raw secrets", () => {
  const body = JSON.stringify({ type: "run.completed", data: { id: "x" } });
  const headers = new WebhookSigner(SECRET).sign("msg_1", body);
  assert.equal(new Webhook(SECRET).verify(body, { ...headers }), JSON.parse(body));
  assert.match(headers["webhook-signature"], /^v1,[A-Za-z0-9+/]+=*$/);
  const raw = new WebhookSigner("plain text secret").sign("msg_2", body);
  assert.ok(new Webhook("plain text secret", { format: "raw" }).verify(body, { ...raw }));
  const old = new WebhookSigner(SECRET).sign("msg_3", body, new Date(Date.now() - 3_600_000));
  assert.throws(() => new Webhook(SECRET).verify(body, { ...old }), /too old/);
  assert.throws(() => new WebhookSigner("whsec_***"), /SERVICE_WEBHOOK_SECRET/);
});

const redisTest = suite("run webhooks on Redis");
const skip = redisSkipReason();

redisTest("two instances on one Redis: each run's webhook is delivered once, by the instance that ended it", async () => {
  if (skip) return console.log(skip);
  const redis = await startRedis();
  const hook = await receiver();
  const settings = { clusterRedisUrl: redis.url, webhookAllowedUrls: [hook.url] };
  const a = await kernelWith(settings);
  const b = await kernelWith(settings);
  try {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await post(`${(i % 2 ? a : b).url}/echo/runs`, { q: `n${i}`, webhook_url: `${hook.url}/r` })).body.id);
    await until(() => hook.received.length >= ids.length);
    // Time for a second delivery, had there been one (two instances finishing the same run).
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(hook.received.map((r) => r.headers["webhook-id"]).sort(), [...ids].sort());
  } finally {
    await Promise.all([a.close(), b.close()]);
    await hook.close();
    await redis.stop();
  }
});

test.run();
redisTest.run();
