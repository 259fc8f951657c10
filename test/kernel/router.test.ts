import { test } from "uvu";
import * as assert from "uvu/assert";
import { Router, MAX_REMEMBERED_PATHS } from "../../kernel/http/router.js";
import { definePlugin } from "svc/plugin";
import { startKernel } from "../helpers/kernel.js";

const noMatch = () => undefined;
const newRouter = () => new Router(() => undefined, noMatch);

test("a remembered lookup gives each caller its own params; a route added later is found", () => {
  const router = newRouter();
  const handler = () => undefined;
  router.add("GET", "/things/:id", handler);
  const first = router.find("GET", "/things/a");
  first.params.id = "changed";
  assert.equal(router.find("GET", "/things/a").params, { id: "a" });
  assert.is(router.find("GET", "/late").handlers.length, 0);
  router.add("GET", "/late", handler);
  assert.equal(router.find("GET", "/late").handlers, [handler]);
  const mount = () => undefined;
  router.use("/static", mount);
  assert.is(router.find("GET", "/static/a.css").handlers.includes(mount), true, "a mount added later is found too");
});

test("a path ending in / matches only with its slash; others allow one trailing slash", () => {
  const router = newRouter();
  const strict = () => undefined;
  const loose = () => undefined;
  router.add("POST", "/:name/", strict);
  router.add("POST", "/:name/run", loose);
  assert.equal(router.find("POST", "/echo/").params, { name: "echo" });
  assert.equal(router.find("POST", "/echo/").handlers, [strict]);
  assert.equal(router.find("POST", "/echo").handlers, []);
  assert.equal(router.find("POST", "/echo/run").handlers, [loose]);
  assert.equal(router.find("POST", "/echo/run/").handlers, [loose]);
  assert.equal(router.find("POST", "/a/b/").handlers, []);
  router.add("GET", "/v1.x/:id/", strict);
  assert.equal(router.find("GET", "/v1.x/7/").params, { id: "7" });
  assert.equal(router.find("GET", "/v1yx/7/").handlers, [], "literal segments are matched literally");
});

test("the cache is bounded: many distinct paths still route right", () => {
  const router = newRouter();
  const handler = () => undefined;
  router.add("GET", "/n/:id", handler);
  for (let i = 0; i < MAX_REMEMBERED_PATHS * 2 + 5; i++) assert.equal(router.find("GET", `/n/${i}`).params, { id: String(i) });
  assert.equal(router.find("GET", "/n/0").handlers, [handler]);
});

test("a mount sees its path without the prefix; the request gets its path back after it", async () => {
  const router = newRouter();
  const seen: string[] = [];
  router.use("/files", (req, _res, next) => {
    seen.push(`${req.url} ${req.path}`);
    next();
  });
  router.add("GET", "/files/:name", (req, res) => {
    seen.push(`${req.url} ${req.params.name}`);
    res.end();
  });
  const res = { writableEnded: false, end() { this.writableEnded = true; } };
  router.handle({ method: "GET", url: "/files/a.txt?x=1" } as never, res as never);
  for (let i = 0; i < 50 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(seen, ["/a.txt?x=1 /a.txt", "/files/a.txt?x=1 a.txt"]);
});

test("a final handler alone takes its request, its throw reaches the error handler; after a mount, the mount runs first", () => {
  const errors: string[] = [];
  const seen: string[] = [];
  const final = (req: { params: Record<string, string> }) => {
    seen.push(`final ${req.params.name}`);
    if (req.params.name === "bad") throw new Error("no such pipeline");
  };
  const router = new Router((err) => errors.push((err as Error).message), noMatch);
  router.add("POST", "/:name/run", final, true);
  const res = () => ({ writableEnded: false, end() {} });
  router.handle({ method: "POST", url: "/adder/run" } as never, res() as never);
  router.handle({ method: "POST", url: "/bad/run" } as never, res() as never);
  assert.equal(seen, ["final adder", "final bad"]);
  assert.equal(errors, ["no such pipeline"]);
  const mounted = new Router((err) => errors.push((err as Error).message), noMatch);
  mounted.use("/", (_req, _res, next) => {
    seen.push("mount");
    next();
  });
  mounted.add("POST", "/:name/run", final, true);
  mounted.handle({ method: "POST", url: "/bad/run" } as never, res() as never);
  assert.equal(seen.slice(2), ["mount", "final bad"]);
  assert.equal(errors, ["no such pipeline", "no such pipeline"]);
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
