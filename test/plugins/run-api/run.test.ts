import { test } from "uvu";
import * as assert from "uvu/assert";
import { definePlugin, DROP } from "svc/plugin";
import { withPipelineKernel, wrapper, type PipelineKernel } from "../../helpers/pipelines.js";
import { openRequest, until } from "../../helpers/http.js";

const withKernel = withPipelineKernel;

const deployOk = async (k: PipelineKernel, name: string, source: string) => {
  const res = await k.deploy({ name, files: { "pipeline_wrapper.ts": source }, save_files: false });
  assert.is(res.status, 200, JSON.stringify(res.body));
};

const typed = wrapper(
  `runApi(input: { question: string; top_k: number; tags?: string[] }) { return { echo: input.question, top_k: input.top_k, tags: input.tags ?? null }; }`,
  `  static inputSchema = v.object({
    question: v.pipe(v.string(), v.description("The question")),
    top_k: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 3),
    tags: v.optional(v.array(v.string())),
  });`,
);

test("the body is validated by the input schema; the result is {result}", () =>
  withKernel(async (k) => {
    await deployOk(k, "typed", typed);
    assert.equal((await k.run("typed", { question: "hi" })).body, { result: { echo: "hi", top_k: 3, tags: null } });
    assert.equal((await k.run("typed", { question: "hi", top_k: 5, extra: true })).body.result.top_k, 5);
    const bad = await k.run("typed", { question: 1, top_k: 0, tags: [1] });
    assert.is(bad.status, 400);
    const message: string = bad.body.error.message;
    assert.match(message, /^Invalid request body: /);
    for (const field of ["question", "top_k", "tags.0"]) assert.ok(message.includes(`${field}: `), `${field} in ${message}`);
    const notObject = await k.run("typed", [1, 2]);
    assert.is(notObject.status, 400);
    const malformed = await fetch(`${k.url}/typed/run`, { method: "POST", body: "{" });
    assert.is(malformed.status, 400);
  }));

test("without a schema any JSON object passes; an empty body is {}; undefined becomes null", () =>
  withKernel(async (k) => {
    await deployOk(k, "free", wrapper(`runApi(input: Record<string, unknown>) { return Object.keys(input).length ? input : undefined; }`));
    assert.equal((await k.run("free", { a: [1] })).body, { result: { a: [1] } });
    const empty = await fetch(`${k.url}/free/run`, { method: "POST" });
    assert.equal(await empty.json(), { result: null });
  }));

test("wrapper errors: 500 'Pipeline execution failed', HttpError passes through", () =>
  withKernel(async (k) => {
    await deployOk(k, "boom", wrapper(`runApi(input: { http?: boolean }) { if (input.http) throw new HttpError(422, "no answer found"); throw new Error("This is a test error"); }`));
    const res = await k.run("boom");
    assert.is(res.status, 500);
    assert.equal(res.body, { error: { message: "Pipeline execution failed: This is a test error", type: "server_error", code: 500 } });
    assert.ok(k.logs.some((l) => l.includes("Error: This is a test error") && l.includes("pipeline_wrapper")), "traceback logged");
    const http = await k.run("boom", { http: true });
    assert.is(http.status, 422);
    assert.is(http.body.error.message, "no answer found");
  }));

test("SERVICE_SHOW_TRACEBACKS adds the traceback to run errors", () =>
  withKernel(
    async (k) => {
      await deployOk(k, "boom", wrapper(`runApi() { throw new Error("kaput"); }`));
      const res = await k.run("boom");
      assert.match(res.body.error.message, /^Pipeline execution failed: kaput\nError: kaput\n\s+at /);
    },
    { settings: { showTracebacks: true } },
  ));

test("unknown pipelines and chat-only pipelines have no run endpoint", () =>
  withKernel(async (k) => {
    const unknown = await k.run("nobody");
    assert.is(unknown.status, 404);
    assert.is(unknown.body.error.message, "Pipeline 'nobody' not found");
    await deployOk(k, "chatty", wrapper(`runChatCompletion() { return "hi"; }`));
    const chat = await k.run("chatty");
    assert.is(chat.status, 404);
    assert.match(chat.body.error.message, /implements no runApi/);
  }));

test("an iterable result streams as chunked text, flushed per chunk", () =>
  withKernel(async (k) => {
    await deployOk(
      k,
      "words",
      wrapper(`async *runApi() {
    yield "streaming ";
    await new Promise((r) => ((globalThis as any).__next = r));
    yield "response ";
    yield { n: 1 };
    yield null;
    yield { event: { type: "status", data: { description: "x", done: true } } };
  }`),
    );
    const res = await fetch(`${k.url}/words/run`, { method: "POST", body: "{}" });
    assert.is(res.headers.get("content-type"), "text/plain; charset=utf-8");
    const reader = res.body!.getReader();
    assert.is(new TextDecoder().decode((await reader.read()).value), "streaming ", "first chunk before the generator continues");
    (globalThis as any).__next();
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    assert.is(rest, 'response {"n":1}');
    delete (globalThis as any).__next;
    assert.ok(k.logs.some((l) => l.includes("UI event was emitted in a run stream")));
  }));

test("sse() streams Server-Sent Events", () =>
  withKernel(async (k) => {
    await deployOk(k, "events", wrapper(`runApi() { return sse(["a", "two\\nlines", { k: 1 }]); }`));
    const res = await fetch(`${k.url}/events/run`, { method: "POST", body: "{}" });
    assert.is(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
    assert.is(await res.text(), 'data: a\n\ndata: two\ndata: lines\n\ndata: {"k":1}\n\n');
  }));

test("a client disconnect aborts a streaming run and closes its generator", () =>
  withKernel(async (k) => {
    await deployOk(
      k,
      "endless",
      wrapper(`async *runApi(_input: unknown, ctx: { signal: AbortSignal }) {
    const g = globalThis as any;
    g.__endless = { aborted: false, closed: false };
    ctx.signal.addEventListener("abort", () => (g.__endless.aborted = true));
    try {
      for (let i = 0; ; i++) { yield "tick "; await new Promise((r) => setTimeout(r, 20)); }
    } finally { g.__endless.closed = true; }
  }`),
    );
    const req = openRequest(`${k.url}/endless/run`, { method: "POST" });
    req.on("error", () => undefined);
    req.on("response", (res) => res.once("data", () => req.destroy()));
    req.end("{}");
    await until(() => (globalThis as any).__endless?.closed === true, 3000, "generator closed");
    assert.ok((globalThis as any).__endless.aborted, "ctx.signal aborted");
    delete (globalThis as any).__endless;
  }));

test("a file result is answered with its bytes and Content-Disposition", () =>
  withKernel(async (k) => {
    await deployOk(k, "png", wrapper(`runApi() { return fileResponse({ data: Buffer.from([137, 80, 78, 71]), contentType: "image/png", filename: "random_image.png" }); }`));
    const res = await fetch(`${k.url}/png/run`, { method: "POST", body: "{}" });
    assert.is(res.headers.get("content-type"), "image/png");
    assert.match(res.headers.get("content-disposition") ?? "", /filename="random_image.png"/);
    assert.equal([...new Uint8Array(await res.arrayBuffer())], [137, 80, 78, 71]);
  }));

const uploads = wrapper(
  `runApi(input: { test_param: string; count: number; meta: { k: string }; files: { filename: string; text(): string }[] }, ctx: { files: unknown[] }) {
    if (input.files.length === 0) return "No files received, param: " + input.test_param;
    return { names: input.files.map((f) => f.filename), first: input.files[0]!.text(), count: input.count, meta: input.meta, ctx: ctx.files.length };
  }`,
  `  static inputSchema = v.object({ test_param: v.string(), count: v.optional(v.number(), 0), meta: v.optional(v.object({ k: v.string() })), files: uploadedFiles() });`,
);

test("uploads: multipart with files and typed form fields", () =>
  withKernel(async (k) => {
    await deployOk(k, "upload", uploads);
    const none = new FormData();
    none.set("test_param", "test_value");
    assert.equal(await (await fetch(`${k.url}/upload/run`, { method: "POST", body: none })).json(), { result: "No files received, param: test_value" });
    const form = new FormData();
    form.set("test_param", "p");
    form.set("count", "3");
    form.set("meta", JSON.stringify({ k: "v" }));
    form.append("files", new Blob(["hello file"]), "test_file.txt");
    form.append("files", new Blob(["second"]), "docs/second.txt");
    const res = await fetch(`${k.url}/upload/run`, { method: "POST", body: form });
    assert.equal(await res.json(), { result: { names: ["test_file.txt", "docs/second.txt"], first: "hello file", count: 3, meta: { k: "v" }, ctx: 2 } });
    const badJson = new FormData();
    badJson.set("test_param", "p");
    badJson.set("meta", "{nope");
    const bad = await fetch(`${k.url}/upload/run`, { method: "POST", body: badJson });
    assert.is(bad.status, 400);
    assert.match(((await bad.json()) as any).error.message, /meta: expected JSON/);
    const missing = await fetch(`${k.url}/upload/run`, { method: "POST", body: new FormData() });
    assert.is(missing.status, 400);
    assert.match(((await missing.json()) as any).error.message, /test_param: /);
  }));

test("uploads: a JSON body is refused with 415; oversize files and uploads get 413", () =>
  withKernel(
    async (k) => {
      await deployOk(k, "upload", uploads);
      const json = await k.run("upload", { test_param: "x" });
      assert.is(json.status, 415);
      assert.match(json.body.error.message, /multipart\/form-data/);
      const big = new FormData();
      big.set("test_param", "p");
      big.append("files", new Blob(["x".repeat(3000)]), "big.txt");
      const file = await fetch(`${k.url}/upload/run`, { method: "POST", body: big });
      assert.is(file.status, 413);
      assert.match(((await file.json()) as any).error.message, /The file 'big.txt' exceeds the limit of 2000 bytes/);
      const many = new FormData();
      many.set("test_param", "p");
      for (let i = 0; i < 4; i++) many.append("files", new Blob(["y".repeat(1500)]), `f${i}.txt`);
      const total = await fetch(`${k.url}/upload/run`, { method: "POST", body: many });
      assert.is(total.status, 413);
      assert.match(((await total.json()) as any).error.message, /The upload exceeds the limit of 5000 bytes/);
    },
    { settings: { maxUploadFileBytes: 2000, maxUploadBytes: 5000 } },
  ));

test("every run goes through the run hook (transport rest) and streams through the stream hook", async () => {
  const seen: string[] = [];
  const observer = definePlugin({
    name: "observer",
    setup(kernel) {
      kernel.hooks.run.tap(async (call, next) => {
        seen.push(`${call.transport}:${call.pipeline}:${call.method}:${JSON.stringify(call.input)}`);
        return next();
      });
      kernel.hooks.stream.tap({ item: (item) => (item === "secret " ? DROP : typeof item === "string" ? item.toUpperCase() : item) });
    },
  });
  await withKernel(
    async (k) => {
      await deployOk(k, "hooked", wrapper(`*runApi() { yield "public "; yield "secret "; yield "end"; }`));
      const res = await fetch(`${k.url}/hooked/run`, { method: "POST", body: JSON.stringify({ q: 1 }) });
      assert.is(await res.text(), "PUBLIC END");
      assert.equal(seen, ['rest:hooked:runApi:{"q":1}']);
    },
    { plugins: [observer] },
  );
});

test("an interceptor that changes the input keeps the request's signal and id", async () => {
  const injector = definePlugin({
    name: "injector",
    setup(kernel) {
      kernel.hooks.run.tap(async (call, next) => next({ input: { ...(call.input as object), injected: true } }));
      kernel.hooks.run.tap(async (call, next) => next({ ...call, transport: call.transport + "+spread" }));
    },
  });
  await withKernel(
    async (k) => {
      await deployOk(
        k,
        "ctx",
        wrapper(`runApi(input: object, ctx: { signal: AbortSignal; requestId?: string; pipeline: string; files: unknown[] }) {
    return { input, signal: ctx.signal instanceof AbortSignal && !ctx.signal.aborted, id: typeof ctx.requestId, pipeline: ctx.pipeline, files: ctx.files.length };
  }`),
      );
      const res = await fetch(`${k.url}/ctx/run`, { method: "POST", body: JSON.stringify({ a: 1 }), headers: { "x-request-id": "req-42" } });
      assert.equal(await res.json(), { result: { input: { a: 1, injected: true }, signal: true, id: "string", pipeline: "ctx", files: 0 } });
    },
    { plugins: [injector] },
  );
});

test.run();
