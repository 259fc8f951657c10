import { test } from "uvu";
import * as assert from "uvu/assert";
import { createKernel, KernelError, Logger } from "svc";
import templatePlugin from "../index.js";

const quiet = new Logger("ERROR", () => undefined);

async function start(options?: unknown) {
  const kernel = await createKernel({
    settings: { host: "127.0.0.1", port: 0 },
    plugins: [{ plugin: templatePlugin(), options }],
    logger: quiet,
  });
  const { port } = await kernel.listen();
  return { kernel, url: `http://127.0.0.1:${port}` };
}

test("serves its routes with the default options", async () => {
  const { kernel, url } = await start();
  try {
    assert.equal(await (await fetch(`${url}/template/hello?name=Ada`)).json(), { message: "Hello, Ada!" });
    const echo = await fetch(`${url}/template/echo`, { method: "POST", body: JSON.stringify({ text: "abc" }) });
    assert.equal(await echo.json(), { text: "abc", length: 3 });
    const bad = await fetch(`${url}/template/echo`, { method: "POST", body: JSON.stringify({ text: 1 }) });
    assert.is(bad.status, 400);
  } finally {
    await kernel.close();
  }
});

test("options change greeting and prefix; bad options stop the boot", async () => {
  const { kernel, url } = await start({ greeting: "Hi", prefix: "/tpl" });
  try {
    assert.equal(await (await fetch(`${url}/tpl/hello`)).json(), { message: "Hi, world!" });
    assert.is((await fetch(`${url}/template/hello`)).status, 404);
  } finally {
    await kernel.close();
  }
  try {
    await start({ prefix: "no-slash" });
    assert.unreachable();
  } catch (error) {
    assert.instance(error, KernelError);
    assert.match((error as Error).message, /Plugin 'svc-plugin-template' has invalid options: prefix: must start with \//);
  }
});

test("its run interceptor counts every invocation and failure", async () => {
  const { kernel, url } = await start();
  try {
    const call = { pipeline: "qa", method: "runApi", transport: "rest", input: {}, signal: new AbortController().signal };
    assert.is(await kernel.run(call, async () => "answer"), "answer");
    const failure = new Error("pipeline broke");
    try {
      await kernel.run(call, async () => {
        throw failure;
      });
      assert.unreachable();
    } catch (error) {
      assert.is(error, failure, "errors pass through unchanged");
    }
    const stats = (await (await fetch(`${url}/template/stats`)).json()) as { pipelines: Record<string, { runs: number; failures: number }> };
    assert.is(stats.pipelines.qa!.runs, 2);
    assert.is(stats.pipelines.qa!.failures, 1);
  } finally {
    await kernel.close();
  }
});

test.run();
