/**
 * @module Helpers for the chat UI's browser tests: the system Chromium driven by playwright-core
 * (never a downloaded browser), a real `svc run --with-chat-ui` over a temporary pipelines folder
 * holding the `ui_events_demo` example and a probe pipeline, pages that record CSP violations and
 * script errors, and screenshots under `test-output/chat-ui/`.
 */
import { cpSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import { chromium, type Browser, type Page } from "playwright-core";
import { repoRoot, startSvc, type RunningSvc } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/pipelines.js";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const SCREENSHOTS = join(repoRoot, "test-output", "chat-ui");

/**
 * uvu's `test` when the browser is there; else a stand-in whose tests are all `test.skip`ped (so
 * the run counts them as skipped) and whose hooks do nothing, with the reason printed once.
 */
export function browserTest(file: string): typeof test {
  if (existsSync(CHROMIUM)) return test;
  console.log(`${file}: browser tests skipped: no Chromium at ${CHROMIUM} (install Debian's chromium or set CHROMIUM_PATH)`);
  const skip = (name: string) => test.skip(name);
  const noop = () => undefined;
  return Object.assign(skip, { skip, only: skip, before: Object.assign(noop, { each: noop }), after: Object.assign(noop, { each: noop }), run: () => test.run() }) as unknown as typeof test;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
}

const FENCE = "```";

/** Answers that exercise the UI: selected by the start of the last user message. */
export const PROBE_WRAPPER = `import {
  BasePipelineWrapper, createMessageEvent, createNotificationEvent, createReplaceEvent, createStatusEvent, getLastUserMessage,
  type ChatMessage, type RunContext,
} from "svc";

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });

const XSS = [
  "Image: <img src=x onerror=\\"window.__xss='img'\\"> and ![a dot](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=) and <kbd>Ctrl</kbd>",
  "<script>window.__xss='script'</script>",
  "<iframe src=\\"javascript:window.__xss='iframe'\\"></iframe>",
  "[bad link](javascript:window.__xss='link') and [good link](https://example.com/docs) and <a href=\\"https://example.com/\\" onclick=\\"window.__xss='click'\\">raw link</a>",
  "<svg><g onload=\\"window.__xss='svg'\\"></g></svg><div style=\\"position:fixed;inset:0\\">styled</div>",
  "${FENCE}html\\n<img src=x onerror=\\"window.__xss='code'\\">\\n${FENCE}",
].join("\\n\\n");

export class PipelineWrapper extends BasePipelineWrapper {
  async *runChatCompletion(_model: string, messages: ChatMessage[], _body: Record<string, unknown>, ctx: RunContext) {
    const question = (getLastUserMessage(messages) ?? "").trim();
    if (question.startsWith("slow")) {
      ctx.signal.addEventListener("abort", () => ctx.log.info("chat_ui_probe saw the abort"), { once: true });
      yield createStatusEvent("Streaming slowly");
      for (let i = 1; i <= 600 && !ctx.signal.aborted; i++) {
        yield \`Line \${i}\\n\\n\`;
        await sleep(80, ctx.signal);
      }
      return;
    }
    if (question === "fail early") throw new Error("broken before the first chunk");
    if (question === "fail late") {
      yield "Partial answer. ";
      await sleep(50);
      throw new Error("broken midway");
    }
    if (question.startsWith("files")) {
      yield ctx.files.map((f) => \`\${f.filename}: \${f.text().trim()}\`).join("\\n\\n") || "No files.";
      return;
    }
    if (question === "xss") {
      yield XSS;
      return;
    }
    if (question.startsWith("edit")) {
      yield createStatusEvent("Thinking quietly", false, true);
      yield createStatusEvent("Editing");
      yield "Draft answer";
      yield createStatusEvent("Editing", true);
      yield createReplaceEvent("Final answer");
      yield createMessageEvent(" with an appended line.");
      yield createNotificationEvent("Edited the answer", "warning");
      return;
    }
    yield \`Echo: \${question}\`;
  }
}
`;

export interface ChatSvcOptions {
  /** Deploy the probe pipeline beside ui_events_demo. */
  probe?: boolean;
  args?: string[];
  env?: Record<string, string>;
}

export async function startChatSvc(options: ChatSvcOptions = {}): Promise<RunningSvc> {
  const dir = join(tempDir("svc-chat-ui-"), "pipelines");
  cpSync(join(repoRoot, "pipelines", "ui_events_demo"), join(dir, "ui_events_demo"), { recursive: true });
  if (options.probe) {
    mkdirSync(join(dir, "chat_ui_probe"), { recursive: true });
    writeFileSync(join(dir, "chat_ui_probe", "pipeline_wrapper.ts"), PROBE_WRAPPER);
  }
  const args = ["run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", dir, "--with-chat-ui", ...(options.args ?? [])];
  return startSvc(args, { env: { UI_EVENTS_DEMO_DELAY_MS: "60", ...options.env } });
}

export interface WatchedPage {
  page: Page;
  /** CSP violations and uncaught script errors seen so far. */
  problems: string[];
  close(): Promise<void>;
}

/**
 * A page in a fresh context (its own sessionStorage) that records what must never happen: uncaught
 * script errors, and every CSP violation as the page itself sees it (the standard
 * `securitypolicyviolation` event, not a browser's console wording, which changes between builds).
 */
export async function openPage(browser: Browser, viewport = { width: 900, height: 640 }): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport });
  const problems: string[] = [];
  await context.exposeBinding("__svcTestViolation", (_source, text: string) => void problems.push(text));
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { __svcTestViolation(text: string): void }).__svcTestViolation;
      report(`CSP: ${event.effectiveDirective} blocked ${event.blockedURI || "(inline)"} ${event.sample}`.trim());
    });
  });
  const page = await context.newPage();
  page.on("pageerror", (error) => problems.push(`script error: ${error.message}`));
  return { page, problems, close: () => context.close() };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}
