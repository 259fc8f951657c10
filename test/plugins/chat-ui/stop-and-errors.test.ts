import * as assert from "uvu/assert";
import type { Browser, Page } from "playwright-core";
import type { RunningSvc } from "../../helpers/cli.js";
import { wrapper } from "../../helpers/pipelines.js";
import { browserTest, launchBrowser, openPage, screenshot, startChatSvc } from "./browser.js";

const it = browserTest("stop-and-errors.test");
let svc: RunningSvc;
let browser: Browser;

it.before(async () => {
  svc = await startChatSvc({ probe: true });
  browser = await launchBrowser();
});

it.after(async () => {
  await browser?.close();
  await svc?.stop("SIGKILL");
});

async function ready(page: Page, model = "chat_ui_probe"): Promise<void> {
  await page.goto(`${svc.url}/chat`);
  await page.waitForFunction(() => !(document.getElementById("model") as HTMLSelectElement).disabled);
  await page.getByRole("combobox", { name: "Pipeline" }).selectOption(model);
}

async function ask(page: Page, text: string) {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.keyboard.press("Enter");
  const answer = page.locator("article.message.assistant").last();
  return answer;
}

const finished = (page: Page) => page.locator("article.message.assistant").last().and(page.locator(":not(.streaming)"));

const scrollState = (page: Page) =>
  page.locator("#log").evaluate((log) => ({ top: log.scrollTop, gap: log.scrollHeight - log.scrollTop - log.clientHeight }));

it("follows a slow stream unless scrolled up, and stop aborts the run on the server", async () => {
  const { page, problems, close } = await openPage(browser);
  try {
    await ready(page);
    const from = svc.output().length;
    const answer = await ask(page, "slow please");
    const lines = answer.locator(".content p");
    await lines.nth(24).waitFor();
    await page.waitForTimeout(100); // let the frame that drew it settle
    assert.ok((await scrollState(page)).gap < 48, "the view follows the stream");
    assert.ok(await answer.locator(".step.running").isVisible());

    await page.locator("#log").evaluate((log) => (log.scrollTop = 0));
    const seen = await lines.count();
    await lines.nth(seen + 4).waitFor();
    assert.is((await scrollState(page)).top, 0, "scrolled up: the view stays put");
    const jump = page.getByRole("button", { name: "Scroll to the latest message" });
    assert.ok(await jump.isVisible());
    await screenshot(page, "scrolled-up");
    await jump.click();
    await lines.nth((await lines.count()) + 1).waitFor();
    await page.waitForTimeout(100);
    assert.ok((await scrollState(page)).gap < 48, "following again after the jump");
    assert.not.ok(await jump.isVisible());

    await page.getByRole("button", { name: "Stop generating" }).click();
    await svc.waitFor(/chat_ui_probe saw the abort/, 10_000, from);
    await finished(page).waitFor();
    assert.is(await answer.locator(".note").innerText(), "Stopped.");
    assert.is(await answer.locator(".step.stopped").count(), 1, "the running step shows it was cut short");
    const count = await lines.count();
    await page.waitForTimeout(400);
    assert.is(await lines.count(), count, "nothing arrives after stop");
    assert.ok(await page.getByRole("button", { name: "Send" }).isVisible());
    assert.is(await page.evaluate(() => document.activeElement?.id), "input");
    await screenshot(page, "stopped");
    assert.equal(problems, []);
  } finally {
    await close();
  }
});

it("an answer with HTML and script runs no script; links open safely; code stays text", async () => {
  const { page, problems, close } = await openPage(browser);
  try {
    await ready(page);
    const answer = await ask(page, "xss");
    await finished(page).waitFor();
    await page.waitForTimeout(300); // give any injected handler the chance to fire
    const content = answer.locator(".content");
    const xss = () => page.evaluate(() => (window as unknown as { __xss?: string }).__xss);
    assert.is(await xss(), undefined, "no injected script ran");
    assert.is(await content.locator("script, iframe, svg, div, [onerror], [onclick], [onload], [style]").count(), 0);
    const text = await content.innerText();
    for (const shown of [`<img src=x onerror="window.__xss='img'">`, "<script>", "<iframe", `onclick="window.__xss='click'"`, "<div style="]) {
      assert.ok(text.includes(shown), `raw HTML is shown as text: ${shown}`);
    }
    const images = content.locator("img");
    assert.is(await images.count(), 1, "the Markdown image stays");
    assert.match((await images.getAttribute("src"))!, /^data:image\/png;base64,/);
    assert.is(await content.locator("kbd").innerText(), "Ctrl", "bare formatting tags stay markup");

    assert.is(await content.locator('a[href^="javascript:"]').count(), 0);
    assert.is(await content.getByRole("link").count(), 1, "only the Markdown link with a safe URL is a link");
    const link = content.getByRole("link", { name: "good link" });
    assert.match((await link.getAttribute("href"))!, /^https:\/\/example\.com\//);
    assert.is(await link.getAttribute("target"), "_blank");
    assert.is(await link.getAttribute("rel"), "noopener noreferrer");
    await content.getByText("bad link").click();
    await content.getByText("raw link").click();
    assert.is(await xss(), undefined, "clicking runs nothing either");
    assert.is((await content.locator("pre code").innerText()).trim(), `<img src=x onerror="window.__xss='code'">`, "code is shown, not run");
    assert.ok(await content.getByRole("button", { name: "Copy code" }).count() <= 1);
    await screenshot(page, "untrusted-html");
    // No untrusted attribute reached any document, not even the inert one the sanitizer parses:
    // so the page's CSP had nothing to block.
    assert.equal(problems, []);
  } finally {
    await close();
  }
});

it("server errors and a lost connection are shown in the conversation", async () => {
  const { page, problems, close } = await openPage(browser);
  try {
    await ready(page);
    let answer = await ask(page, "fail early");
    await finished(page).waitFor();
    assert.match(await answer.getByRole("alert").innerText(), /^500 Internal Server Error: Pipeline execution failed: broken before the first chunk/);

    answer = await ask(page, "fail late");
    await finished(page).waitFor();
    assert.is(await answer.locator(".content").innerText(), "Partial answer.", "what arrived is kept");
    assert.match(await answer.getByRole("alert").innerText(), /^500: Pipeline execution failed: broken midway/);

    await page.route("**/v1/chat/completions", (route) => route.abort("internetdisconnected"));
    answer = await ask(page, "anyone there?");
    await finished(page).waitFor();
    assert.match(await answer.getByRole("alert").innerText(), /^Could not reach the server/);
    await page.unroute("**/v1/chat/completions");

    // A pipeline that goes away between choosing it and asking: 404 from the server.
    const deploy = await fetch(`${svc.url}/deploy_files`, {
      method: "POST",
      body: JSON.stringify({ name: "short_lived", files: { "pipeline_wrapper.ts": wrapper("runChatCompletion() { return 'hi'; }") } }),
    });
    assert.is(deploy.status, 200);
    await ready(page, "short_lived");
    assert.is((await fetch(`${svc.url}/undeploy/short_lived`, { method: "POST" })).status, 200);
    answer = await ask(page, "hello?");
    await finished(page).waitFor();
    assert.match(await answer.getByRole("alert").innerText(), /^404 Not Found: Pipeline 'short_lived' not found/);
    await screenshot(page, "errors");

    // The failed turns are not sent back to the server as assistant messages.
    const sent = page.waitForRequest("**/v1/chat/completions");
    await page.getByRole("combobox", { name: "Pipeline" }).selectOption("chat_ui_probe");
    await ask(page, "echo");
    const body = (await sent).postDataJSON() as { messages: { role: string; content: string }[] };
    assert.equal(
      body.messages.map((m) => m.role),
      ["user", "user", "assistant", "user", "user", "user"],
      "only answers with text are history",
    );
    await finished(page).waitFor();
    assert.equal(problems, []);
  } finally {
    await close();
  }
});

it.run();
