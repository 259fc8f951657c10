import { test } from "uvu";
import * as assert from "uvu/assert";
import { AIMessageChunk } from "@langchain/core/messages";
import { FakeListChatModel, FakeStreamingChatModel } from "@langchain/core/utils/testing";
import { until } from "../../helpers/http.js";
import { chatStatuses, chatStream, disconnectAfterFirstByte, mcpText, responseStream, withAgentKernel } from "./helpers.js";
import { ScriptedChatModel, question, weatherGraph, weatherTurns, type ModelLog } from "./langchain-models.js";

const REASONING = "The user wants the weather; I will ask the tool.";
const usageOf = (u: any) => ({ prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, total_tokens: u.total_tokens });

test("LangChain: a chat model's .stream() streams text, a streamed tool call, reasoning and usage", () =>
  withAgentKernel(async (k) => {
    await k.deployAgent("calls", { chat: (prompt, ctx) => new ScriptedChatModel(weatherTurns()).stream(prompt, { signal: ctx.signal }) });
    const calls = await chatStream(k.client, "calls");
    assert.is(calls.reasoning, REASONING);
    assert.equal(calls.calls, [{ id: "call_lc1", name: "weather", arguments: '{"city":"Paris"}' }]);
    assert.equal(calls.finish, ["tool_calls"]);
    assert.equal(usageOf(calls.last.usage), { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    assert.is(calls.last.usage.completion_tokens_details.reasoning_tokens, 3);

    await k.deployAgent("answers", { chat: (prompt, ctx) => new ScriptedChatModel(weatherTurns().slice(1)).stream(prompt, { signal: ctx.signal }) });
    const answer = await chatStream(k.client, "answers");
    assert.is(answer.content, "It is sunny in Paris.");
    assert.equal(answer.finish, ["stop"]);
    assert.equal(usageOf(answer.last.usage), { prompt_tokens: 20, completion_tokens: 7, total_tokens: 27 });
  }));

test("LangChain: the stock fake models (FakeListChatModel text, FakeStreamingChatModel whole tool calls)", () =>
  withAgentKernel(async (k) => {
    await k.deployAgent("list", {
      chat: (prompt, ctx) => new FakeListChatModel({ responses: ["Hello there"] }).stream(prompt, { signal: ctx.signal }),
      api: (input, ctx) => new FakeListChatModel({ responses: ["Hello there"] }).stream(String(input.question), { signal: ctx.signal }),
      response: (input, ctx) => new FakeListChatModel({ responses: ["Hello there"] }).invoke(String(input), { signal: ctx.signal }),
    });
    assert.is((await chatStream(k.client, "list")).content, "Hello there");
    const run = await fetch(`${k.url}/list/run`, { method: "POST", body: JSON.stringify({ question: "hi" }) });
    assert.is(await run.text(), "Hello there", "/run streams a LangChain stream's text");
    assert.is(await mcpText(k.url, "list"), "Hello there");
    const invoked: any = await k.client.responses.create({ model: "list", input: "hi" });
    assert.is(invoked.output_text, "Hello there", "an invoke()'s AIMessage is the answer");

    const toolCall = new AIMessageChunk({ content: "", tool_calls: [{ name: "weather", args: { city: "Oslo" }, id: "call_o", type: "tool_call" }] });
    await k.deployAgent("whole", { chat: (prompt, ctx) => new FakeStreamingChatModel({ chunks: [toolCall] }).stream(prompt, { signal: ctx.signal }) });
    const chat = await chatStream(k.client, "whole");
    assert.equal(chat.calls, [{ id: "call_o", name: "weather", arguments: '{"city":"Oslo"}' }]);
    assert.equal(chat.finish, ["tool_calls"]);
  }));

test("LangGraph: a graph's messages stream reaches the openai client, Open WebUI, Responses, /run and MCP", () =>
  withAgentKernel(async (k) => {
    const stream = (prompt: string, ctx: any) => weatherGraph().stream(question(prompt), { streamMode: "messages", signal: ctx.signal });
    await k.deployAgent("graph", { chat: stream, response: (input, ctx) => stream(String(input), ctx), api: (input, ctx) => stream(String(input.question), ctx) });
    const chat = await chatStream(k.client, "graph");
    assert.is(chat.reasoning, REASONING);
    assert.equal(chat.calls, [{ id: "call_lc1", name: "weather", arguments: '{"city":"Paris"}' }]);
    assert.is(chat.content, "It is sunny in Paris.");
    assert.equal(chat.finish, ["stop"]);
    assert.equal(usageOf(chat.last.usage), { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 });
    assert.equal(await chatStatuses(k.url, "graph"), ["Calling 'weather' tool...", "Called 'weather' tool (done)"]);

    const res = await responseStream(k.client, "graph");
    assert.ok(res.completed, res.types.join(","));
    assert.equal(res.completed.output.map((o: any) => o.type), ["reasoning", "function_call", "message"]);
    assert.is(res.completed.output[1].arguments, '{"city":"Paris"}');
    assert.is(res.completed.output[2].content[0].text, "It is sunny in Paris.");
    assert.is(res.completed.usage.total_tokens, 42);

    const run = await fetch(`${k.url}/graph/run`, { method: "POST", body: JSON.stringify({ question: "Weather in Paris?" }) });
    // /run streams reasoning-only chunks as their reasoning text, as Hayhooks' /run does.
    assert.is(await run.text(), REASONING + "It is sunny in Paris.");
    assert.is(await mcpText(k.url, "graph"), "It is sunny in Paris.");
  }));

test("LangGraph: updates mode, both modes at once, streamEvents() and invoke()", () =>
  withAgentKernel(async (k) => {
    await k.deployAgent("updates", { chat: (prompt, ctx) => weatherGraph().stream(question(prompt), { streamMode: "updates", signal: ctx.signal }) });
    const updates = await chatStream(k.client, "updates");
    assert.equal(updates.calls.map((c) => [c.name, c.arguments]), [["weather", '{"city":"Paris"}']]);
    assert.is(updates.content, "It is sunny in Paris.");
    assert.is(updates.last.usage.total_tokens, 42);
    assert.equal(await chatStatuses(k.url, "updates"), ["Calling 'weather' tool...", "Called 'weather' tool (done)"]);

    await k.deployAgent("both", { chat: (prompt, ctx) => weatherGraph().stream(question(prompt), { streamMode: ["messages", "updates"], signal: ctx.signal }) });
    const both = await chatStream(k.client, "both");
    assert.is(both.content, "It is sunny in Paris.", "no text twice");
    assert.is(both.calls.length, 1);
    assert.is(both.last.usage.total_tokens, 42);

    await k.deployAgent("events", { chat: (prompt, ctx) => weatherGraph().streamEvents(question(prompt), { version: "v2", signal: ctx.signal }) });
    const events = await chatStream(k.client, "events");
    assert.is(events.reasoning, REASONING);
    assert.equal(events.calls.map((c) => c.name), ["weather"]);
    assert.is(events.content, "It is sunny in Paris.");
    assert.is(events.last.usage.total_tokens, 42);
    assert.equal(await chatStatuses(k.url, "events"), ["Calling 'weather' tool...", "Called 'weather' tool (done)"]);

    await k.deployAgent("invoked", { api: (input, ctx) => weatherGraph().invoke(question(String(input.question)), { signal: ctx.signal }) });
    assert.equal((await k.run("invoked", { question: "Weather in Paris?" })).body, { result: "It is sunny in Paris." });
  }));

test("LangChain and LangGraph: a mid-stream error is reported, and a disconnect aborts the model", () =>
  withAgentKernel(async (k) => {
    const failing = () => new ScriptedChatModel(weatherTurns().slice(1), undefined, "the model fell over");
    await k.deployAgent("fails", {
      chat: (prompt, ctx) => weatherGraph(failing()).stream(question(prompt), { streamMode: "messages", signal: ctx.signal }),
      response: (input, ctx) => failing().stream(String(input), { signal: ctx.signal }),
    });
    const error = await chatStream(k.client, "fails").then(
      () => undefined,
      (e: Error) => e,
    );
    assert.ok(error && /the model fell over/.test(error.message), String(error));
    const res = await responseStream(k.client, "fails");
    assert.match(res.failed?.error.message ?? "", /the model fell over/);

    for (const [i, path] of ["/v1/chat/completions", "/v1/responses"].entries()) {
      const log: ModelLog = { calls: 0, aborted: false };
      const hanging = () => new ScriptedChatModel(weatherTurns().slice(1), log, undefined, true);
      await k.deployAgent(`hangs${i}`, {
        chat: (prompt, ctx) => weatherGraph(hanging()).stream(question(prompt), { streamMode: "messages", signal: ctx.signal }),
        response: (input, ctx) => hanging().stream(String(input), { signal: ctx.signal }),
      });
      await disconnectAfterFirstByte(k.url, `hangs${i}`, path);
      await until(() => log.aborted, 3000, `the model saw the abort (${path})`);
    }
  }));

test.run();
