import { test } from "uvu";
import * as assert from "uvu/assert";
import { createServer, type Server } from "node:http";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { rawRequest, until } from "../../helpers/http.js";
import { tempDir, withPipelineKernel, type PipelineKernel } from "../../helpers/pipelines.js";
import { CHROMIUM, launchBrowser } from "../chat-ui/browser.js";

const marker = join(tempDir("svc-cross-site-"), "ran");
const VICTIM = `import { BasePipelineWrapper } from "svc";
import { appendFileSync } from "node:fs";
export class PipelineWrapper extends BasePipelineWrapper {
  runApi() { appendFileSync(${JSON.stringify(marker)}, "ran\\n"); return "ran"; }
}
`;
const EVIL = `import { BasePipelineWrapper } from "svc";
export class PipelineWrapper extends BasePipelineWrapper { runApi() { return "pwned"; } }
`;

async function withVictim(host: string, fn: (k: PipelineKernel) => Promise<void>, corsAllowOrigins: string[] = []) {
  rmSync(marker, { force: true });
  await withPipelineKernel(
    async (k) => {
      assert.is((await k.deploy({ name: "victim", files: { "pipeline_wrapper.ts": VICTIM } })).status, 200);
      await fn(k);
    },
    { settings: { host, corsAllowOrigins } },
  );
}

const deployBody = JSON.stringify({ name: "evil", files: { "pipeline_wrapper.ts": EVIL } });

for (const host of ["127.0.0.1", "0.0.0.0"]) {
  test(`bound to ${host}: a request from another origin may not deploy, undeploy or run`, () =>
    withVictim(host, async (k) => {
      const foreign: Record<string, string>[] = [
        { origin: "http://localhost:9999" },
        { origin: "https://attacker.example" },
        { origin: "null" },
        { "sec-fetch-site": "cross-site" },
        { "sec-fetch-site": "same-site" },
      ];
      for (const headers of foreign) {
        for (const [path, body, type] of [
          ["/deploy_files", deployBody, "text/plain"],
          ["/deploy_files", deployBody, "application/json"],
          ["/victim/run", "{}", "application/x-www-form-urlencoded"],
          ["/undeploy/victim", "", "text/plain"],
        ] as const) {
          const res = await rawRequest(`${k.url}${path}`, { method: "POST", headers: { ...headers, "content-type": type }, body });
          assert.is(res.status, 403, `${path} ${JSON.stringify(headers)}`);
          const error = JSON.parse(res.body).error;
          assert.is(error.type, "permission_error");
          assert.match(error.message, /Cross-site request refused|not allowed for a loopback server/);
        }
      }
      assert.not.ok(existsSync(marker), "nothing ran");
      assert.equal(((await (await fetch(`${k.url}/status`)).json()) as { pipelines: string[] }).pipelines, ["victim"]);

      // The service's own pages, and clients that are not browsers, work as before.
      const port = new URL(k.url).port;
      const own = await rawRequest(`${k.url}/victim/run`, { method: "POST", headers: { origin: `http://127.0.0.1:${port}`, "content-type": "application/json" }, body: "{}" });
      assert.is(own.status, 200);
      const proxied = await rawRequest(`${k.url}/victim/run`, {
        method: "POST",
        headers: { origin: "https://svc.example.com", "x-forwarded-host": "svc.example.com", "sec-fetch-site": "same-origin" },
        body: "{}",
      });
      assert.is(proxied.status, host === "127.0.0.1" ? 403 : 200, "behind a proxy the forwarded host is our origin (a loopback bind still refuses foreign names)");
      const plain = await rawRequest(`${k.url}/victim/run`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "{}" });
      assert.is(plain.status, 200, "curl's default content type still works");
      assert.is((await k.deploy({ name: "by_curl", files: { "pipeline_wrapper.ts": EVIL } })).status, 200);
      const read = await rawRequest(`${k.url}/status`, { headers: { origin: "http://localhost:9999" } });
      assert.is(read.status, 200, "reading is not refused by the cross-site guard");
    }));
}

test("an origin listed in SERVICE_CORS_ALLOW_ORIGINS may call", () =>
  withVictim(
    "0.0.0.0",
    async (k) => {
      const res = await rawRequest(`${k.url}/victim/run`, { method: "POST", headers: { origin: "https://app.example.com", "content-type": "application/json" }, body: "{}" });
      assert.is(res.status, 200);
      assert.is(res.headers["access-control-allow-origin"], "https://app.example.com");
    },
    ["https://app.example.com"],
  ));

function attackerPage(target: string): Server {
  const page = `<!doctype html><html><body>
<form id="f" method="POST" action="${target}/deploy_files" enctype="text/plain">
<input name='${deployBody.slice(0, -2)},"x":"' value='"}'>
</form>
<script>
  fetch(${JSON.stringify(`${target}/victim/run`)}, { method: "POST", mode: "no-cors", body: "{}" })
    .finally(() => fetch(${JSON.stringify(`${target}/undeploy/victim`)}, { method: "POST", mode: "no-cors" }))
    .finally(() => document.getElementById("f").submit());
</script></body></html>`;
  return createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(page));
}

test("a real page on another origin (form POST, fetch no-cors) cannot deploy, run or undeploy", async () => {
  if (!existsSync(CHROMIUM)) return console.log("cross-site browser test skipped: no Chromium");
  await withVictim("0.0.0.0", async (k) => {
    const server = attackerPage(k.url);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`http://localhost:${(server.address() as AddressInfo).port}/`);
      const refused = (path: string) => k.logs.some((l) => l.includes(`POST ${path} 403`));
      await until(() => refused("/deploy_files") && refused("/victim/run") && refused("/undeploy/victim"), 15_000, "the page's three requests");
      assert.not.ok(existsSync(marker), "the pipeline did not run");
      assert.equal(((await (await fetch(`${k.url}/status`)).json()) as { pipelines: string[] }).pipelines, ["victim"], "nothing deployed or undeployed");
    } finally {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

test.run();
