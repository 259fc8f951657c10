import * as assert from "uvu/assert";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { addKey } from "../../../cli/auth.js";
import type { RunningSvc } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/pipelines.js";
import { browserTest, launchBrowser, openPage, screenshot, startChatSvc } from "./browser.js";

const it = browserTest("api-key.test");
let svc: RunningSvc;
let browser: Browser;
/** A run key for every pipeline, and one for ui_events_demo only. */
let key: string;
let demoOnly: string;

it.before(async () => {
  const keysFile = join(tempDir("svc-chat-keys-"), "keys.yaml");
  key = await addKey("chat", { scope: "run", keysFile });
  demoOnly = await addKey("demo-only", { scope: "run", pipelines: "ui_events_demo", keysFile });
  svc = await startChatSvc({ probe: true, args: ["--plugin", "svc:auth"], env: { SERVICE_AUTH_KEYS_FILE: keysFile } });
  browser = await launchBrowser();
});

it.after(async () => {
  await browser?.close();
  await svc?.stop("SIGKILL");
});

const keyDialog = (page: Page) => page.getByRole("dialog", { name: "API key required" });

async function enterKey(page: Page, value: string): Promise<void> {
  const dialog = keyDialog(page);
  await dialog.waitFor();
  await dialog.getByLabel("API key").fill(value);
  await dialog.getByRole("button", { name: "Use key" }).click();
}

const pickerReady = (page: Page) => page.waitForFunction(() => !(document.getElementById("model") as HTMLSelectElement).disabled);

async function ask(page: Page, text: string) {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.keyboard.press("Enter");
  return page.locator("article.message.assistant").last();
}

const finished = (page: Page) => page.locator("article.message.assistant").last().and(page.locator(":not(.streaming)"));

/** Every value the page keeps in session and local storage. */
const storage = (page: Page) => page.evaluate(() => ({ session: Object.values(sessionStorage), local: Object.values(localStorage) }));

it("with svc:auth on: the page loads without a key, asks for one, refuses a wrong one and asks again, chats with the right one", async () => {
  const { page, problems, close } = await openPage(browser);
  const sentKeys: (string | undefined)[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/v1/chat/completions") sentKeys.push(request.headers().authorization);
  });
  try {
    const response = await page.goto(`${svc.url}/chat`);
    assert.is(response?.status(), 200, "the page itself is static and needs no key");
    const dialog = keyDialog(page);
    await dialog.waitFor();
    assert.ok(await dialog.getByRole("button", { name: "Cancel" }).isVisible());
    assert.ok(await page.getByRole("combobox", { name: "Pipeline" }).isDisabled(), "no pipelines without a key");
    await screenshot(page, "key-prompt");

    await enterKey(page, "svc_not-a-key");
    // Refused: the dialog is back with the refusal shown, the field empty, the key not kept.
    await page.locator("#key-message.error").waitFor();
    assert.ok(await dialog.isVisible());
    assert.match(await dialog.getByRole("alert").innerText(), /401/);
    assert.is(await dialog.getByLabel("API key").inputValue(), "");
    assert.not.ok((await storage(page)).session.includes("svc_not-a-key"), "a refused key is forgotten");
    await screenshot(page, "key-refused");

    await enterKey(page, key);
    await pickerReady(page);
    assert.not.ok(await dialog.isVisible());
    await page.getByRole("combobox", { name: "Pipeline" }).selectOption("chat_ui_probe");
    await ask(page, "hello");
    await finished(page).waitFor();
    assert.is(await page.locator("article.message.assistant .content").last().innerText(), "Echo: hello");
    assert.equal(sentKeys, [`Bearer ${key}`], "the chat request carried the key");

    const kept = await storage(page);
    assert.ok(kept.session.includes(key), "the key is in this tab's session storage");
    assert.not.ok(kept.local.some((v) => v.includes(key)), "never in local storage");
    assert.equal(await page.context().cookies(), [], "never in a cookie");
    assert.ok(await page.getByRole("button", { name: "API key" }).isVisible(), "the key can be changed later");

    // A reload in the same tab keeps the key: no prompt, the chat goes on.
    await page.reload();
    await pickerReady(page);
    assert.not.ok(await dialog.isVisible());
    await page.getByRole("combobox", { name: "Pipeline" }).selectOption("chat_ui_probe");
    await ask(page, "again");
    await finished(page).waitFor();
    assert.is(await page.locator("article.message.assistant .content").last().innerText(), "Echo: again");
    assert.equal(problems, []);
  } finally {
    await close();
  }

  // Another browsing context (another tab's session) does not have it.
  const other = await openPage(browser);
  try {
    await other.page.goto(`${svc.url}/chat`);
    await keyDialog(other.page).waitFor();
    assert.not.ok((await storage(other.page)).session.includes(key));
    assert.equal(other.problems, []);
  } finally {
    await other.close();
  }
});

it("a key without the right to a pipeline (403) asks again: cancel fails the answer, another key sends it", async () => {
  const { page, problems, close } = await openPage(browser);
  try {
    await page.goto(`${svc.url}/chat`);
    await enterKey(page, demoOnly);
    await pickerReady(page);
    const picker = page.getByRole("combobox", { name: "Pipeline" });
    // /v1/models lists only the key's pipelines, so the picker does not offer this one...
    const offered = await picker.locator("option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    assert.ok(offered.length > 0 && !offered.includes("chat_ui_probe"), "the picker lists only the key's pipelines");
    // ...but a list loaded before the key's rights changed still can: the chat then meets a 403.
    await picker.evaluate((select: HTMLSelectElement) => select.add(new Option("chat_ui_probe", "chat_ui_probe")));
    await picker.selectOption("chat_ui_probe");

    await ask(page, "first");
    const dialog = keyDialog(page);
    await page.locator("#key-message.error").waitFor();
    assert.match(await dialog.getByRole("alert").innerText(), /403/);
    assert.match(await dialog.getByRole("alert").innerText(), /chat_ui_probe/, "the refusal names what was refused");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await finished(page).waitFor();
    assert.match(await page.locator("article.message.assistant").last().getByRole("alert").innerText(), /^403/);
    assert.ok((await storage(page)).session.includes(demoOnly), "a valid key is kept after a 403");

    await ask(page, "second");
    await enterKey(page, key);
    await finished(page).waitFor();
    assert.is(await page.locator("article.message.assistant .content").last().innerText(), "Echo: second");
    const kept = (await storage(page)).session;
    assert.ok(kept.includes(key) && !kept.includes(demoOnly), "the new key replaced the old one");
    assert.equal(problems, []);
  } finally {
    await close();
  }
});

it.run();
