import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mergeSettings, withSettingsTable } from "svc/plugin";
import { SETTINGS_END, SETTINGS_START } from "svc/internal";
import { knownSettingTables, SETTINGS_DOC_FILE } from "../../cli/cli-settings.js";
import { repoRoot, runSvc, startSvc } from "../helpers/cli.js";

const rows = mergeSettings(knownSettingTables);

test("the committed configuration table is the one generated from the merged settings table", () => {
  const doc = readFileSync(join(repoRoot, SETTINGS_DOC_FILE), "utf8");
  assert.ok(doc.includes(SETTINGS_START) && doc.includes(SETTINGS_END), `${SETTINGS_DOC_FILE} has the settings markers`);
  assert.fixture(doc, withSettingsTable(doc, rows), `${SETTINGS_DOC_FILE} is out of date: run npm run docs:settings`);
});

test("the table has a row per setting of the kernel, the CLI and every built-in plugin, with its owner", () => {
  const doc = withSettingsTable(`${SETTINGS_START}\n${SETTINGS_END}`, rows);
  assert.is(doc.split("\n").filter((l) => l.startsWith("| `")).length, rows.length);
  assert.ok(rows.length >= 65, `${rows.length} settings`);
  assert.match(doc, /\| `SERVICE_MCP_TRANSPORT` \| `svc mcp run --transport` \| `mcpTransport` \| `streamable-http` \| svc:mcp \|/);
  assert.match(doc, /\| `SERVICE_TRACING_BUFFER_CAPACITY` \|  \| `tracingBufferCapacity` \| `200` \| svc:tracing \|/);
  assert.match(doc, /\| `LOG` \(also `SERVICE_LOG_LEVEL`\) \|  \| `logLevel` \| `INFO` \| svc:kernel \|/);
  assert.throws(() => withSettingsTable("no markers", rows), /no <!-- settings:start -->/);
});

test("svc run: a bad value of a loaded plugin's setting stops startup; an unloaded plugin's is ignored", async () => {
  const base = ["run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", mkdtempSync(join(tmpdir(), "svc-settings-"))];
  const bad = await runSvc(base, { env: { SERVICE_TRACING_BUFFER_CAPACITY: "lots" } });
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /Invalid setting SERVICE_TRACING_BUFFER_CAPACITY \(from the environment\): got "lots"; expected an integer from 1 to 100000/);
  const template = await runSvc([...base, "--plugin", "./plugin-template/index.ts"], { env: { TEMPLATE_MAX_ECHO_LENGTH: "0" } });
  assert.is(template.code, 1);
  assert.match(template.stderr, /Invalid setting TEMPLATE_MAX_ECHO_LENGTH \(from the environment\): got "0"/);
  // Neither svc:tracing nor the template is loaded: their variables are not read.
  const svc = await startSvc([...base, "--without-tracing"], { env: { SERVICE_TRACING_BUFFER_CAPACITY: "lots", TEMPLATE_MAX_ECHO_LENGTH: "0" } });
  try {
    assert.is((await fetch(`${svc.url}/status`)).status, 200);
  } finally {
    await svc.stop("SIGKILL");
  }
});

test.run();
