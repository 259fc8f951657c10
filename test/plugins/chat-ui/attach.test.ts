import * as assert from "uvu/assert";
import type { Browser, Page } from "playwright-core";
import type { RunningSvc } from "../../helpers/cli.js";
import { browserTest, launchBrowser, openPage, screenshot, startChatSvc } from "./browser.js";

const it = browserTest("attach.test");
let svc: RunningSvc;
let browser: Browser;

it.before(async () => {
  svc = await startChatSvc({ probe: true, env: { SERVICE_CHAT_UI_DEFAULT_MODEL: "chat_ui_probe", SERVICE_FILES_MAX_FILE_BYTES: "2000" } });
  browser = await launchBrowser();
});

it.after(async () => {
  await browser?.close();
  await svc?.stop("SIGKILL");
});

async function ready(page: Page): Promise<void> {
  await page.goto(`${svc.url}/chat`);
  await page.waitForFunction(() => !(document.getElementById("model") as HTMLSelectElement).disabled);
}

/** Picks files through the attach button's file chooser, as a person would. */
async function attach(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Attach files" }).click();
  await (await chooser).setFiles(files);
}

const uploadedIds = async () => ((await (await fetch(`${svc.url}/v1/files`)).json()) as { data: { id: string; filename: string }[] }).data;

it("attaches a file, and the pipeline reads it with the question and in later turns", async () => {
  const { page, problems, close } = await openPage(browser);
  try {
    await ready(page);
    await attach(page, [
      { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("The launch code is 4711.\n") },
      { name: "plan.md", mimeType: "text/markdown", buffer: Buffer.from("Ship on Thursday.") },
    ]);
    const chips = page.locator("#attachments .chip");
    await page.locator("#attachments .chip:not(.uploading)").nth(1).waitFor();
    assert.equal(await chips.locator(".chip-name").allInnerTexts(), ["notes.txt", "plan.md"]);
    assert.equal(await chips.locator(".chip-size").allInnerTexts(), ["25 B", "17 B"]);
    await screenshot(page, "attached");

    await page.getByRole("textbox", { name: "Message" }).fill("files: what do they say?");
    await page.keyboard.press("Enter");
    const answer = page.locator("article.message.assistant").last();
    await answer.and(page.locator(":not(.streaming)")).waitFor();
    assert.is(await answer.locator(".content").innerText(), "notes.txt: The launch code is 4711.\n\nplan.md: Ship on Thursday.");
    const sent = page.locator("article.message.user").last();
    assert.is(await sent.locator(".bubble").innerText(), "files: what do they say?");
    assert.equal(await sent.locator(".chip-name").allInnerTexts(), ["notes.txt", "plan.md"]);
    assert.not.ok(await page.locator("#attachments").isVisible(), "the composer's list is empty after sending");
    await screenshot(page, "answer-with-files");

    // The next turn sends the conversation again, the earlier file parts included.
    await page.getByRole("textbox", { name: "Message" }).fill("files again");
    await page.keyboard.press("Enter");
    const second = page.locator("article.message.assistant").nth(1);
    await second.and(page.locator(":not(.streaming)")).waitFor();
    assert.match(await second.locator(".content").innerText(), /^notes\.txt: The launch code is 4711\./);

    await page.reload();
    await page.waitForFunction(() => !(document.getElementById("model") as HTMLSelectElement).disabled);
    assert.equal(await page.locator("article.message.user").first().locator(".chip-name").allInnerTexts(), ["notes.txt", "plan.md"], "kept for the session");
    assert.equal(problems, []);
  } finally {
    await close();
  }
});

it("a removed attachment is deleted, a file over the limit is refused with a toast, files alone can be sent", async () => {
  const { page, problems, close } = await openPage(browser);
  try {
    await ready(page);
    await attach(page, [{ name: "draft.txt", mimeType: "text/plain", buffer: Buffer.from("draft") }]);
    await page.locator("#attachments .chip:not(.uploading)").waitFor();
    const draft = (await uploadedIds()).find((f) => f.filename === "draft.txt");
    assert.ok(draft, "uploaded when picked");
    await page.getByRole("button", { name: "Remove draft.txt" }).click();
    assert.is(await page.locator("#attachments .chip").count(), 0);
    for (let i = 0; i < 50 && (await uploadedIds()).some((f) => f.id === draft!.id); i++) await page.waitForTimeout(100);
    assert.not.ok((await uploadedIds()).some((f) => f.id === draft!.id), "the removed upload is deleted on the server");

    await attach(page, [{ name: "big.txt", mimeType: "text/plain", buffer: Buffer.alloc(3000, 97) }]);
    const error = page.locator(".toast.error .toast-text");
    await error.waitFor();
    assert.match(await error.innerText(), /Could not attach big\.txt: 413.*exceeds the limit of 2000 bytes/);
    assert.is(await page.locator("#attachments .chip").count(), 0, "the refused file is not attached");

    // No text: the files are the message (the probe answers a message without "files" by echoing it).
    await attach(page, [{ name: "only.txt", mimeType: "text/plain", buffer: Buffer.from("just a file") }]);
    await page.locator("#attachments .chip:not(.uploading)").waitFor();
    await page.getByRole("button", { name: "Send" }).click();
    const sent = page.locator("article.message.user").last();
    await sent.waitFor();
    assert.is(await sent.locator(".bubble").count(), 0, "no empty bubble");
    assert.equal(await sent.locator(".chip-name").allInnerTexts(), ["only.txt"]);
    await page.locator("article.message.assistant").last().and(page.locator(":not(.streaming)")).waitFor();
    assert.equal(problems, []);
  } finally {
    await close();
  }
});

it.run();
