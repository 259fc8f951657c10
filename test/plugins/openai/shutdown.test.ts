import { test } from "uvu";
import * as assert from "uvu/assert";
import { Agent, request } from "node:http";
import { chatWrapper, withChatKernel } from "./chat-helpers.js";

const FOREVER = chatWrapper(`
  async *runApi(_input: unknown, ctx: any) { for (let i = 0; !ctx.signal.aborted; i++) { yield "tick " + i + "\\n"; await sleep(50); } }
  async *runChatCompletion(_m: string, _msgs: unknown, _b: unknown, ctx: any) { for (let i = 0; !ctx.signal.aborted; i++) { yield "tick "; await sleep(50); } }
  async *runResponse(_m: string, _i: unknown, _b: unknown, ctx: any) { for (let i = 0; !ctx.signal.aborted; i++) { yield "tick "; await sleep(50); } }
`);
const SLOW = chatWrapper(`  async runApi() { await sleep(300); return "done"; }`);

test("during the drain every answer says Connection: close, and keep-alive sockets are closed after it", () =>
  withChatKernel(
    async (k) => {
      await k.deployChat("slow", SLOW);
      const agent = new Agent({ keepAlive: true, maxSockets: 8 });
      try {
        // Warm the sockets up so each next request reuses a kept-alive connection.
        const get = () =>
          new Promise<{ connection?: string; closed: Promise<void> }>((resolve, reject) => {
            const req = request(`${k.url}/slow/run`, { method: "POST", agent, headers: { "content-type": "application/json" } }, (res) => {
              res.resume();
              const closed = new Promise<void>((done) => req.socket!.once("close", () => done()));
              res.on("end", () => resolve({ connection: res.headers.connection, closed }));
            });
            req.on("error", reject);
            req.end("{}");
          });
        const warm = await Promise.all(Array.from({ length: 8 }, get));
        assert.ok(warm.every((r) => r.connection === "keep-alive"));
        const during = Array.from({ length: 8 }, get);
        await new Promise((r) => setTimeout(r, 100));
        const closing = k.kernel.close();
        const answers = await Promise.all(during);
        assert.ok(answers.every((r) => r.connection === "close"), JSON.stringify(answers.map((a) => a.connection)));
        await Promise.all(answers.map((a) => a.closed));
        await closing;
      } finally {
        agent.destroy();
      }
    },
    { settings: { gracefulShutdownTimeout: 5 } },
  ));

test("streams still open when the grace period ends are cut so the client can tell", () =>
  withChatKernel(
    async (k) => {
      await k.deployChat("forever", FOREVER);
      const post = (path: string, body: unknown) =>
        fetch(`${k.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      const chat = await post("/v1/chat/completions", { model: "forever", stream: true, messages: [{ role: "user", content: "go" }] });
      const responses = await post("/v1/responses", { model: "forever", stream: true, input: "go" });
      const run = await post("/forever/run", {});
      const texts = [chat, responses].map((res) => res.text());
      const runText = run.text().then(
        (text) => ({ ok: true, text }),
        (error: Error) => ({ ok: false, text: String(error.cause ?? error) }),
      );
      await new Promise((r) => setTimeout(r, 200));
      await k.kernel.close();

      const [chatText, responsesText] = await Promise.all(texts);
      assert.match(chatText!, /data: \{"error":\{"message":"The server is shutting down[^"]*","type":"server_error","code":503\}\}/);
      assert.not.match(chatText!, /\[DONE\]/, "a cut chat stream never says it is done");
      assert.match(responsesText!, /event: response\.failed/);
      assert.not.match(responsesText!, /response\.completed/);
      const cut = await runText;
      assert.not.ok(cut.ok, `the /run stream ends with a broken connection, not a clean end: ${cut.text.slice(0, 80)}`);
    },
    { settings: { gracefulShutdownTimeout: 0.3 } },
  ));

test.run();
