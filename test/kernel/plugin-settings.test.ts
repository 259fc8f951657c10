import { test } from "uvu";
import * as assert from "uvu/assert";
import { createKernel, definePlugin, KernelError, Logger, setting, settingTypes, type KernelOptions, type KernelPlugin } from "svc/plugin";
import objectStorePlugin from "svc/object-store";
import mcpPlugin from "svc/mcp";
import platformPlugin from "svc/platform";

const quiet = new Logger("ERROR", () => undefined);

const acmeSettings = {
  acmeGreeting: setting(settingTypes.text(), { env: "ACME_GREETING", flag: "--acme-greeting", default: "hello", help: "Greeting." }),
  acmeRetries: setting(settingTypes.integer(0, 5), { env: "ACME_RETRIES", aliases: ["ACME_OLD_RETRIES"], default: 1, help: "Retries." }),
};

/** A plugin that declares settings and reports what `setup` saw. */
function acmePlugin(seen: { greeting?: string; retries?: number; port?: number } = {}): KernelPlugin {
  return definePlugin({
    name: "acme",
    settings: acmeSettings,
    setup(kernel) {
      // Typed: a string, a number, and the kernel's own settings beside them.
      const greeting: string = kernel.settings.acmeGreeting;
      const retries: number = kernel.settings.acmeRetries;
      Object.assign(seen, { greeting, retries, port: kernel.settings.port });
    },
  });
}

async function boot(options: KernelOptions): Promise<void> {
  const kernel = await createKernel({ logger: quiet, ...options });
  await kernel.close();
}

async function bootFails(options: KernelOptions, pattern: RegExp): Promise<void> {
  try {
    await boot(options);
    assert.unreachable("expected the boot to fail");
  } catch (error) {
    assert.instance(error, KernelError);
    assert.match((error as Error).message, pattern);
  }
}

test("a plugin's settings: defaults, then every source in precedence order, typed in setup", async () => {
  const seen: Record<string, unknown> = {};
  await boot({ plugins: [acmePlugin(seen)] });
  assert.equal(seen, { greeting: "hello", retries: 1, port: 1416 });
  const config = { file: "svc.config.yaml", values: { acmeGreeting: "from file", ACME_RETRIES: 2, port: 1500 } };
  await boot({ plugins: [acmePlugin(seen)], sources: { config } });
  assert.equal(seen, { greeting: "from file", retries: 2, port: 1500 });
  await boot({ plugins: [acmePlugin(seen)], sources: { config, dotenv: { ACME_GREETING: "from .env" }, env: { ACME_OLD_RETRIES: "3" } } });
  assert.equal(seen, { greeting: "from .env", retries: 3, port: 1500 });
  await boot({ plugins: [acmePlugin(seen)], sources: { config, env: { ACME_GREETING: "from env" }, flags: { acmeGreeting: "from flag" } } });
  assert.is(seen.greeting, "from flag");
  await boot({ plugins: [acmePlugin(seen)], sources: { env: { ACME_GREETING: "from env" } }, settings: { acmeGreeting: "from code" } });
  assert.is(seen.greeting, "from code");
});

test("a plugin's bad value names the variable, its source and what it accepts", async () => {
  await bootFails({ plugins: [acmePlugin()], sources: { env: { ACME_RETRIES: "9" } } }, /^Invalid setting ACME_RETRIES \(from the environment\): got "9"; expected an integer from 0 to 5\.$/);
  await bootFails({ plugins: [acmePlugin()], sources: { dotenv: { ACME_OLD_RETRIES: "x" } } }, /Invalid setting ACME_OLD_RETRIES \(from \.env\)/);
  await bootFails({ plugins: [acmePlugin()], sources: { config: { file: "c.yaml", values: { acmeRetries: -1 } } } }, /Invalid setting settings.acmeRetries \(from c.yaml\)/);
  await bootFails({ plugins: [acmePlugin()], sources: { flags: { acmeRetries: "x" } } }, /Invalid setting acmeRetries \(from the command line\)/);
});

test("a plugin that is not loaded: its variables are ignored, its config keys are unknown unless declared known", async () => {
  // Not loaded: a bad value of its variable does not matter.
  await boot({ sources: { env: { ACME_RETRIES: "not a number" } } });
  const config = { file: "svc.config.yaml", values: { acmeGreeting: "hi" } };
  await bootFails({ sources: { config } }, /Invalid config file svc.config.yaml: unknown setting 'acmeGreeting' under 'settings'/);
  await boot({ sources: { config }, knownSettings: acmeSettings });
  await boot({ sources: { config: { file: "svc.config.yaml", values: { ACME_GREETING: "hi" } } }, knownSettings: acmeSettings });
  await bootFails({ sources: { config: { file: "c.yaml", values: { nope: 1 } } }, knownSettings: acmeSettings }, /unknown setting 'nope'/);
});

test("two owners may not declare one setting; a shared declaration is one setting", async () => {
  const clash = definePlugin({
    name: "clash",
    settings: { other: setting(settingTypes.text(), { env: "ACME_GREETING", default: "", help: "x" }) },
    setup() {},
  });
  await bootFails({ plugins: [acmePlugin(), clash] }, /Setting ACME_GREETING is declared by both 'acme' and 'clash'/);
  const portClash = definePlugin({ name: "port-clash", settings: { port: setting(settingTypes.integer(0), { env: "X_PORT", default: 1, help: "x" }) }, setup() {} });
  await bootFails({ plugins: [portClash] }, /Setting port is declared by both 'svc:kernel' and 'port-clash'/);
  // svc:platform reads the object store's settings for its own store: both loaded is fine.
  await boot({
    plugins: [mcpPlugin(), objectStorePlugin(), { plugin: platformPlugin(), options: { apiKey: "k" } }],
    sources: { env: { OBJECT_STORE_TTL: "7" } },
    settings: { port: 0 },
  });
});

test.run();
