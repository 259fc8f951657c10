import { test } from "uvu";
import * as assert from "uvu/assert";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dashboardTokenPath, ensureDashboardToken, readDashboardToken } from "svc/internal";
import { isLiteralLoopback, operatorCredential } from "../../../cli/dashboard/credentials.js";

test("only the literal hosts localhost, 127.0.0.1 and ::1 count as loopback", () => {
  for (const url of ["http://localhost:1416", "http://LOCALHOST:1", "http://127.0.0.1:1416", "http://[::1]:1416", "https://localhost"]) assert.ok(isLiteralLoopback(url), url);
  for (const url of ["http://localhost.:1416", "http://127.0.0.2:1", "http://0.0.0.0:1", "http://my-host:1", "http://localhost.example.com", "http://[::ffff:127.0.0.1]:1", "not a url"]) {
    assert.not.ok(isLiteralLoopback(url), url);
  }
});

test("SERVICE_DASHBOARD_TOKEN wins over the credential file; the file is read only for literal loopback hosts, never on Windows", async () => {
  const reads: string[] = [];
  const options = (explicit?: string, platform: NodeJS.Platform = "linux") => ({
    explicit,
    platform,
    credentialFile: () => "/c/svc/dashboard-token",
    readCredential: async (file: string) => {
      reads.push(file);
      return "file-token\n";
    },
  });
  assert.equal(await operatorCredential("http://localhost:1416", options("explicit-token")), { token: "explicit-token", source: "explicit", file: "/c/svc/dashboard-token" });
  assert.equal(reads, []);
  assert.equal(await operatorCredential("http://127.0.0.1:1416", options()), { token: "file-token", source: "credential-file", file: "/c/svc/dashboard-token" });
  assert.equal(reads, ["/c/svc/dashboard-token"]);
  assert.equal(await operatorCredential("http://localhost.:1416", options()), { source: "none" });
  assert.equal(await operatorCredential("http://example.com:1416", options()), { source: "none" });
  assert.equal(await operatorCredential("http://localhost:1416", options(undefined, "win32")), { source: "none" });
  assert.is(reads.length, 1, "no read for other hosts or on Windows");
  assert.equal(await operatorCredential("http://example.com", options("t")), { token: "t", source: "explicit", file: undefined }, "an explicit token goes anywhere");
  assert.equal(await operatorCredential("http://localhost:1", { ...options(), readCredential: async () => undefined }), { source: "none", file: "/c/svc/dashboard-token" });
});

test("the kernel's credential file: read when private, refused (with the reason) when not", async () => {
  const cache = mkdtempSync(join(tmpdir(), "svc-cred-"));
  try {
    const env = { XDG_CACHE_HOME: cache };
    const options = { credentialFile: () => dashboardTokenPath(env), readCredential: (f: string) => readDashboardToken(f) };
    assert.equal(await operatorCredential("http://[::1]:1416", options), { source: "none", file: join(cache, "svc", "dashboard-token") });
    const token = await ensureDashboardToken(dashboardTokenPath(env));
    assert.equal(await operatorCredential("http://[::1]:1416", options), { token, source: "credential-file", file: join(cache, "svc", "dashboard-token") });
    chmodSync(dashboardTokenPath(env), 0o644);
    const refused = await operatorCredential("http://localhost:1416", options);
    assert.is(refused.token, undefined);
    assert.match(refused.refused!, /Refusing the operator credential .*dashboard-token: its mode is 644, expected 600/);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});

test.run();
