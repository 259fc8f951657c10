import { test } from "uvu";
import * as assert from "uvu/assert";
import { isLiteralLoopback, operatorCredential } from "../../../cli/dashboard/credentials.js";

test("only the literal hosts localhost, 127.0.0.1 and ::1 count as loopback", () => {
  for (const url of ["http://localhost:1416", "http://LOCALHOST:1", "http://127.0.0.1:1416", "http://[::1]:1416", "https://localhost"]) assert.ok(isLiteralLoopback(url), url);
  for (const url of ["http://localhost.:1416", "http://127.0.0.2:1", "http://0.0.0.0:1", "http://my-host:1", "http://localhost.example.com", "http://[::ffff:127.0.0.1]:1", "not a url"]) {
    assert.not.ok(isLiteralLoopback(url), url);
  }
});

test("SERVICE_DASHBOARD_TOKEN wins over the credential file; the file is read only for literal loopback hosts, never on Windows", () => {
  let reads = 0;
  const options = (explicit?: string, platform: NodeJS.Platform = "linux") => ({
    explicit,
    platform,
    credentialFile: () => "/c/svc/dashboard-token",
    readCredential: () => {
      reads++;
      return "file-token\n";
    },
  });
  assert.equal(operatorCredential("http://localhost:1416", options("explicit-token")), { token: "explicit-token", source: "explicit", file: "/c/svc/dashboard-token" });
  assert.is(reads, 0);
  assert.equal(operatorCredential("http://127.0.0.1:1416", options()), { token: "file-token", source: "credential-file", file: "/c/svc/dashboard-token" });
  assert.is(reads, 1);
  assert.equal(operatorCredential("http://localhost.:1416", options()), { source: "none" });
  assert.equal(operatorCredential("http://example.com:1416", options()), { source: "none" });
  assert.equal(operatorCredential("http://localhost:1416", options(undefined, "win32")), { source: "none" });
  assert.is(reads, 1, "no read for other hosts or on Windows");
  assert.equal(operatorCredential("http://example.com", options("t")), { token: "t", source: "explicit", file: undefined }, "an explicit token goes anywhere");
  assert.equal(operatorCredential("http://localhost:1", { ...options(), readCredential: () => undefined }), { source: "none", file: "/c/svc/dashboard-token" });
});

test.run();
