import { test } from "uvu";
import * as assert from "uvu/assert";
import { definePlugin, DROP, type RunCall, type StreamInfo } from "svc/plugin";
import { openRequest, sleep, until } from "../../helpers/http.js";
import { chatWrapper, rawChat, userMessage, withChatKernel, type ChatKernel } from "./chat-helpers.js";

/** Records when ctx.signal fires and whether the generator was closed, in globalThis[key]. */
const recorder = (key: string, body: string) =>
  chatWrapper(`  async *runChatCompletion(model: string, messages: any[], body: any, ctx: any) {
    const rec = ((globalThis as any)[${JSON.stringify(key)}] = { abortedAt: 0, closed: false, yielded: 0 });
    ctx.signal.addEventListener("abort", () => (rec.abortedAt = performance.now()));
    const aborted = new Promise((r) => ctx.signal.addEventListener("abort", r));
    try {
${body}
    } finally { rec.closed = true; }
  }`);

const record = (key: string) => (globalThis as any)[key] as { abortedAt: number; closed: boolean; yielded: number } | undefined;

/** Sends a chat request and destroys the connection when `when` says so; resolves with the time. */
function disconnect(k: ChatKernel, body: Record<string, unknown>, when: "after-ms" | "first-byte", ms = 150): Promise<number> {
  return new Promise((resolve) => {
    const req = openRequest(`${k.url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" } });
    req.on("error", () => undefined);
    const cut = () => {
      const at = performance.now();
      req.destroy();
      resolve(at);
    };
    if (when === "after-ms") setTimeout(cut, ms);
    else req.on("response", (res) => res.once("data", cut));
    req.end(JSON.stringify(body));
  });
}

test("a disconnect before the first byte aborts ctx.signal (streaming and not)", () =>
  withChatKernel(async (k) => {
    await k.deployChat("waits", recorder("__chatBefore", `      await aborted; yield "never sent";`));
    for (const stream of [true, false]) {
      delete (globalThis as any).__chatBefore;
      const cutAt = await disconnect(k, { model: "waits", messages: userMessage("x"), stream }, "after-ms");
      // The wrapper waits for the abort and nothing else: only the disconnect can end it.
      await until(() => (record("__chatBefore")?.abortedAt ?? 0) > 0, 10_000, "ctx.signal aborted");
      assert.ok(record("__chatBefore")!.abortedAt >= cutAt, `aborted after the disconnect (stream: ${stream})`);
      await until(() => record("__chatBefore")!.closed, 2000, "generator closed");
    }
    await sleep(20);
    assert.not.ok(k.logs.some((l) => l.includes("ERROR")), "a disconnect is not a server error");
  }));

test("a disconnect after the first byte aborts ctx.signal and closes the wrapper's iterator", () =>
  withChatKernel(async (k) => {
    await k.deployChat("first", recorder("__chatAfter", `      yield "first"; await aborted; yield "after the abort";`));
    const cutAt = await disconnect(k, { model: "first", messages: userMessage("x"), stream: true }, "first-byte");
    await until(() => (record("__chatAfter")?.abortedAt ?? 0) > 0, 10_000, "ctx.signal aborted");
    assert.ok(record("__chatAfter")!.abortedAt >= cutAt, "aborted after the disconnect");
    await until(() => record("__chatAfter")!.closed, 2000, "generator closed");

    // A wrapper that ignores the signal is still stopped: its iterator is closed at its next yield.
    await k.deployChat("endless", recorder("__chatEndless", `      for (;;) { yield "tick "; rec.yielded++; await sleep(20); }`));
    await disconnect(k, { model: "endless", messages: userMessage("x"), stream: true }, "first-byte");
    await until(() => record("__chatEndless")?.closed === true, 2000, "endless generator closed");
    const yielded = record("__chatEndless")!.yielded;
    await sleep(100);
    assert.is(record("__chatEndless")!.yielded, yielded, "no more items are pulled");
    for (const key of ["__chatBefore", "__chatAfter", "__chatEndless"]) delete (globalThis as any)[key];
  }));

test("the run hook sees transport openai; every chunk passes the stream hook (kind chat.chunk)", async () => {
  const calls: string[] = [];
  const streams: string[] = [];
  const observer = definePlugin({
    name: "observer",
    setup(kernel) {
      kernel.hooks.run.tap(async (call: RunCall, next) => {
        calls.push(`${call.transport}:${call.pipeline}:${call.method}:${(call.input as any).model}`);
        return next();
      });
      kernel.hooks.stream.tap({
        item: (item: any) => {
          const delta = item.choices?.[0]?.delta;
          if (delta?.content === "secret") return DROP;
          if (typeof delta?.content === "string") return { ...item, choices: [{ ...item.choices[0], delta: { ...delta, content: delta.content.toUpperCase() } }] };
          return undefined;
        },
        start: (info: StreamInfo) => streams.push(`start ${info.transport} ${info.kind} ${info.pipeline}`),
        end: (info: StreamInfo, stats) => streams.push(`end ${info.kind} ${stats.items}`),
      });
    },
  });
  await withChatKernel(
    async (k) => {
      await k.deployChat("hooked", chatWrapper(`  async *runChatCompletion() { yield "public "; yield "secret"; yield "end"; }`));
      const raw = await rawChat(k.url, { model: "hooked", messages: userMessage("x"), stream: true });
      assert.equal(
        raw.json.map((c) => c.choices[0].delta.content),
        ["PUBLIC ", "END", ""],
      );
      const completion = await k.client.chat.completions.create({ model: "hooked", messages: userMessage("x") });
      assert.is(completion.choices[0]!.message.content, "PUBLIC END", "a drained answer passes the hook too");
      assert.equal(calls, ["openai:hooked:runChatCompletion:hooked", "openai:hooked:runChatCompletion:hooked"]);
      assert.equal(streams, ["start openai chat.chunk hooked", "end chat.chunk 3", "start openai chat.chunk hooked", "end chat.chunk 2"]);
    },
    { plugins: [observer] },
  );
});

test("SSE heartbeats follow SERVICE_SSE_HEARTBEAT_MS, also while waiting for the first chunk", () =>
  withChatKernel(
    async (k) => {
      // The first chunk waits for the test's gate: what arrives before it opens came without a chunk.
      let open!: () => void;
      (globalThis as any).__heartbeatGate = new Promise<void>((resolve) => (open = resolve));
      await k.deployChat("slow", chatWrapper(`  async *runChatCompletion() { await (globalThis as any).__heartbeatGate; yield "a"; yield "b"; }`));
      const started = performance.now();
      const res = await fetch(`${k.url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ model: "slow", messages: userMessage("x"), stream: true }) });
      assert.is(res.status, 200, "headers come before the first chunk");
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = "";
      while ((text.match(/: ping\n\n/g) ?? []).length < 3) {
        const { value, done } = await reader.read();
        assert.not.ok(done, "the stream stays open while the first chunk is awaited");
        text += decoder.decode(value, { stream: true });
      }
      assert.match(text, /^(: ping\n\n)+$/, "only heartbeats while waiting");
      // Three at the default 15 s interval would take 45 s.
      assert.ok(performance.now() - started < 30_000, "the heartbeat follows the setting, not the default");
      open();
      for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value, { stream: true });
      assert.match(text, /"content":"a"[\s\S]*"content":"b"/);
      assert.ok(text.endsWith("data: [DONE]\n\n"));
    },
    { settings: { sseHeartbeatMs: 100 } },
  ));

test("two concurrent streams on one pipeline each get only their own content", () =>
  withChatKernel(async (k) => {
    await k.deployChat(
      "echoes",
      chatWrapper(`  async *runChatCompletion(model: string, messages: any[]) { const q = getLastUserMessage(messages); for (let i = 0; i < 5; i++) { yield q + i + " "; await sleep(3); } }`),
    );
    const [a, b] = await Promise.all(["A", "B"].map((q) => rawChat(k.url, { model: "echoes", messages: userMessage(q), stream: true })));
    assert.is(a!.json.map((c) => c.choices[0].delta.content).join(""), "A0 A1 A2 A3 A4 ");
    assert.is(b!.json.map((c) => c.choices[0].delta.content).join(""), "B0 B1 B2 B3 B4 ");
  }));

test.run();
