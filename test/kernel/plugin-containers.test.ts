import { test } from "uvu";
import * as assert from "uvu/assert";
import { createKernel, definePlugin, KernelError, token, type KernelOptions, type KernelPlugin } from "svc/plugin";
import { createContainer, providerOf } from "svc/internal";
import { captureLogger } from "../helpers/kernel.js";

// Each plugin sets up over its own child container and declares the tokens it provides, needs and
// uses when present; the kernel checks and orders plugins from those declarations before any setup.

const STORE = token<{ get(): string }>("test.containers.store", "test:store");
const CACHE = token<{ size(): number }>("test.containers.cache", "test:cache");
const PRIVATE = token<string>("test.containers.private");

async function bootError(plugins: KernelOptions["plugins"], options: Omit<KernelOptions, "plugins"> = {}): Promise<KernelError> {
  try {
    const kernel = await createKernel({ plugins, logger: captureLogger().logger, ...options });
    await kernel.close();
  } catch (error) {
    assert.instance(error, KernelError);
    return error as KernelError;
  }
  throw new Error("boot should fail");
}

const storePlugin = (trail: string[] = []) =>
  definePlugin({
    name: "test:store",
    provides: [STORE],
    setup(k) {
      trail.push("setup:test:store");
      k.provide(STORE, { get: () => "stored" });
    },
  });

test("a needed token that no loaded plugin provides stops the boot, naming the plugin and the provider", async () => {
  const trail: string[] = [];
  const user = definePlugin({ name: "test:user", needs: [STORE], setup: () => void trail.push("setup:test:user") });
  const first = definePlugin({ name: "test:first", setup: () => void trail.push("setup:test:first") });
  const error = await bootError([first, user]);
  assert.is(error.code, "KERNEL_ERR_PLUGIN_DEPENDENCY");
  assert.match(error.message, /Plugin 'test:user' needs svc\.test\.containers\.store, which plugin 'test:store' provides: 'test:store' is not loaded/);
  assert.equal(trail, [], "checked before any setup");
  assert.is(providerOf(STORE), "test:store");

  // A token whose declaration names no provider: the message says nothing provides it.
  const orphan = token<number>("test.containers.orphan");
  const lonely = definePlugin({ name: "test:lonely", needs: [orphan], setup() {} });
  assert.match((await bootError([lonely])).message, /Plugin 'test:lonely' needs svc\.test\.containers\.orphan, which no loaded plugin provides and the host did not register/);
});

test("a need the host registered is met without a providing plugin", async () => {
  const container = createContainer();
  container.register(STORE, { useValue: { get: () => "host's" } });
  let seen = "";
  const user = definePlugin({ name: "test:user", needs: [STORE], setup: (k) => void (seen = k.resolve(STORE).get()) });
  const kernel = await createKernel({ container, plugins: [user], logger: captureLogger().logger });
  assert.is(seen, "host's");
  await kernel.close();
});

test("providers set up before the plugins that need them, otherwise in config order", async () => {
  const trail: string[] = [];
  const log = (name: string, extra: Partial<KernelPlugin> = {}): KernelPlugin => ({ name, setup: () => void trail.push(`setup:${name}`), ...extra });
  let seen = "";
  const user = log("test:user", { needs: [STORE], setup: (k) => void (trail.push("setup:test:user"), (seen = k.resolve(STORE).get())) });
  const watcher = log("test:watcher", { optional: [STORE] });
  const kernel = await createKernel({ plugins: [log("test:a"), user, watcher, log("test:b"), storePlugin(trail)], logger: captureLogger().logger });
  assert.equal(kernel.pluginNames, ["test:a", "test:store", "test:user", "test:watcher", "test:b"]);
  assert.equal(trail, ["setup:test:a", "setup:test:store", "setup:test:user", "setup:test:watcher", "setup:test:b"]);
  assert.is(seen, "stored");
  await kernel.close();

  // Two plugins that need each other's tokens have no order.
  const a = definePlugin({ name: "test:ca", provides: [CACHE], needs: [STORE], setup: (k) => k.provide(CACHE, { size: () => 0 }) });
  const b = definePlugin({ name: "test:cb", provides: [STORE], optional: [CACHE], setup: (k) => k.provide(STORE, { get: () => "" }) });
  const cycle = await bootError([a, b]);
  assert.is(cycle.code, "KERNEL_ERR_PLUGIN_CYCLE");
  assert.match(cycle.message, /Plugins 'test:ca', 'test:cb' need each other/);
});

test("an optional need that nothing provides leaves the plugin working without it", async () => {
  let seen: unknown = "unset";
  const user = definePlugin({
    name: "test:user",
    optional: [STORE],
    setup(k) {
      seen = k.optional(STORE);
      k.route("GET", "/store", () => ({ value: k.optional(STORE)?.get() ?? null }));
    },
  });
  const kernel = await createKernel({ plugins: [user], logger: captureLogger().logger });
  assert.is(seen, undefined);
  const { port } = await kernel.listen({ port: 0, host: "127.0.0.1" });
  try {
    const res = await fetch(`http://127.0.0.1:${port}/store`);
    assert.equal(await res.json(), { value: null });
  } finally {
    await kernel.close();
  }
  // The same plugin with the provider loaded gets the service.
  const withStore = await createKernel({ plugins: [user, storePlugin()], logger: captureLogger().logger });
  assert.equal((seen as { get(): string }).get(), "stored");
  await withStore.close();
});

test("a plugin cannot see another plugin's private registrations or undeclared tokens", async () => {
  const results: Record<string, unknown> = {};
  const owner = definePlugin({
    name: "test:owner",
    provides: [STORE],
    setup(k) {
      k.container.register(PRIVATE, { useValue: "secret" });
      k.provide(STORE, { get: () => "stored" });
      results.ownSees = k.resolve(PRIVATE);
    },
  });
  const other = definePlugin({
    name: "test:other",
    dependsOn: ["test:owner"],
    setup(k) {
      results.registered = k.container.isRegistered(PRIVATE, true);
      results.storeInContainer = k.container.isRegistered(STORE, true);
      for (const [key, read] of [["privateError", () => k.resolve(PRIVATE)], ["storeError", () => k.resolve(STORE)], ["optionalError", () => k.optional(STORE)]] as const) {
        try {
          read();
        } catch (error) {
          results[key] = (error as KernelError).message;
        }
      }
    },
  });
  const kernel = await createKernel({ plugins: [owner, other], logger: captureLogger().logger });
  try {
    assert.is(results.ownSees, "secret");
    assert.is(results.registered, false);
    assert.is(results.storeInContainer, false, "a provided token reaches only the plugins that declare it");
    assert.match(String(results.privateError), /Plugin 'test:other' resolves svc\.test\.containers\.private without declaring it/);
    assert.match(String(results.storeError), /Plugin 'test:other' resolves svc\.test\.containers\.store \(provided by 'test:owner'\) without declaring it: add it to the plugin's needs or optional/);
    assert.match(String(results.optionalError), /without declaring it/);
    assert.is(kernel.container.isRegistered(PRIVATE, true), false, "nothing leaks into the root container");
  } finally {
    await kernel.close();
  }
});

test("provides is checked: an undeclared provide and a declared token left unprovided stop the boot", async () => {
  const undeclared = definePlugin({ name: "test:sneaky", setup: (k) => k.provide(STORE, { get: () => "" }) });
  assert.match((await bootError([undeclared])).message, /Plugin 'test:sneaky' provides svc\.test\.containers\.store without declaring it: add it to the plugin's provides/);
  const idle = definePlugin({ name: "test:idle", provides: [STORE], setup() {} });
  assert.match((await bootError([idle])).message, /Plugin 'test:idle' failed during setup: Plugin 'test:idle': svc\.test\.containers\.store is declared in provides but was not provided during setup/);
  // Unless the host registered it: the host's service wins and the plugin's provide is skipped.
  const container = createContainer();
  container.register(STORE, { useValue: { get: () => "host's" } });
  const kernel = await createKernel({ container, plugins: [idle], logger: captureLogger().logger });
  assert.is(kernel.resolve(STORE).get(), "host's");
  await kernel.close();
});

test.run();
