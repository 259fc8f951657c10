import { test } from "uvu";
import * as assert from "uvu/assert";
import polka from "polka";
import { cacheRouteLookups } from "../../kernel/http/route-cache.js";
import { definePlugin } from "svc/plugin";
import { startKernel } from "../helpers/kernel.js";

test("a remembered lookup gives each caller its own params; forgetting finds routes added later", () => {
  const app = polka();
  const forget = cacheRouteLookups(app);
  const handler = () => undefined;
  app.add("GET", "/things/:id", handler);
  const first = app.find("GET", "/things/a");
  first.params.id = "changed";
  assert.equal(app.find("GET", "/things/a").params, { id: "a" });
  assert.is(app.find("GET", "/late").handlers.length, 0);
  app.add("GET", "/late", handler);
  forget();
  assert.equal(app.find("GET", "/late").handlers, [handler]);
});

test("a percent-encoded param is decoded once per request, however often its path is asked for", async () => {
  const k = await startKernel({
    plugins: [definePlugin({ name: "params", setup: (kernel) => kernel.route("GET", "/things/:id", (c) => ({ id: c.params.id })) })],
  });
  try {
    for (let i = 0; i < 3; i++) assert.equal(await (await fetch(`${k.url}/things/%2541`)).json(), { id: "%41" });
  } finally {
    await k.close();
  }
});

test.run();
