import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import chatUiPlugin from "../../../plugins/chat-ui/index.js";
import { CHAT_UI_CSP } from "../../../plugins/chat-ui/page.js";
import { staticDir } from "../../../plugins/chat-ui/static-dir.js";
import { defaultPluginSpecs } from "../../../cli/default-plugins.js";
import { loadLauncherSettings } from "../../../cli/cli-settings.js";
import { repoRoot, startSvc } from "../../helpers/cli.js";
import { startKernel, type TestKernel } from "../../helpers/kernel.js";

async function withUi(fn: (k: TestKernel) => Promise<void>, settings: Record<string, unknown> = {}): Promise<void> {
  const k = await startKernel({ settings, plugins: [chatUiPlugin()] });
  try {
    await fn(k);
  } finally {
    await k.close();
  }
}

test("svc run serves /chat only with --with-chat-ui or SERVICE_CHAT_UI_ENABLED", async () => {
  assert.not.ok(defaultPluginSpecs(loadLauncherSettings({})).some((s) => s.use === "svc:chat-ui"));
  assert.ok(defaultPluginSpecs(loadLauncherSettings({ flags: { chatUiEnabled: true } })).some((s) => s.use === "svc:chat-ui"));

  const args = ["run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", join(repoRoot, "pipelines")];
  const plain = await startSvc(args);
  try {
    const res = await fetch(`${plain.url}/chat`);
    assert.is(res.status, 404);
    assert.is(((await res.json()) as { error: { code: number } }).error.code, 404);
    assert.is((await fetch(`${plain.url}/chat/app.js`)).status, 404);
  } finally {
    await plain.stop("SIGKILL");
  }
  const withFlag = await startSvc([...args, "--with-chat-ui"]);
  try {
    const res = await fetch(`${withFlag.url}/chat`);
    assert.is(res.status, 200);
    assert.match(res.headers.get("content-type")!, /^text\/html/);
  } finally {
    await withFlag.stop("SIGKILL");
  }
  const withEnv = await startSvc(args, { env: { SERVICE_CHAT_UI_ENABLED: "true", SERVICE_CHAT_UI_PATH: "/talk" } });
  try {
    assert.is((await fetch(`${withEnv.url}/talk/`)).status, 200);
    assert.is((await fetch(`${withEnv.url}/chat`)).status, 404);
  } finally {
    await withEnv.stop("SIGKILL");
  }
});

test("the page carries a strict CSP, no inline script or style, and URLs under the root path", () =>
  withUi(
    async (k) => {
      for (const path of ["/ui/chat", "/ui/chat/"]) {
        const res = await fetch(`${k.url}${path}`);
        assert.is(res.status, 200, path);
        const csp = res.headers.get("content-security-policy")!;
        assert.is(csp, CHAT_UI_CSP);
        assert.match(csp, /script-src 'self'(;|$)/);
        assert.match(csp, /style-src 'self'(;|$)/);
        assert.not.match(csp, /unsafe-inline|unsafe-eval|https?:/);
        assert.is(res.headers.get("x-content-type-options"), "nosniff");
        const html = await res.text();
        assert.ok(html.includes(`<script type="module" src="/proxy/ui/chat/app.js"></script>`));
        assert.ok(html.includes(`href="/proxy/ui/chat/chat.css"`));
        assert.ok(html.includes(`data-api-base="/proxy"`));
        assert.ok(html.includes(`data-default-model="assistant &quot;one&quot;"`), "the default model, escaped");
        assert.not.match(html, /<script(?![^>]*\bsrc=)[^>]*>/, "no inline script");
        assert.not.match(html, /\sstyle=|<style/, "no inline style");
        assert.not.match(html, /\son[a-z]+=/, "no event handler attributes");
      }
    },
    { rootPath: "/proxy", chatUiPath: "/ui/chat", chatUiDefaultModel: 'assistant "one"' },
  ));

test("every module the page imports is served, as JavaScript, from this server", () =>
  withUi(async (k) => {
    const seen = new Set<string>();
    const queue = ["app.js"];
    while (queue.length) {
      const file = queue.shift()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const res = await fetch(`${k.url}/chat/${file}`);
      assert.is(res.status, 200, file);
      assert.match(res.headers.get("content-type")!, /^text\/javascript/, file);
      assert.is(res.headers.get("content-security-policy"), CHAT_UI_CSP, file);
      const text = await res.text();
      assert.not.match(text, /https?:\/\/(?!(www\.)?(github\.com|marked\.js\.org|cure53\.de))[^\s"'`)]*\.(js|css)\b/, `${file} loads nothing remote`);
      for (const [, spec] of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"/gm)) {
        assert.ok(spec!.startsWith("./"), `${file} imports ${spec} relatively`);
        queue.push(join(file, "..", spec!).replace(/^\.\//, ""));
      }
    }
    assert.ok(seen.has("vendor/marked.js") && seen.has("vendor/purify.js"), [...seen].join(", "));
    for (const file of ["chat.css", "answer.css", "favicon.svg"]) assert.is((await fetch(`${k.url}/chat/${file}`)).status, 200, file);
  }));

test("the vendor files are the installed packages' ES builds, with ETag and gzip", () =>
  withUi(async (k) => {
    const marked = await fetch(`${k.url}/chat/vendor/marked.js`);
    const text = await marked.text();
    const version = JSON.parse(readFileSync(join(repoRoot, "node_modules/marked/package.json"), "utf8")).version;
    assert.ok(text.includes(`marked v${version}`));
    assert.not.match(text, /sourceMappingURL/);
    const etag = marked.headers.get("etag")!;
    assert.ok(etag);
    assert.is((await fetch(`${k.url}/chat/vendor/marked.js`, { headers: { "if-none-match": etag } })).status, 304);

    const raw = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      import("node:http").then(({ get }) =>
        get(`${k.url}/chat/vendor/purify.js`, { headers: { "accept-encoding": "gzip" } }, (res) => {
          const parts: Buffer[] = [];
          res.on("data", (c: Buffer) => parts.push(c));
          res.on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(parts) }));
        }).on("error", reject),
      );
    });
    assert.is(raw.encoding, "gzip");
    assert.match(gunzipSync(raw.body).toString(), /export \{ purify_default as default \}/);
    assert.is((await fetch(`${k.url}/chat/vendor/other.js`)).status, 404);
  }));

test("only GET and HEAD reach the files; nothing outside the static folder is served", () =>
  withUi(async (k) => {
    assert.is((await fetch(`${k.url}/chat/app.js`, { method: "HEAD" })).status, 200);
    assert.ok([404, 405].includes((await fetch(`${k.url}/chat/app.js`, { method: "POST" })).status));
    assert.is((await fetch(`${k.url}/chat/missing.js`)).status, 404);
    for (const path of ["/chat/%2e%2e/page.js", "/chat/..%2fpage.js", "/chat/%2e%2e%2f%2e%2e%2fpackage.json"]) {
      assert.is((await fetch(`${k.url}${path}`)).status, 404, path);
    }
  }));

test("the static files are found from dist/ and shipped in the package", async () => {
  assert.is(staticDir(), join(repoRoot, "plugins/chat-ui/static/"));
  assert.ok(readdirSync(staticDir()).includes("app.js"));
  const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
  assert.ok(pkg.files.includes("plugins/chat-ui/static"));
});

test("an empty UI path is refused at startup", async () => {
  try {
    await startKernel({ settings: { chatUiPath: "/" }, plugins: [chatUiPlugin()] });
    assert.unreachable("should have failed");
  } catch (error) {
    assert.match(String((error as Error).message), /SERVICE_CHAT_UI_PATH/);
  }
});

test.run();
