import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { mkdtempSync } from "node:fs";
import { InsecureCredentialError, createContainer, dashboardTokenPath, ensureDashboardToken, readDashboardToken } from "svc/internal";
import { TRACE_ACCESS, allow, definePlugin, deny, requestState, tokensEqual, type AccessPolicy, type KernelOptions } from "svc/plugin";
import { startKernel, type TestKernel } from "../helpers/kernel.js";

const fresh = () => mkdtempSync(join(tmpdir(), "svc-operator-"));

// An operator-only route, standing in for GET /traces and GET /executions.
const operatorView = definePlugin({
  name: "operator-view",
  setup(k) {
    k.route("GET", "/traces", () => ({ traces: [] }), { scope: "traces" });
  },
});

/** A kernel whose cache dir is a fresh temporary directory. */
async function withOperatorKernel(fn: (k: TestKernel, cache: string) => Promise<void>, options: KernelOptions = {}): Promise<void> {
  const cache = fresh();
  const previous = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = cache;
  let k: TestKernel | undefined;
  try {
    k = await startKernel({ plugins: [operatorView], ...options });
    await fn(k, cache);
  } finally {
    await k?.close();
    if (previous === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = previous;
  }
}

/** Asserts that `fn` rejects with an error whose message matches `pattern`. */
async function rejects(fn: () => Promise<unknown>, pattern: RegExp): Promise<void> {
  try {
    await fn();
  } catch (error) {
    assert.instance(error, InsecureCredentialError);
    assert.match((error as Error).message, pattern);
    return;
  }
  assert.unreachable(`expected a rejection matching ${pattern}`);
}

const get = (url: string, headers: Record<string, string> = {}) => fetch(`${url}/traces`, { headers });

test("the credential path: <XDG_CACHE_HOME>/svc/dashboard-token, else ~/.cache", () => {
  assert.is(dashboardTokenPath({ XDG_CACHE_HOME: "/var/cache/me" }), "/var/cache/me/svc/dashboard-token");
  assert.is(dashboardTokenPath({}), join(homedir(), ".cache", "svc", "dashboard-token"));
  assert.is(dashboardTokenPath({ XDG_CACHE_HOME: "relative/dir" }), join(homedir(), ".cache", "svc", "dashboard-token"), "a relative XDG dir is ignored");
});

test("ensureDashboardToken creates a private directory (0700) and file (0600), then reuses the file", async () => {
  const path = join(fresh(), "nested", "svc", "dashboard-token");
  assert.is(await readDashboardToken(path), undefined);
  const token = await ensureDashboardToken(path);
  assert.match(token, /^[A-Za-z0-9_-]{43}$/);
  assert.is(statSync(path).mode & 0o777, 0o600);
  assert.is(statSync(join(path, "..")).mode & 0o777, 0o700);
  assert.is(statSync(path).uid, process.getuid!());
  assert.is(await ensureDashboardToken(path), token);
  assert.is(await readDashboardToken(path), token);
  assert.equal(readdirSync(join(path, "..")), ["dashboard-token"], "no temporary files left");
});

test("concurrent processes racing to create the credential all end up with the same token", async () => {
  const path = join(fresh(), "svc", "dashboard-token");
  const script = fileURLToPath(new URL("../fixtures/credential-race.js", import.meta.url));
  const racers = Array.from({ length: 4 }, () => spawn(process.execPath, [script, path], { stdio: ["pipe", "pipe", "pipe"] }));
  const outputs = racers.map(
    (child) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        let out = "";
        let err = "";
        child.stdout!.on("data", (d) => (out += d));
        child.stderr!.on("data", (d) => (err += d));
        child.on("close", (code) => resolve({ code, out, err }));
      }),
  );
  // Let every process load before they start together.
  await new Promise((r) => setTimeout(r, 300));
  for (const child of racers) child.stdin!.end("go\n");
  const results = await Promise.all(outputs);
  for (const r of results) assert.is(r.code, 0, r.err);
  const tokens = new Set(results.map((r) => r.out.trim()));
  assert.is(tokens.size, 1, `one token, got ${[...tokens].join(", ")}`);
  assert.is([...tokens][0], await readDashboardToken(path));
  assert.equal(readdirSync(join(path, "..")), ["dashboard-token"]);
});

test("a credential that is not private is refused: loose file mode, loose directory, symlink, other owner", async () => {
  const dir = join(fresh(), "svc");
  mkdirSync(dir, { mode: 0o700 });
  const path = join(dir, "dashboard-token");
  writeFileSync(path, "abc\n", { mode: 0o644 });
  chmodSync(path, 0o644);
  await rejects(() => readDashboardToken(path), /mode is 644/);
  await rejects(() => ensureDashboardToken(path), /mode is 644/);
  chmodSync(path, 0o600);
  chmodSync(dir, 0o755);
  await rejects(() => readDashboardToken(path), /mode is 755/);
  chmodSync(dir, 0o700);
  assert.is(await readDashboardToken(path), "abc");

  const linkDir = join(fresh(), "svc");
  mkdirSync(linkDir, { mode: 0o700 });
  symlinkSync(path, join(linkDir, "dashboard-token"));
  await rejects(() => readDashboardToken(join(linkDir, "dashboard-token")), /symbolic link/);

  if (process.getuid?.() === 0) {
    // Only root can give a file away: the owner check is exercised where that is possible.
    chownSync(path, 4242, 4242);
    await rejects(() => readDashboardToken(path), /owned by uid 4242/);
  }
});

test("tokens are compared in constant time over their hashes (any length)", () => {
  assert.ok(tokensEqual("secret", "secret"));
  assert.not.ok(tokensEqual("secret", "secreT"));
  assert.not.ok(tokensEqual("secret", "secret-but-longer"));
  assert.not.ok(tokensEqual("", "secret"));
});

test("loopback bind: the credential file is made at boot; its bearer token is accepted; 401 missing, 403 wrong", () =>
  withOperatorKernel(async (k, cache) => {
    const path = join(cache, "svc", "dashboard-token");
    assert.ok(existsSync(path), "made at boot, before any request");
    const token = (await readDashboardToken(path))!;
    const missing = await get(k.url);
    assert.is(missing.status, 401);
    assert.is(((await missing.json()) as any).error.type, "authentication_error");
    assert.is((await get(k.url, { authorization: "Basic abc" })).status, 401, "not a bearer token");
    const wrong = await get(k.url, { authorization: "Bearer not-the-token" });
    assert.is(wrong.status, 403);
    assert.is((await get(k.url, { authorization: `Bearer ${token}` })).status, 200);
    assert.is((await get(k.url, { authorization: `bearer ${token}` })).status, 200, "the scheme is case-insensitive");
  }));

test("loopback bind with SERVICE_OPERATOR_TOKEN: both the explicit token and the local credential work", () =>
  withOperatorKernel(
    async (k, cache) => {
      const token = (await readDashboardToken(join(cache, "svc", "dashboard-token")))!;
      assert.is((await get(k.url, { authorization: "Bearer explicit-token" })).status, 200);
      assert.is((await get(k.url, { authorization: `Bearer ${token}` })).status, 200);
    },
    { settings: { operatorToken: "explicit-token" } },
  ));

test("remote bind without SERVICE_OPERATOR_TOKEN: every request refused, and the log says why; no file is made", () =>
  withOperatorKernel(
    async (k, cache) => {
      const res = await get(k.url, { authorization: "Bearer anything" });
      assert.is(res.status, 403);
      const message: string = ((await res.json()) as any).error.message;
      assert.match(message, /not a loopback host/);
      assert.match(message, /SERVICE_OPERATOR_TOKEN/);
      assert.ok(k.logs.some((l) => l.includes("WARNING") && l.includes("refuse every request") && l.includes("SERVICE_OPERATOR_TOKEN")), k.logs.join("\n"));
      assert.not.ok(existsSync(join(cache, "svc")));
    },
    { settings: { host: "0.0.0.0" } },
  ));

test("remote bind with SERVICE_OPERATOR_TOKEN: the token is required", () =>
  withOperatorKernel(
    async (k) => {
      assert.is((await get(k.url)).status, 401);
      assert.is((await get(k.url, { authorization: "Bearer wrong" })).status, 403);
      assert.is((await get(k.url, { authorization: "Bearer remote-secret" })).status, 200);
    },
    { settings: { host: "0.0.0.0", operatorToken: "remote-secret" } },
  ));

test("an insecure credential file is not used: requests are refused and the log says why", async () => {
  const cache = fresh();
  mkdirSync(join(cache, "svc"), { mode: 0o755 });
  chmodSync(join(cache, "svc"), 0o755);
  const previous = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = cache;
  const k = await startKernel({ plugins: [operatorView] });
  try {
    const res = await get(k.url, { authorization: "Bearer x" });
    assert.is(res.status, 403);
    assert.match(((await res.json()) as any).error.message, /local operator credential could not be used/);
    assert.ok(k.logs.some((l) => l.includes("mode is 755")));
  } finally {
    await k.close();
    if (previous === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = previous;
  }
});

test("a host replaces the access dependency under TRACE_ACCESS; the kernel then makes no credential", async () => {
  const container = createContainer();
  const hostPolicy: AccessPolicy = ({ req }) => (req.headers["x-ops"] === "yes" ? allow() : deny(403, "ops only"));
  container.register(TRACE_ACCESS, { useValue: hostPolicy });
  await withOperatorKernel(
    async (k, cache) => {
      assert.is((await get(k.url)).status, 403);
      assert.is((await get(k.url, { "x-ops": "yes" })).status, 200);
      assert.not.ok(existsSync(join(cache, "svc")), "the default policy was not used");
    },
    { container },
  );
});

test("trusted middleware sets tracing_operator; no client header can set it", async () => {
  const trusted = definePlugin({
    name: "trusted-proxy-auth",
    setup(k) {
      // Stands in for middleware that verified a client certificate or a session.
      k.use("/", (req, _res, next) => {
        if (req.headers["x-verified-by-test"] === "mTLS-ok") requestState(req).tracing_operator = true;
        next();
      });
    },
  });
  await withOperatorKernel(
    async (k) => {
      const forged: Record<string, string>[] = [
        { tracing_operator: "true" },
        { "tracing-operator": "true" },
        { "x-tracing-operator": "true" },
        { cookie: "tracing_operator=true" },
        { state: '{"tracing_operator":true}' },
      ];
      for (const headers of forged) {
        assert.is((await get(k.url, headers)).status, 401, JSON.stringify(headers));
      }
      assert.is((await get(`${k.url}`, {}).then((r) => r.status)), 401);
      assert.is((await fetch(`${k.url}/traces?tracing_operator=true`)).status, 401, "nor a query parameter");
      assert.is((await get(k.url, { "x-verified-by-test": "mTLS-ok" })).status, 200);
    },
    { plugins: [trusted, operatorView] },
  );
});

test.run();
