import * as assert from "uvu/assert";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import type { RunningSvc } from "../../helpers/cli.js";
import { browserTest, launchBrowser, openPage, screenshot, startChatSvc } from "./browser.js";

const it = browserTest("root-path.test");
let svc: RunningSvc;
let browser: Browser;
let proxy: Server;
let proxyUrl: string;

/** A reverse proxy that serves svc under /proxy and strips the prefix, as `--root-path` expects. */
function startProxy(target: URL): Promise<Server> {
  const server = createServer((req, res) => {
    if (!req.url?.startsWith("/proxy/")) {
      res.writeHead(404).end("not proxied");
      return;
    }
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url.slice("/proxy".length), headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

it.before(async () => {
  svc = await startChatSvc({ args: ["--root-path", "/proxy"] });
  proxy = await startProxy(new URL(svc.url));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/proxy`;
  browser = await launchBrowser();
});

it.after(async () => {
  await browser?.close();
  proxy?.closeAllConnections();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  await svc?.stop("SIGKILL");
});

it("behind a proxy with --root-path, the page, its files and the API are reached under the prefix", async () => {
  const { page, problems, close } = await openPage(browser);
  const paths: string[] = [];
  page.on("request", (r) => paths.push(new URL(r.url()).pathname));
  try {
    await page.goto(`${proxyUrl}/chat`);
    const picker = page.getByRole("combobox", { name: "Pipeline" });
    await page.waitForFunction(() => !(document.getElementById("model") as HTMLSelectElement).disabled);
    assert.is(await picker.inputValue(), "ui_events_demo", "the only pipeline is chosen by itself");
    assert.equal(await picker.locator("option").allTextContents(), ["ui_events_demo"]);

    await page.getByRole("textbox", { name: "Message" }).fill("Through a proxy?");
    await page.keyboard.press("Enter");
    const answer = page.locator("article.message.assistant").and(page.locator(":not(.streaming)"));
    await answer.waitFor();
    assert.match(await answer.locator(".content").innerText(), /^You asked: "Through a proxy\?"/);
    assert.is(await answer.locator(".step.done").count(), 3);

    assert.ok(paths.length > 0);
    for (const path of paths) assert.ok(path.startsWith("/proxy/"), `${path} goes through the proxy prefix`);
    for (const path of ["/proxy/chat/app.js", "/proxy/chat/vendor/marked.js", "/proxy/v1/models", "/proxy/v1/chat/completions"]) {
      assert.ok(paths.includes(path), path);
    }
    await screenshot(page, "root-path");
    assert.equal(problems, []);
  } finally {
    await close();
  }
});

it.run();
