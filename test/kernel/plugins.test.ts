import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { createContainer, loadPlugins } from "svc/internal";
import { createKernel, definePlugin, KernelError, token, type KernelOptions, type KernelPlugin } from "svc/plugin";
import { captureLogger } from "../helpers/kernel.js";
import { repoRoot } from "../helpers/cli.js";

async function bootFails(plugins: KernelOptions["plugins"], pattern: RegExp, code?: string) {
  try {
    await createKernel({ plugins, logger: captureLogger().logger });
    assert.unreachable("boot should fail");
  } catch (error) {
    assert.instance(error, KernelError);
    assert.match((error as Error).message, pattern);
    if (code) assert.is((error as KernelError).code, code);
  }
}

const recorder = (trail: string[], name: string, extra: Partial<KernelPlugin> = {}): KernelPlugin => ({
  name,
  setup: () => void trail.push(`setup:${name}`),
  close: () => void trail.push(`close:${name}`),
  ...extra,
});

test("plugins set up in order and close in reverse", async () => {
  const trail: string[] = [];
  const kernel = await createKernel({ plugins: [recorder(trail, "a"), recorder(trail, "b")], logger: captureLogger().logger });
  assert.equal(kernel.pluginNames, ["a", "b"]);
  await kernel.close();
  assert.equal(trail, ["setup:a", "setup:b", "close:b", "close:a"]);
});

test("options are validated by the plugin's schema before any setup", async () => {
  const trail: string[] = [];
  const withOptions = definePlugin({
    name: "greeter",
    options: v.object({ greeting: v.optional(v.string(), "hi"), times: v.number() }),
    setup: (_k, o) => void trail.push(`${o.greeting}x${o.times}`),
  });
  await bootFails([recorder(trail, "first"), { plugin: withOptions, options: { times: "2" } }], /Plugin 'greeter' has invalid options: times: Invalid type/);
  assert.equal(trail, [], "nothing was set up");
  const kernel = await createKernel({ plugins: [{ plugin: withOptions, options: { times: 2 } }], logger: captureLogger().logger });
  assert.equal(trail, ["hix2"]);
  await kernel.close();
});

test("a missing dependency is reported before any setup runs; a later one sets up first", async () => {
  const trail: string[] = [];
  await bootFails([recorder(trail, "a"), recorder(trail, "mcp", { dependsOn: ["engine"] })], /'mcp' depends on plugin 'engine', which is not loaded/, "KERNEL_ERR_PLUGIN_DEPENDENCY");
  assert.equal(trail, []);
  const kernel = await createKernel({ plugins: [recorder(trail, "mcp", { dependsOn: ["engine"] }), recorder(trail, "engine")], logger: captureLogger().logger });
  assert.equal(kernel.pluginNames, ["engine", "mcp"]);
  await kernel.close();
});

test("duplicate plugin names are refused", async () => {
  await bootFails([recorder([], "x"), recorder([], "x")], /Plugin 'x' is registered twice/, "KERNEL_ERR_PLUGIN_DUPLICATE");
});

test("a failing setup names the plugin and cause, and closes the plugins already set up", async () => {
  const trail: string[] = [];
  const broken: KernelPlugin = {
    name: "broken",
    setup: async () => {
      throw new Error("no database");
    },
  };
  await bootFails([recorder(trail, "a"), broken, recorder(trail, "never")], /Plugin 'broken' failed during setup: no database/, "KERNEL_ERR_PLUGIN_SETUP");
  assert.equal(trail, ["setup:a", "close:a"]);
});

test("a setup that never finishes times out", async () => {
  const hanging: KernelPlugin = { name: "hang", setup: () => new Promise(() => undefined) };
  try {
    await createKernel({ plugins: [hanging], setupTimeoutMs: 50, logger: captureLogger().logger });
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, /Plugin 'hang' failed during setup: setup did not finish within 50 ms/);
  }
});

test("provide: plugins share declared services; the host's registration wins; two providers conflict", async () => {
  const GREETER = token<{ greet(): string }>("test.greeter");
  const CLOCK = token<{ now(): number }>("test.clock");
  const provider = definePlugin({
    name: "provider",
    provides: [GREETER, CLOCK],
    setup(k) {
      k.provide(GREETER, { greet: () => "from plugin" });
      k.provide(CLOCK, { now: () => 1 });
    },
  });
  let seen = "";
  const consumer = definePlugin({ name: "consumer", needs: [GREETER], setup: (k) => void (seen = k.resolve(GREETER).greet()) });
  const container = createContainer();
  container.register(GREETER, { useValue: { greet: () => "from host" } });
  const kernel = await createKernel({ container, plugins: [provider, consumer], logger: captureLogger().logger });
  assert.is(seen, "from host");
  assert.is(kernel.resolve(CLOCK).now(), 1, "the host sees what plugins provide");
  await kernel.close();

  const again = definePlugin({ name: "again", provides: [CLOCK], setup: (k) => k.provide(CLOCK, { now: () => 2 }) });
  await bootFails([provider, again], /Plugins 'provider' and 'again' both provide svc.test.clock/, "KERNEL_ERR_TOKEN_DUPLICATE");
});

// ---- loading plugins from specs

const fixtures = join(repoRoot, "test/fixtures/plugins");

test("loads a TypeScript file, a folder with package.json, and a factory given options", async () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-plugins-"));
  mkdirSync(join(dir, "folder"));
  writeFileSync(join(dir, "folder/package.json"), JSON.stringify({ type: "module", exports: { ".": { import: "./main.mjs" } } }));
  writeFileSync(join(dir, "folder/main.mjs"), "export default { name: 'folder-plugin', setup() {} };\n");
  writeFileSync(
    join(dir, "factory.ts"),
    "import { definePlugin } from 'svc/plugin';\nexport default (o: { n: number }) => definePlugin({ name: `factory-${o.n}`, setup() {} });\n",
  );
  const entries = await loadPlugins(
    [
      { use: "./slow.ts", from: "test" },
      { use: join(dir, "folder"), from: "test" },
      { use: join(dir, "factory.ts"), options: { n: 7 }, from: "test" },
      { use: "./slow.ts", from: "test again" },
    ],
    { cwd: fixtures },
  );
  assert.equal(
    entries.map((e) => ("plugin" in e ? e.plugin.name : e.name)),
    ["fixture-slow", "folder-plugin", "factory-7"],
  );
});

test("built-in names resolve through the builtins table", async () => {
  const entries = await loadPlugins([{ use: "svc:demo", options: { a: 1 }, from: "test" }], {
    cwd: fixtures,
    builtins: { "svc:demo": async () => ({ name: "svc:demo", setup() {} }) },
  });
  assert.equal(entries, [{ plugin: (entries[0] as { plugin: KernelPlugin }).plugin, options: { a: 1 } }]);
});

test("load errors name the spec and the cause", async () => {
  const fails = async (use: string, pattern: RegExp, code: string) => {
    try {
      await loadPlugins([{ use, from: "test" }], { cwd: fixtures });
      assert.unreachable();
    } catch (error) {
      assert.is((error as KernelError).code, code);
      assert.match((error as Error).message, pattern);
    }
  };
  await fails("./missing.ts", /Plugin '.\/missing.ts' failed to load: no such file or directory/, "KERNEL_ERR_PLUGIN_LOAD");
  await fails("svc-no-such-package", /Plugin 'svc-no-such-package' failed to load: .*svc-no-such-package/, "KERNEL_ERR_PLUGIN_LOAD");
  await fails("./not-a-plugin.ts", /Plugin '.\/not-a-plugin.ts' is not a valid plugin: it has no name/, "KERNEL_ERR_PLUGIN_INVALID");
  const dir = mkdtempSync(join(tmpdir(), "svc-plugins-"));
  writeFileSync(join(dir, "syntax.ts"), "export default { name: 'x', setup( {\n");
  await fails(join(dir, "syntax.ts"), /failed to load/, "KERNEL_ERR_PLUGIN_LOAD");
});

test.run();
