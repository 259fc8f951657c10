import { test } from "uvu";
import * as assert from "uvu/assert";
import { createServer } from "node:net";
import {
  BadRequestError,
  PlatformClient,
  PlatformConnectionError,
  RequestTimeoutError,
  ResourceNotFoundError,
  UnexpectedApiError,
  DEFAULT_PLATFORM_API_URL,
  toPage,
} from "svc/platform";
import { startPlatformFixture, type PlatformFixture } from "../../fixtures/platform-server.js";
import { rejects } from "../../helpers/rejects.js";

let platform: PlatformFixture;
test.before(async () => {
  platform = await startPlatformFixture();
});
test.after(() => platform.close());

const client = (apiKey = "alice-key", timeoutMs?: number) => new PlatformClient({ apiKey, baseUrl: platform.url, timeoutMs });

test("sends the Bearer key, JSON and a user agent to the base URL; the default base URL is the public API", async () => {
  const me = await client().get("v1/users/me");
  assert.is(me.given_name, "Alice");
  const last = platform.requests.at(-1)!;
  assert.is(last.authorization, "Bearer alice-key");
  assert.is(last.path, "v1/users/me");
  assert.is(new PlatformClient({ apiKey: "k" }).baseUrl, DEFAULT_PLATFORM_API_URL);
  assert.is(new PlatformClient({ apiKey: "k", baseUrl: "http://x/api///" }).baseUrl, "http://x/api");
  assert.throws(() => new PlatformClient({ apiKey: "" }), /API key is required/);
});

test("a GET can carry a JSON body (component schemas)", async () => {
  const body = await client().requestJson("v1/haystack/components", { body: { domain: "deepset-cloud" } });
  assert.ok(body.component_schema.definitions.Components.PromptBuilder);
});

test("statuses map to typed errors whose messages carry the status", async () => {
  const notFound = await rejects(() => client().get("v1/workspaces/nope"), /Workspace 'nope' not found \(Status Code: 404\)/);
  assert.instance(notFound, ResourceNotFoundError);
  platform.failNext(/^v1\/workspaces$/, 400, { message: "bad filter", details: [{ code: "X" }] });
  const bad = await rejects(() => client().get("v1/workspaces"), /bad filter \(Status Code: 400\)/);
  assert.instance(bad, BadRequestError);
  assert.equal((bad as BadRequestError).detail, [{ code: "X" }]);
  platform.failNext(/^v1\/workspaces$/, 500, { message: "database down" });
  assert.instance(await rejects(() => client().get("v1/workspaces"), /database down \(Status Code: 500\)/), UnexpectedApiError);
  assert.instance(await rejects(() => client("wrong-key").get("v1/workspaces"), /Invalid or missing API key \(Status Code: 401\)/), UnexpectedApiError);
});

test("a slow answer times out with the call and the limit named; a refused connection fails at once", async () => {
  platform.slow(/^v1\/workspaces\/staging$/, 1000);
  const error = await rejects(() => client("alice-key", 100).get("v1/workspaces/staging"), /Request timed out after 0\.\d\ds \(limit: 0\.1s\): GET http/);
  assert.instance(error, RequestTimeoutError);
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
  const port = (closed.address() as { port: number }).port;
  await new Promise<void>((r) => closed.close(() => r()));
  const refused = await rejects(() => new PlatformClient({ apiKey: "k", baseUrl: `http://127.0.0.1:${port}/api` }).get("v1/users/me"), /Could not reach the platform/);
  assert.instance(refused, PlatformConnectionError);
});

test("pages carry the next cursor from the last item; `after` fetches the next page", async () => {
  const ws = platform.workspace("alice-key", "default");
  const first = toPage<any>(await client().get("v1/workspaces/default/pipelines", { limit: 2 }), "pipeline_id");
  assert.is(first.data.length, 2);
  assert.is(first.has_more, true);
  assert.is(first.total, ws.pipelines.length);
  assert.is(first.next_cursor, first.data[1].pipeline_id);
  const second = toPage<any>(await client().get("v1/workspaces/default/pipelines", { limit: 2, after: first.next_cursor }), "pipeline_id");
  assert.is(second.data[0].name, ws.pipelines[2]!.name);
  assert.is(second.next_cursor, second.has_more ? second.data.at(-1).pipeline_id : null);
  assert.equal(toPage({ data: [{ id: 1 }], has_more: false }, "id").next_cursor, null);
});

test("a cancelled call stops at once", async () => {
  platform.slow(/^v1\/users\/me$/, 1000);
  const controller = new AbortController();
  const call = client().get("v1/users/me", undefined, { signal: controller.signal });
  controller.abort(new Error("cancelled by the caller"));
  await rejects(() => call, /cancelled by the caller/);
});

test.run();
