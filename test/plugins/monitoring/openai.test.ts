import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import { openaiPlugin } from "../../../plugins/openai/index.js";
import { closedGate, withMonitored, wrapperWith, type MonitoredKernel } from "./helpers.js";

const withOpenAI = (fn: (k: MonitoredKernel, client: OpenAI) => Promise<void>) =>
  withMonitored((k) => fn(k, new OpenAI({ baseURL: `${k.url}/v1`, apiKey: "any", maxRetries: 0, timeout: 10_000 })), { before: [openaiPlugin()] });

const finished = (k: MonitoredKernel, pipeline: string) => k.latest(pipeline).then((r) => k.waitFor(r.id, (x) => x.status !== "running"));

test("chat completions, plain and streamed, are recorded as transport openai / runChatCompletion", () =>
  withOpenAI(async (k, client) => {
    await k.deploy("plain", wrapperWith(`runChatCompletion() { return "hello"; }`));
    const answer = await client.chat.completions.create({ model: "plain", messages: [{ role: "user", content: "hi" }] });
    assert.is(answer.choices[0]!.message.content, "hello");
    const plain = await finished(k, "plain");
    assert.equal([plain.transport, plain.method, plain.status], ["openai", "runChatCompletion", "succeeded"]);

    await k.deploy("streamed", wrapperWith(`async *runChatCompletion() { yield "a"; await gate("chat-open"); yield "b"; }`));
    const open = closedGate("chat-open");
    const stream = await client.chat.completions.create({ model: "streamed", messages: [{ role: "user", content: "hi" }], stream: true });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    assert.is((await k.latest("streamed")).status, "running");
    open();
    let text = "";
    for (let step = await iterator.next(); !step.done; step = await iterator.next()) text += step.value.choices[0]?.delta?.content ?? "";
    assert.match(text, /b/);
    assert.is((await finished(k, "streamed")).status, "succeeded");
  }));

test("a chat stream that fails mid-way is a failed record with the message", () =>
  withOpenAI(async (k) => {
    await k.deploy("broken", wrapperWith(`async *runChatCompletion() { yield "a"; throw new Error("model fell over"); }`));
    const res = await fetch(`${k.url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ model: "broken", messages: [{ role: "user", content: "x" }], stream: true }) });
    await res.text();
    const record = await finished(k, "broken");
    assert.equal([record.status, record.error], ["failed", "model fell over"]);
  }));

test("responses, plain and streamed, are recorded as transport openai / runResponse", () =>
  withOpenAI(async (k, client) => {
    await k.deploy("resp", wrapperWith(`async *runResponse() { yield "Hel"; yield "lo"; }`));
    const plain = await client.responses.create({ model: "resp", input: "hi" });
    assert.is(plain.output_text, "Hello");
    const first = await finished(k, "resp");
    assert.equal([first.transport, first.method, first.status], ["openai", "runResponse", "succeeded"]);
    const stream = await client.responses.create({ model: "resp", input: "hi", stream: true });
    const kinds: string[] = [];
    for await (const event of stream) kinds.push(event.type);
    assert.ok(kinds.includes("response.completed"));
    const second = await finished(k, "resp");
    assert.is.not(second.id, first.id);
    assert.is(second.status, "succeeded");
    assert.is((await k.get("/executions?pipeline=resp&transport=openai")).body.executions.length, 2);
  }));

test.run();
