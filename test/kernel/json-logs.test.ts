import { test } from "uvu";
import * as assert from "uvu/assert";
import { Logger } from "svc/plugin";
import { startSvc } from "../helpers/cli.js";
import { tempDir } from "../helpers/pipelines.js";

test("Logger.create(json): one JSON object per line with level, time, msg, plugin, request_id, fields and err", () => {
  const lines: string[] = [];
  const log = Logger.create("DEBUG", "json", (line) => lines.push(line));
  log.child({ plugin: "svc:test" }).child({ request: "req-1" }).info("hello \"world\"\nsecond line", { n: 2 });
  log.error("failed", new TypeError("boom"));
  log.warn("careful");
  Logger.create("WARNING", "json", (line) => lines.push(line)).info("not shown");
  assert.is(lines.length, 3);
  const [info, error, warn] = lines.map((l) => JSON.parse(l));
  assert.is(info.level, "info");
  assert.is(info.msg, 'hello "world"\nsecond line');
  assert.is(info.plugin, "svc:test");
  assert.is(info.request_id, "req-1");
  assert.is(info.n, 2);
  assert.is(info.pid, process.pid);
  assert.match(info.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.is(error.level, "error");
  assert.is(error.err.type, "TypeError");
  assert.is(error.err.message, "boom");
  assert.match(error.err.stack, /TypeError: boom\n\s+at /);
  assert.is(warn.level, "warn");
});

test("svc run with SERVICE_LOG_FORMAT=json writes only JSON lines, request logs carrying the request id", async () => {
  const svc = await startSvc(["run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", tempDir()], {
    env: { SERVICE_LOG_FORMAT: "json", LOG: "DEBUG", XDG_CACHE_HOME: tempDir("svc-cache-") },
  });
  try {
    assert.is((await fetch(`${svc.url}/status`, { headers: { "x-request-id": "json-log-check" } })).status, 200);
    await svc.waitFor(/"request_id":"json-log-check"/, 10_000);
  } finally {
    await svc.stop();
  }
  const records = svc
    .output()
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        assert.unreachable(`not a JSON line: ${l}`);
      }
    });
  assert.ok(records.some((r) => r.level === "info" && /svc listening on http:/.test(r.msg)));
  assert.ok(records.some((r) => r.plugin === "svc:deploy"), "a plugin's record names it");
  const request = records.find((r) => r.request_id === "json-log-check");
  assert.is(request.level, "debug");
  assert.match(request.msg, /GET \/status 200/);
});

test.run();
