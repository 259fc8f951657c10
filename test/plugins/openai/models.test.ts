import { test } from "uvu";
import * as assert from "uvu/assert";
import { chatWrapper, withChatKernel } from "./chat-helpers.js";

test("GET /v1/models and /models list every pipeline with a chat method, in OpenAI's list format", () =>
  withChatKernel(async (k) => {
    assert.equal(await (await fetch(`${k.url}/v1/models`)).json(), { object: "list", data: [] });
    const before = Math.floor(Date.now() / 1000);
    await k.deployChat("chatty", chatWrapper(`  runChatCompletion() { return "hi"; }`));
    await k.deployChat("api_only", chatWrapper(`  runApi() { return 1; }`));
    await k.deployChat("both", chatWrapper(`  runApi() { return 1; }\n  runChatCompletion() { return "hi"; }`));
    for (const path of ["/v1/models", "/models"]) {
      const body = (await (await fetch(`${k.url}${path}`)).json()) as any;
      assert.is(body.object, "list");
      assert.equal(body.data.map((m: any) => m.id), ["chatty", "both"]);
      for (const m of body.data) {
        assert.equal(Object.keys(m).sort(), ["created", "id", "name", "object", "owned_by"]);
        assert.is(m.object, "model");
        assert.is(m.owned_by, "svc");
        assert.ok(Number.isInteger(m.created) && m.created >= before - 1 && m.created <= Date.now() / 1000 + 1);
      }
    }
    const ids: string[] = [];
    for await (const model of k.client.models.list()) ids.push(model.id);
    assert.equal(ids, ["chatty", "both"]);

    await fetch(`${k.url}/undeploy/chatty`, { method: "POST" });
    assert.equal(((await (await fetch(`${k.url}/v1/models`)).json()) as any).data.map((m: any) => m.id), ["both"]);
  }));

test("openaiPlugin() also serves the Responses endpoint (a Responses-only pipeline is not a chat model)", () =>
  withChatKernel(async (k) => {
    await k.deployChat("responder", chatWrapper(`  runResponse() { return "from runResponse"; }`));
    const response = await k.client.responses.create({ model: "responder", input: "hi" });
    assert.is(response.output_text, "from runResponse");
    assert.equal(((await (await fetch(`${k.url}/v1/models`)).json()) as any).data, []);
  }));

test.run();
