import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { createKernel, KernelError, Logger, mergeSettings, withSettingsTable, type KernelOptions } from "@svc-serve/svc/plugin";
import templatePlugin, { templateSettings } from "../index.js";
import { literal, packageName, templateRoot } from "./template-files.js";

const quiet = new Logger("ERROR", () => undefined);

async function start(options?: unknown, sources?: KernelOptions["sources"]) {
  const kernel = await createKernel({
    settings: { host: "127.0.0.1", port: 0 },
    sources,
    plugins: [{ plugin: templatePlugin(), options }],
    logger: quiet,
  });
  const { port } = await kernel.listen();
  return { kernel, url: `http://127.0.0.1:${port}` };
}

test("the plugin is named after its package (rename both: npm run rename -- <name>)", () => {
  assert.is(templatePlugin().name, packageName);
});

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
    assert.match((error as Error).message, new RegExp(`Plugin '${literal(packageName)}' has invalid options: prefix: must start with /`));
  }
});

const echo = (url: string, text: string) => fetch(`${url}/template/echo`, { method: "POST", body: JSON.stringify({ text }) });

test("its setting comes from the environment or the config file; a bad value stops the boot", async () => {
  const fromEnv = await start(undefined, { env: { TEMPLATE_MAX_ECHO_LENGTH: "3" } });
  try {
    assert.is((fromEnv.kernel.settings as Readonly<Record<string, unknown>>).templateMaxEchoLength, 3);
    assert.is((await echo(fromEnv.url, "abc")).status, 200);
    assert.is((await echo(fromEnv.url, "abcd")).status, 400);
  } finally {
    await fromEnv.kernel.close();
  }
  // By key or environment name in the config file; the environment wins over the file.
  for (const [values, env, limit] of [
    [{ templateMaxEchoLength: 5 }, {}, 5],
    [{ TEMPLATE_MAX_ECHO_LENGTH: "6" }, {}, 6],
    [{ templateMaxEchoLength: 5 }, { TEMPLATE_MAX_ECHO_LENGTH: "2" }, 2],
  ] as const) {
    const fromFile = await start(undefined, { config: { file: "svc.config.yaml", values }, env });
    try {
      assert.is((await echo(fromFile.url, "x".repeat(limit))).status, 200);
      assert.is((await echo(fromFile.url, "x".repeat(limit + 1))).status, 400);
    } finally {
      await fromFile.kernel.close();
    }
  }
  for (const [sources, message] of [
    [{ env: { TEMPLATE_MAX_ECHO_LENGTH: "many" } }, /Invalid setting TEMPLATE_MAX_ECHO_LENGTH \(from the environment\): got "many"; expected an integer from 1 to 1000000/],
    [{ config: { file: "svc.config.yaml", values: { templateMaxEchoLength: 0 } } }, /Invalid setting settings.templateMaxEchoLength \(from svc.config.yaml\): got 0; expected an integer from 1 to 1000000/],
  ] as const) {
    try {
      await start(undefined, sources);
      assert.unreachable();
    } catch (error) {
      assert.instance(error, KernelError);
      assert.match((error as Error).message, message);
    }
  }
});

test("the README's settings table is generated from the declaration", () => {
  const readme = readFileSync(`${templateRoot}README.md`, "utf8");
  assert.fixture(readme, withSettingsTable(readme, mergeSettings([{ owner: packageName, fields: templateSettings }])));
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
