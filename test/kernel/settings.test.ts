import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KernelError } from "svc/plugin";
import { kernelSettings, loadSettings as loadFields, operatorAccessSettings, readConfigFile, readDotEnv, type SettingSources } from "svc/internal";
import { cliSettings } from "../../cli/cli-settings.js";
import { mcpSettings } from "../../plugins/mcp/settings.js";
import { monitoringSettings } from "../../plugins/monitoring/settings.js";
import { tracingSettings } from "../../plugins/tracing/settings.js";

/** The kernel's settings and some plugins', read as one table (as the kernel does at boot). */
const settingFields = { ...kernelSettings, ...operatorAccessSettings, ...cliSettings, ...mcpSettings, ...tracingSettings, ...monitoringSettings };
const loadSettings = (sources: SettingSources = {}) => loadFields(sources, settingFields);

const tmp = () => mkdtempSync(join(tmpdir(), "svc-settings-"));

function throwsSetting(fn: () => unknown, pattern: RegExp) {
  try {
    fn();
    assert.unreachable("expected a settings error");
  } catch (error) {
    assert.instance(error, KernelError);
    assert.match((error as Error).message, pattern);
  }
}

test("defaults cover every variable of the spec", () => {
  const s = loadSettings();
  assert.is(s.host, "localhost");
  assert.is(s.port, 1416);
  assert.is(s.mcpPort, 1417);
  assert.is(s.pipelinesDir, "./pipelines");
  assert.is(s.additionalModulePath, undefined);
  assert.is(s.logLevel, "INFO");
  assert.is(s.showTracebacks, false);
  assert.is(s.tracingEnabled, true);
  assert.is(s.monitoringEnabled, true);
  assert.is(s.tracingBufferCapacity, 200);
  assert.is(s.tracingDefaultLimit, 25);
  assert.is(s.tracingMaxLimit, 100);
  assert.is(s.tracingSlowComponentMs, 1000);
  assert.is(s.tracingIncludeFrameworkSpans, true);
  assert.is(s.tracingIncludePayloadValues, false);
  assert.equal(s.tracingExcludedSpans, []);
  assert.is(s.dashboardToken, undefined);
  assert.is(s.operatorToken, undefined);
  assert.is(s.maxBodyBytes, 4 * 1024 * 1024);
  assert.equal(s.corsAllowOrigins, []);
  assert.is(s.gracefulShutdownTimeout, 5);
  assert.equal(s.plugins, []);
  assert.is(s.workers, 1);
  const envNames = Object.values(settingFields).map((f) => f.env);
  for (const name of [
    "SERVICE_HOST", "SERVICE_PORT", "SERVICE_MCP_PORT", "SERVICE_PIPELINES_DIR", "SERVICE_ADDITIONAL_MODULE_PATH", "LOG",
    "SERVICE_SHOW_TRACEBACKS", "SERVICE_TRACING_ENABLED", "SERVICE_MONITORING_ENABLED", "SERVICE_OPERATOR_TOKEN",
    "SERVICE_TRACING_BUFFER_CAPACITY", "SERVICE_TRACING_DEFAULT_LIMIT", "SERVICE_TRACING_MAX_LIMIT",
    "SERVICE_TRACING_SLOW_COMPONENT_MS", "SERVICE_TRACING_INCLUDE_FRAMEWORK_SPANS", "SERVICE_TRACING_INCLUDE_PAYLOAD_VALUES",
    "SERVICE_TRACING_EXCLUDED_SPANS", "SERVICE_DASHBOARD_TOKEN", "SERVICE_MAX_BODY_BYTES", "SERVICE_CORS_ALLOW_ORIGINS",
    "SERVICE_GRACEFUL_SHUTDOWN_TIMEOUT", "SERVICE_PLUGINS",
  ]) assert.ok(envNames.includes(name), name);
});

test("precedence: flags > environment > .env > config file > defaults", () => {
  const config = { file: "svc.config.yaml", values: { port: 1000, host: "0.0.0.0", logLevel: "ERROR", workers: 3 } };
  const dotenv = { SERVICE_PORT: "2000", SERVICE_HOST: "127.0.0.2", LOG: "WARNING" };
  const env = { SERVICE_PORT: "3000", SERVICE_HOST: "127.0.0.3" };
  const flags = { port: "4000" };
  const s = loadSettings({ config, dotenv, env, flags });
  assert.is(s.port, 4000);
  assert.is(s.host, "127.0.0.3");
  assert.is(s.logLevel, "WARNING");
  assert.is(s.workers, 3);
  assert.is(s.mcpPort, 1417);
});

test("values are parsed from text: booleans, lists, numbers, aliases, paths", () => {
  const s = loadSettings({
    env: {
      SERVICE_SHOW_TRACEBACKS: "yes",
      SERVICE_TRACING_ENABLED: "0",
      SERVICE_TRACING_EXCLUDED_SPANS: '["send","receive"]',
      SERVICE_CORS_ALLOW_ORIGINS: "http://a.test, http://b.test",
      SERVICE_GRACEFUL_SHUTDOWN_TIMEOUT: "0.5",
      SERVICE_ADDITIONAL_PYTHON_PATH: "/shared",
      SERVICE_ROOT_PATH: "/svc/",
      LOG: "debug",
      SERVICE_TRACING_TOKEN: "",
    },
  });
  assert.is(s.showTracebacks, true);
  assert.is(s.tracingEnabled, false);
  assert.equal(s.tracingExcludedSpans, ["send", "receive"]);
  assert.equal(s.corsAllowOrigins, ["http://a.test", "http://b.test"]);
  assert.is(s.gracefulShutdownTimeout, 0.5);
  assert.is(s.additionalModulePath, "/shared");
  assert.is(s.rootPath, "/svc");
  assert.is(s.logLevel, "DEBUG");
  assert.is(loadSettings({ env: { SERVICE_ROOT_PATH: "/" } }).rootPath, "");
  // The operator token's name before it guarded more than traces; the new name wins over it.
  assert.is(loadSettings({ env: { SERVICE_TRACING_TOKEN: "old" } }).operatorToken, "old");
  assert.is(loadSettings({ env: { SERVICE_TRACING_TOKEN: "old", SERVICE_OPERATOR_TOKEN: "new" } }).operatorToken, "new");
  assert.is(loadSettings({ env: { SERVICE_ADDITIONAL_PYTHON_PATH: "/old", SERVICE_ADDITIONAL_MODULE_PATH: "/new" } }).additionalModulePath, "/new");
});

test("an invalid value names the variable, its source and what it accepts", () => {
  throwsSetting(() => loadSettings({ env: { SERVICE_PORT: "abc" } }), /SERVICE_PORT \(from the environment\): got "abc"; expected an integer from 0 to 65535/);
  throwsSetting(() => loadSettings({ env: { SERVICE_PORT: "70000" } }), /SERVICE_PORT/);
  throwsSetting(() => loadSettings({ dotenv: { SERVICE_SHOW_TRACEBACKS: "maybe" } }), /SERVICE_SHOW_TRACEBACKS \(from \.env\).*true or false/);
  throwsSetting(() => loadSettings({ env: { LOG: "LOUD" } }), /LOG .*one of DEBUG, INFO, WARNING, ERROR/);
  throwsSetting(() => loadSettings({ env: { SERVICE_TRACING_EXCLUDED_SPANS: "[1,2" } }), /SERVICE_TRACING_EXCLUDED_SPANS.*JSON array/);
  throwsSetting(() => loadSettings({ flags: { port: "x" } }), /--port \(from the command line\)/);
  throwsSetting(() => loadSettings({ config: { file: "svc.config.yaml", values: { SERVICE_WORKERS: 0 } } }), /settings.workers \(from svc.config.yaml\).*from 1 to 64/);
  throwsSetting(() => loadSettings({ env: { SERVICE_ROOT_PATH: "no-slash" } }), /SERVICE_ROOT_PATH.*starting with \//);
  throwsSetting(() => loadSettings({ config: { file: "c.yaml", values: { nope: 1 } } }), /unknown setting 'nope'/);
});

test("plugins accumulate across sources instead of replacing", () => {
  const s = loadSettings({
    config: { file: "c.yaml", values: { plugins: ["./a"] } },
    env: { SERVICE_PLUGINS: '["./b","./c"]' },
    flags: { plugins: ["./d"] },
  });
  assert.equal(s.plugins, ["./a", "./b", "./c", "./d"]);
});

test("config file: YAML or JSON, plugins and settings validated", () => {
  const dir = tmp();
  assert.is(readConfigFile(dir), undefined);
  writeFileSync(join(dir, "svc.config.yaml"), "settings:\n  port: 1500\nplugins:\n  - ./one.ts\n  - use: pkg\n    options: { greeting: hi }\n");
  const config = readConfigFile(dir)!;
  assert.equal(config.settings, { port: 1500 });
  assert.equal(
    config.plugins.map((p) => [p.use, p.options]),
    [
      ["./one.ts", undefined],
      ["pkg", { greeting: "hi" }],
    ],
  );
  const json = tmp();
  writeFileSync(join(json, "svc.config.json"), JSON.stringify({ plugins: [{ use: "x" }] }));
  assert.equal(readConfigFile(json)!.plugins[0]!.use, "x");

  const bad = tmp();
  writeFileSync(join(bad, "svc.config.yaml"), "plugin:\n  - x\n");
  throwsSetting(() => readConfigFile(bad), /Invalid config file .*svc.config.yaml: .*plugin/);
  writeFileSync(join(bad, "svc.config.yaml"), "settings: [\n");
  throwsSetting(() => readConfigFile(bad), /Invalid config file/);
  const two = tmp();
  writeFileSync(join(two, "svc.config.yaml"), "{}");
  writeFileSync(join(two, "svc.config.json"), "{}");
  throwsSetting(() => readConfigFile(two), /more than one config file/);
});

test(".env is read from the working directory", () => {
  const dir = tmp();
  assert.is(readDotEnv(dir), undefined);
  writeFileSync(join(dir, ".env"), "# comment\nSERVICE_PORT=1999\nLOG='DEBUG'\n");
  assert.equal(readDotEnv(dir), { SERVICE_PORT: "1999", LOG: "DEBUG" });
});

test.run();
