#!/usr/bin/env node
// Runs every compiled uvu test under dist/ and ends with one line `N passed, N failed, N skipped`.
// A run that does not exit soon after uvu's summary left a server or client open: that fails too.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = fileURLToPath(new URL("..", import.meta.url));
const [dir = "dist", pattern = "\\.test\\.js$"] = process.argv.slice(2);
const HANG_AFTER_SUMMARY_MS = 15_000;
const TOTAL_LIMIT_MS = 40 * 60_000;

// Servers bound to loopback write the operator credential under the cache dir: keep it out of ~.
const cache = mkdtempSync(join(tmpdir(), "svc-test-cache-"));

const child = spawn(process.execPath, ["node_modules/uvu/bin.js", dir, pattern, "--color", "false"], {
  cwd: root,
  stdio: ["ignore", "pipe", "inherit"],
  env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1", XDG_CACHE_HOME: cache },
});

let out = "";
let hang;
child.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  out += chunk.toString();
  if (!hang && /Duration:/.test(out)) {
    hang = setTimeout(() => {
      process.stdout.write(`\nThe test process did not exit ${HANG_AFTER_SUMMARY_MS / 1000}s after its summary: a test left a server, client or timer open.\n`);
      child.kill("SIGKILL");
    }, HANG_AFTER_SUMMARY_MS);
  }
});
const overall = setTimeout(() => {
  process.stdout.write(`\nThe tests ran past ${TOTAL_LIMIT_MS / 60_000} minutes.\n`);
  child.kill("SIGKILL");
}, TOTAL_LIMIT_MS);

child.on("exit", (code, signal) => {
  clearTimeout(hang);
  clearTimeout(overall);
  rmSync(cache, { recursive: true, force: true });
  const count = (label) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(out)?.[1] ?? 0);
  const total = count("Total");
  const passed = count("Passed");
  const skipped = count("Skipped");
  let failed = total - passed;
  // A crash before the summary, or a kill, is a failure even if every counted test passed.
  if ((code !== 0 || signal) && failed === 0) failed = 1;
  process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}\n`);
  process.exit(failed > 0 ? 1 : 0);
});
