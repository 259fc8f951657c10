import * as assert from "uvu/assert";
import type { Browser } from "playwright-core";
import type { RunningSvc } from "../../helpers/cli.js";
import { browserTest, launchBrowser, openPage, screenshot, startChatSvc } from "./browser.js";

const it = browserTest("chat.test");
let svc: RunningSvc;
let browser: Browser;

it.before(async () => {
  svc = await startChatSvc({ probe: true, env: { SERVICE_CHAT_UI_DEFAULT_MODEL: "ui_events_demo" } });
  browser = await launchBrowser();
});

it.after(async () => {
  await browser?.close();
  await svc?.stop("SIGKILL");
});

it("streams an answer with status steps, a toast, a source and a details block", async () => {
  const { page, problems, close } = await openPage(browser);
  try {
    await page.goto(`${svc.url}/chat`);
    const picker = page.getByRole("combobox", { name: "Pipeline" });
    await page.waitForFunction(() => !(document.getElementById("model") as HTMLSelectElement).disabled);
    assert.is(await picker.inputValue(), "ui_events_demo", "the configured default is selected");
    assert.equal((await picker.locator("option").allTextContents()).sort(), ["chat_ui_probe", "ui_events_demo"], "no placeholder once chosen");
    assert.is(await page.evaluate(() => document.activeElement?.id), "input", "focus starts in the message box");

    await page.getByRole("textbox", { name: "Message" }).fill("What is svc?");
    await page.keyboard.press("Enter");
    const answer = page.locator("article.message.assistant").last();

    // While streaming: a running step, part of the text, the stop button instead of send.
    await answer.locator(".step.running").first().waitFor();
    await answer.locator(".content:not([hidden])").waitFor();
    assert.ok(await answer.evaluate((el) => el.classList.contains("streaming")));
    assert.ok(await page.getByRole("button", { name: "Stop generating" }).isVisible());
    assert.not.ok(await page.getByRole("button", { name: "Send" }).isVisible());
    // The content box shows before its first words are drawn, and the words come one per frame:
    // wait for the first two ("You " alone would be drawn for a moment), not for the box.
    await answer.locator(".content", { hasText: /You asked/ }).waitFor();
    const partial = await answer.locator(".content").innerText();
    assert.match(partial, /^You asked/);
    await screenshot(page, "streaming");

    await answer.and(page.locator(":not(.streaming)")).waitFor();
    const text = await answer.locator(".content").innerText();
    assert.ok(text.length > partial.length, "more text arrived after the first look");
    assert.match(text, /You asked: "What is svc\?"\. This answer is streamed word by word/);

    const steps = answer.locator(".step");
    assert.equal(await steps.locator(".text").allInnerTexts(), ["Looking up the svc documentation...", "Writing the answer...", "Done"]);
    assert.is(await answer.locator(".step.done").count(), 3, "every step completed");
    assert.is(await answer.locator(".step.running").count(), 0);

    const toast = page.locator(".toast.success");
    assert.is(await toast.locator(".toast-text").innerText(), "Answer complete");

    const source = answer.getByRole("link", { name: "Open WebUI documentation" });
    assert.is(await source.getAttribute("href"), "https://docs.openwebui.com/");
    assert.is(await source.getAttribute("target"), "_blank");
    assert.is(await source.getAttribute("rel"), "noopener noreferrer");
    assert.match(await answer.locator(".snippet").innerText(), /serves every pipeline/);

    assert.ok(await page.getByRole("button", { name: "Send" }).isVisible());
    assert.is(await page.evaluate(() => document.activeElement?.id), "input", "focus returns to the message box");

    const details = answer.locator("details");
    assert.is(await details.locator("summary").innerText(), "How this answer was made");
    assert.not.ok(await details.evaluate((d) => (d as HTMLDetailsElement).open));
    await details.locator("summary").click();
    assert.ok(await details.evaluate((d) => (d as HTMLDetailsElement).open));
    assert.is(await details.locator("code").first().innerText(), "createStatusEvent");
    await screenshot(page, "answer");
    assert.equal(problems, []);
  } finally {
    await close();
  }
});

it("keeps the conversation for the session, starts a new one, and sends on Enter only", async () => {
  const { page, problems, close } = await openPage(browser);
  try {
    await page.goto(`${svc.url}/chat`);
    await page.waitForFunction(() => !(document.getElementById("model") as HTMLSelectElement).disabled);
    await page.getByRole("combobox", { name: "Pipeline" }).selectOption("chat_ui_probe");

    const input = page.getByRole("textbox", { name: "Message" });
    await input.focus();
    await page.keyboard.type("edit");
    await page.keyboard.press("Shift+Enter");
    await page.keyboard.type("please");
    assert.is(await input.inputValue(), "edit\nplease", "Shift+Enter adds a line");
    assert.is(await page.locator("article.message").count(), 0, "nothing sent yet");
    await page.keyboard.press("Enter");
    assert.is(await input.inputValue(), "");

    const answer = page.locator("article.message.assistant").last();
    await answer.and(page.locator(":not(.streaming)")).waitFor();
    assert.is(await page.locator("article.message.user .bubble").innerText(), "edit\nplease");
    assert.is(await answer.locator(".content").innerText(), "Final answer with an appended line.", "replace, then message appends");
    assert.is(await page.locator(".toast.warning .toast-text").innerText(), "Edited the answer");
    assert.equal(await answer.locator(".step .text").allInnerTexts(), ["Editing"], "a hidden status is not shown");
    assert.is(await answer.locator(".step.done").count(), 1, "a done status completes its step");

    await input.fill("second question");
    await page.keyboard.press("Enter");
    await page.locator("article.message.assistant").nth(1).and(page.locator(":not(.streaming)")).waitFor();
    assert.match(await page.locator("article.message.assistant").nth(1).innerText(), /Echo: second question/);

    await page.reload();
    await page.waitForFunction(() => !(document.getElementById("model") as HTMLSelectElement).disabled);
    assert.is(await page.locator("article.message").count(), 4, "the conversation survives a reload");
    assert.is(await page.getByRole("combobox", { name: "Pipeline" }).inputValue(), "chat_ui_probe", "so does the chosen pipeline");
    assert.is(await page.locator("article.message.assistant .content").first().innerText(), "Final answer with an appended line.");

    await page.getByRole("button", { name: "New chat" }).click();
    assert.is(await page.locator("article.message").count(), 0);
    assert.ok(await page.locator("#empty").isVisible());
    await page.reload();
    assert.is(await page.locator("article.message").count(), 0, "the new chat is what the session keeps");
    assert.equal(problems, []);
  } finally {
    await close();
  }
});

it("fits a phone-width screen and follows the system's dark theme", async () => {
  const { page, problems, close } = await openPage(browser, { width: 390, height: 760 });
  try {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(`${svc.url}/chat`);
    await page.waitForFunction(() => !(document.getElementById("model") as HTMLSelectElement).disabled);
    await page.getByRole("textbox", { name: "Message" }).fill("Does this fit on a phone?");
    await page.keyboard.press("Enter");
    await page.locator("article.message.assistant").and(page.locator(":not(.streaming)")).waitFor();
    await page.locator("article.message.assistant details summary").click();
    const fits = async (when: string) => {
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `no horizontal scrolling ${when} (${width}px)`);
      const controls = [
        page.getByRole("combobox", { name: "Pipeline" }),
        page.getByRole("textbox", { name: "Message" }),
        page.getByRole("button", { name: "New chat" }),
        page.getByRole("button", { name: "Send" }),
      ];
      for (const control of controls) {
        const box = await control.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${control} is on screen ${when}`);
      }
    };
    await fits("");
    // A long pipeline name in the picker (its widest option sizes a select) must not widen the page.
    const picker = page.getByRole("combobox", { name: "Pipeline" });
    await picker.evaluate((select: HTMLSelectElement) => select.add(new Option("a_pipeline_whose_name_is_long_enough_to_overflow", "long")));
    await fits("with a long pipeline name");
    await picker.evaluate((select: HTMLSelectElement) => select.lastElementChild!.remove());
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.is(background, "rgb(21, 24, 28)", "dark background");
    await screenshot(page, "phone-dark");

    await page.emulateMedia({ colorScheme: "light" });
    assert.is(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), "rgb(255, 255, 255)", "light background");
    assert.equal(problems, []);
  } finally {
    await close();
  }
});

it.run();
