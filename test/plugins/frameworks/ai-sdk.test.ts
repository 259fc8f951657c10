import { test } from "uvu";
import * as assert from "uvu/assert";
import { until } from "../../helpers/http.js";
import { WEATHER_TURNS, scriptedModel, sdk, weatherTool, type ModelLog } from "./ai-sdk-models.js";
import { chatStatuses, chatStream, disconnectAfterFirstByte, mcpText, responseStream, withAgentKernel } from "./helpers.js";

for (const version of [5, 6] as const) {
  const { streamText, generateText, stepCountIs } = sdk(version);
  const agent = (ctx: any, prompt: string) =>
    streamText({
      model: scriptedModel(version, WEATHER_TURNS),
      prompt,
      tools: { weather: weatherTool(version) },
      stopWhen: stepCountIs(3),
      abortSignal: ctx.signal,
    });

  test(`AI SDK ${version}: a returned streamText() result streams reasoning, tool calls, text and usage to the openai client`, () =>
    withAgentKernel(async (k) => {
      await k.deployAgent("ai", { chat: (prompt, ctx) => agent(ctx, prompt) });
      const chat = await chatStream(k.client, "ai");
      assert.is(chat.reasoning, "The user wants the weather; I will ask the tool.");
      assert.equal(chat.calls, [{ id: "call_w1", name: "weather", arguments: '{"city":"Paris"}' }]);
      assert.is(chat.content, "It is sunny in Paris.");
      assert.equal(chat.finish, ["stop"], "one finish reason, the last step's");
      const { prompt_tokens, completion_tokens, total_tokens, completion_tokens_details } = chat.last.usage;
      assert.equal({ prompt_tokens, completion_tokens, total_tokens, completion_tokens_details }, { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42, completion_tokens_details: { reasoning_tokens: 3 } });
      assert.ok(chat.chunks.slice(0, -1).every((c) => c.usage === null), "usage only in the final chunk");

      // Open WebUI clients see a status line per tool call.
      assert.equal(await chatStatuses(k.url, "ai"), ["Calling 'weather' tool...", "Called 'weather' tool (done)"]);

      // Not streaming: one message with the reasoning, the call and the text.
      const completion: any = await k.client.chat.completions.create({ model: "ai", messages: [{ role: "user", content: "Weather in Paris?" }] });
      const message = completion.choices[0].message;
      assert.is(message.content, "It is sunny in Paris.");
      assert.is(message.reasoning_content, "The user wants the weather; I will ask the tool.");
      assert.equal(message.tool_calls, [{ id: "call_w1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }]);
      assert.is(completion.choices[0].finish_reason, "stop");
      assert.is(completion.usage.total_tokens, 42);
    }));

  test(`AI SDK ${version}: the Responses endpoint, /run and MCP answer a streamText() result`, () =>
    withAgentKernel(async (k) => {
      await k.deployAgent("ai", {
        response: (input, ctx) => agent(ctx, String(input)),
        api: (input, ctx) => agent(ctx, String(input.question)),
      });
      const res = await responseStream(k.client, "ai");
      assert.ok(res.completed, res.types.join(","));
      assert.equal(
        res.completed.output.map((o: any) => o.type),
        ["reasoning", "function_call", "message"],
      );
      const call = res.completed.output[1];
      assert.equal([call.call_id, call.name, call.arguments], ["call_w1", "weather", '{"city":"Paris"}']);
      assert.is(res.completed.output[2].content[0].text, "It is sunny in Paris.");
      assert.equal([res.completed.usage.input_tokens, res.completed.usage.output_tokens, res.completed.usage.total_tokens], [30, 12, 42]);
      assert.is(res.completed.usage.output_tokens_details.reasoning_tokens, 3);
      assert.ok(res.types.includes("response.function_call_arguments.delta"));
      assert.ok(res.types.includes("response.reasoning_summary_text.delta"));

      const plain: any = await k.client.responses.create({ model: "ai", input: "Weather in Paris?" });
      assert.is(plain.output_text, "It is sunny in Paris.");

      const run = await k.run("ai", { question: "Weather in Paris?" });
      assert.equal(run.body, { result: "It is sunny in Paris." });
      assert.is(await mcpText(k.url, "ai"), "It is sunny in Paris.");
    }));

  test(`AI SDK ${version}: a generateText() result answers every transport`, () =>
    withAgentKernel(async (k) => {
      const generate = (ctx: any) =>
        generateText({ model: scriptedModel(version, WEATHER_TURNS), prompt: "Weather?", tools: { weather: weatherTool(version) }, stopWhen: stepCountIs(3), abortSignal: ctx.signal });
      await k.deployAgent("gen", { chat: (_p, ctx) => generate(ctx), api: (_i, ctx) => generate(ctx), response: (_i, ctx) => generate(ctx) });
      const chat = await chatStream(k.client, "gen");
      assert.equal(chat.calls.map((c) => c.name), ["weather"]);
      assert.is(chat.content, "It is sunny in Paris.");
      assert.is(chat.last.usage.total_tokens, 42);
      const completion: any = await k.client.chat.completions.create({ model: "gen", messages: [{ role: "user", content: "x" }] });
      assert.is(completion.choices[0].message.content, "It is sunny in Paris.");
      assert.equal((await k.run("gen", {})).body, { result: "It is sunny in Paris." });
      const plain: any = await k.client.responses.create({ model: "gen", input: "x" });
      assert.equal(plain.output.map((o: any) => o.type), ["reasoning", "function_call", "message"]);
    }));

  test(`AI SDK ${version}: a mid-stream model error reaches the client as an error`, () =>
    withAgentKernel(async (k) => {
      const failing = (ctx: any) =>
        streamText({ model: scriptedModel(version, [{ text: ["Half an answer"], error: "the model fell over", usage: { input: 1, output: 1 } }]), prompt: "x", abortSignal: ctx.signal });
      await k.deployAgent("fails", { chat: (_p, ctx) => failing(ctx), response: (_i, ctx) => failing(ctx), api: (_i, ctx) => failing(ctx) });
      const error = await chatStream(k.client, "fails").then(
        () => undefined,
        (e: Error) => e,
      );
      assert.ok(error && /the model fell over/.test(error.message), String(error));
      const res = await responseStream(k.client, "fails");
      assert.ok(res.failed, res.types.join(","));
      assert.match(res.failed.error.message, /the model fell over/, JSON.stringify(res.failed.error));
      const run = await k.run("fails", {});
      assert.is(run.status, 500);
      assert.match(run.body.error.message, /the model fell over/, JSON.stringify(run.body));
    }));

  test(`AI SDK ${version}: a client that disconnects aborts the model call (abortSignal: ctx.signal)`, () =>
    withAgentKernel(async (k) => {
      for (const [i, path] of ["/v1/chat/completions", "/v1/responses"].entries()) {
        const log: ModelLog = { calls: 0, signals: [], cancelled: false };
        const hanging = (ctx: any) => streamText({ model: scriptedModel(version, WEATHER_TURNS, log, true), prompt: "x", abortSignal: ctx.signal });
        await k.deployAgent(`hangs${i}`, { chat: (_p, ctx) => hanging(ctx), response: (_i, ctx) => hanging(ctx) });
        await disconnectAfterFirstByte(k.url, `hangs${i}`, path);
        await until(() => log.signals[0]?.aborted === true, 3000, `the model's abort signal (${path})`);
      }
    }));
}

test.run();
