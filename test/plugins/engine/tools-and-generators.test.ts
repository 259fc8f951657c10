import { test } from "uvu";
import * as assert from "uvu/assert";
import { NOOP_TRACER } from "svc/plugin";
import { Agent, AgentTool, ChatMessage, ComponentTool, createRegistry, Document, dumpPipelineYaml, loadPipelineYaml, OpenAIChatGenerator, StreamingChunk, tool, type Tool } from "svc/engine";
import { SerperDevWebSearch } from "../../../plugins/engine/components/serper-dev-web-search.js";
import { OpenAIResponsesChatGenerator, resolveResponsesKwargs } from "../../../plugins/engine/components/openai-responses-chat-generator.js";
import { snakeCaseName } from "../../../plugins/engine/component-tool.js";
import { captureStdout } from "../../helpers/stdout.js";
import { rejects } from "../../helpers/rejects.js";
import { startOpenAIFixture, type OpenAIFixture } from "../../fixtures/openai-server.js";
import { startResponsesFixture, type ResponsesFixture } from "../../fixtures/openai-responses-server.js";
import { startSerperFixture, type SerperFixture } from "../../fixtures/serper-server.js";

let openai: OpenAIFixture;
let responses: ResponsesFixture;
let serper: SerperFixture;
const ctx = (name = "c") => ({ name, signal: new AbortController().signal, tracer: NOOP_TRACER });
const env: Record<string, string | undefined> = {};
const setEnv = (name: string, value: string) => {
  if (!(name in env)) env[name] = process.env[name];
  process.env[name] = value;
};

test.before(async () => {
  [openai, responses, serper] = await Promise.all([startOpenAIFixture({ apiKey: "ok" }), startResponsesFixture({ apiKey: "ok" }), startSerperFixture("serper-key")]);
  setEnv("SERPERDEV_API_KEY", "serper-key");
  setEnv("SERPERDEV_BASE_URL", serper.url);
  setEnv("TEST_OPENAI_KEY", "ok");
});
test.after(async () => {
  await Promise.all([openai.close(), responses.close(), serper.close()]);
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const SERPER_ANSWER = {
  answerBox: { title: "Boyfriend", link: "https://people.com/olivia", snippetHighlighted: ["Harry Styles"] },
  organic: [
    { title: "Olivia Wilde - Wikipedia", link: "https://en.wikipedia.org/wiki/Olivia_Wilde", snippet: "Olivia Wilde is an American actress.", position: 1 },
    { title: "News", link: "https://news.example.com/a", snippet: "News snippet", position: 2 },
    { title: "No snippet", link: "https://example.org/b", position: 3 },
  ],
  peopleAlsoAsk: [{ question: "Q?", snippet: "", title: "Also asked", link: "https://example.org/q" }],
};

// ---- SerperDevWebSearch ----

test("SerperDevWebSearch: request, documents in Haystack's order and shape, links, top_k, domains", async () => {
  serper.answer(SERPER_ANSWER);
  const search = new SerperDevWebSearch({ top_k: 10, search_params: { num: 20 } });
  const { documents, links } = await search.run({ query: "Who is the boyfriend of Olivia Wilde?" }, ctx());
  assert.equal(serper.requests.at(-1)!.body, { q: "Who is the boyfriend of Olivia Wilde?", gl: "us", hl: "en", autocorrect: true, num: 20 });
  assert.equal(documents.map((d) => [d.content, d.meta]), [
    ["Harry Styles", { title: "Boyfriend", link: "https://people.com/olivia" }],
    ["Olivia Wilde is an American actress.", { title: "Olivia Wilde - Wikipedia", link: "https://en.wikipedia.org/wiki/Olivia_Wilde", position: 1 }],
    ["News snippet", { title: "News", link: "https://news.example.com/a", position: 2 }],
    [null, { title: "No snippet", link: "https://example.org/b", position: 3 }],
    ["Also asked", { title: "Also asked", link: "https://example.org/q" }],
  ]);
  assert.equal(links, ["https://en.wikipedia.org/wiki/Olivia_Wilde", "https://news.example.com/a", "https://example.org/b"]);
  assert.equal((await new SerperDevWebSearch({ top_k: 2 }).run({ query: "q" }, ctx())).links.length, 2);
  const scoped = new SerperDevWebSearch({ allowed_domains: ["example.com", "wikipedia.org"] });
  const out = await scoped.run({ query: "q" }, ctx());
  assert.is(serper.requests.at(-1)!.body.q, "site:example.com OR site:wikipedia.org q");
  assert.equal(out.links, ["https://en.wikipedia.org/wiki/Olivia_Wilde", "https://news.example.com/a"]);
  const exact = new SerperDevWebSearch({ allowed_domains: ["example.com"], exclude_subdomains: true });
  assert.ok(exact.isDomainAllowed("https://example.com/x") && !exact.isDomainAllowed("https://news.example.com/a"));
});

test("SerperDevWebSearch: a wrong key is Serper's 403, named; a missing key is an error", async () => {
  await rejects(() => new SerperDevWebSearch({ api_key: { type: "env_var", env_vars: ["WRONG_SERPER"], strict: false } }).run({ query: "q" }, ctx()), /API key cannot be `None`/);
  setEnv("WRONG_SERPER", "nope");
  const error = await rejects(() => new SerperDevWebSearch({ api_key: { type: "env_var", env_vars: ["WRONG_SERPER"], strict: true } }).run({ query: "q" }, ctx()), /SerperDevError/);
  assert.match(String(error?.message), /HTTP 403 .* Response: .*Unauthorized/);
});

// ---- ComponentTool and AgentTool ----

test("ComponentTool: name, schema from sockets, call converts Documents, to_dict in Haystack's shape", async () => {
  serper.answer(SERPER_ANSWER);
  assert.is(snakeCaseName("SerperDevWebSearch"), "serper_dev_web_search");
  assert.is(snakeCaseName("HTMLToDocument"), "htmlto_document");
  const search = new ComponentTool({ component: new SerperDevWebSearch({ top_k: 1 }) });
  assert.is(search.name, "serper_dev_web_search");
  assert.equal(search.parameters, { type: "object", properties: { query: { type: "string", description: "Input 'query' for the component." } }, required: ["query"] });
  const result = (await search.invoke({ query: "x" })) as { documents: Document[]; links: string[] };
  assert.is(result.documents[0]!.content, "Harry Styles");
  const { DocumentCleaner } = await import("svc/engine");
  const cleaner = new ComponentTool({ component: new DocumentCleaner(), name: "clean", description: "Cleans documents" });
  assert.equal((cleaner.parameters.properties as any).documents.type, "array");
  const cleaned = (await cleaner.invoke({ documents: [{ content: "a   b", meta: {} }] })) as { documents: Document[] };
  assert.ok(cleaned.documents[0] instanceof Document);
  assert.is(cleaned.documents[0]!.content, "a b");
  assert.equal(search.toDict(), {
    type: "haystack.tools.component_tool.ComponentTool",
    data: {
      // Defaults included, as Haystack's to_dict writes them.
      component: {
        type: SerperDevWebSearch.type,
        init_parameters: { top_k: 1, api_key: { type: "env_var", env_vars: ["SERPERDEV_API_KEY"], strict: true }, allowed_domains: null, search_params: null, exclude_subdomains: false },
      },
      name: "serper_dev_web_search",
      description: "serper_dev_web_search",
      parameters: null,
      inputs_from_state: null,
      outputs_to_state: null,
      outputs_to_string: null,
    },
  });
  assert.throws(() => new ComponentTool({ component: {} as any }), /is not a Haystack component/);
  assert.throws(() => new ComponentTool({ component: new SerperDevWebSearch(), inputs_from_state: { s: "nope" } }), /inputs_from_state maps 's' to unknown parameter 'nope'\. Valid parameters are: \{'query'/);
});

const agentYaml = (llmUrl: string) => `components:
  agent:
    type: haystack.components.agents.agent.Agent
    init_parameters:
      chat_generator:
        type: haystack.components.generators.chat.openai.OpenAIChatGenerator
        init_parameters:
          api_key: {type: env_var, env_vars: [TEST_OPENAI_KEY], strict: true}
          model: gpt-4o-mini
          api_base_url: ${llmUrl}
          organization: null
          streaming_callback: null
          generation_kwargs: {}
          timeout: null
          max_retries: null
          tools: null
          tools_strict: false
          http_client_kwargs: null
      tools:
      - type: haystack.tools.component_tool.ComponentTool
        data:
          component:
            type: haystack_integrations.components.websearch.serperdev.websearch.SerperDevWebSearch
            init_parameters:
              api_key: {type: env_var, env_vars: [SERPERDEV_API_KEY], strict: true}
              top_k: 2
              allowed_domains: null
              search_params: {}
              exclude_subdomains: false
          name: web_search
          description: Search the web for current information on any topic
          parameters: null
          inputs_from_state: null
          outputs_to_state: null
          outputs_to_string: {source: links}
      system_prompt: You answer with the web.
      exit_conditions: [text]
      state_schema: {}
      max_agent_steps: 10
      streaming_callback: haystack.components.generators.utils.print_streaming_chunk
      raise_on_tool_invocation_failure: false
      tool_invoker_kwargs: null
connections: []
`;

test("an Agent's ComponentTool loads from Haystack's YAML and runs; the dump keeps the tool's shape", async () => {
  serper.answer(SERPER_ANSWER);
  const pipeline = loadPipelineYaml(agentYaml(openai.url), createRegistry());
  openai.script([{ toolCalls: [{ id: "call_1", name: "web_search", arguments: { query: "Olivia Wilde" } }] }, { content: "Done." }]);
  const { result, written } = await captureStdout(() => pipeline.run({ agent: { messages: [ChatMessage.fromUser("Who?")] } }));
  assert.is((result.agent!.last_message as ChatMessage).text, "Done.");
  const sentTools = openai.requests.at(-2)!.body.tools;
  assert.equal(sentTools[0].function.name, "web_search");
  assert.equal(sentTools[0].function.parameters.required, ["query"]);
  const toolMessage = openai.requests.at(-1)!.body.messages.find((m: any) => m.role === "tool");
  assert.is(toolMessage.content, '["https://en.wikipedia.org/wiki/Olivia_Wilde", "https://news.example.com/a"]');
  assert.match(written, /\[TOOL CALL\]\nTool: web_search/);
  const dumped = dumpPipelineYaml(pipeline);
  assert.match(dumped, /type: haystack\.tools\.component_tool\.ComponentTool/);
  assert.match(dumped, /streaming_callback: haystack\.components\.generators\.utils\.print_streaming_chunk/);
  const reloaded = loadPipelineYaml(dumped, createRegistry());
  assert.equal(reloaded.getComponent("agent").toDict(), pipeline.getComponent("agent").toDict());
});

test("AgentTool: the default schema, the inner agent's last text as the result, Haystack's serialized form", async () => {
  const llm = () => new OpenAIChatGenerator({ api_key: { type: "env_var", env_vars: ["TEST_OPENAI_KEY"] }, api_base_url: openai.url });
  const researcher = new Agent({ chat_generator: llm(), system_prompt: "Research." });
  const research = new AgentTool({ agent: researcher, name: "research", description: "Research a question" });
  assert.equal((research.parameters as any).required, ["messages"]);
  const coordinator = new Agent({ chat_generator: llm(), tools: [research] });
  openai.script([{ toolCalls: [{ id: "c1", name: "research", arguments: { messages: [{ role: "user", content: "find X" }] } }] }, { content: "X is 42." }, { content: "The answer is 42." }]);
  const out = (await coordinator.run({ messages: [ChatMessage.fromUser("What is X?")] }, ctx("coordinator"))) as { last_message: ChatMessage };
  assert.is(out.last_message.text, "The answer is 42.");
  const inner = openai.requests.at(-2)!.body.messages;
  assert.equal(inner.map((m: any) => [m.role, m.content]), [["system", "Research."], ["user", "find X"]]);
  assert.is(openai.requests.at(-1)!.body.messages.find((m: any) => m.role === "tool").content, "X is 42.");
  const dict = research.toDict();
  assert.is(dict.type, "haystack.tools.agent_tool.AgentTool");
  assert.is((dict.data.agent as any).type, "haystack.components.agents.agent.Agent");
  assert.equal(dict.data.outputs_to_string, { handler: "haystack.tools.agent_tool.agent_result_to_string" });
  assert.ok(!("component" in dict.data));
  // Newer Haystack writes required_variables '*', tool_concurrency_limit and friends on every Agent.
  const yaml = `components:\n  boss:\n    type: haystack.components.agents.agent.Agent\n    init_parameters:\n      chat_generator: ${JSON.stringify(llm().toDict())}\n      required_variables: '*'\n      user_prompt: null\n      hooks: null\n      tool_concurrency_limit: 4\n      tool_streaming_callback_passthrough: false\n      tools:\n      - ${JSON.stringify(dict)}\nconnections: []\n`;
  const loaded = loadPipelineYaml(yaml, createRegistry()).getComponent("boss") as Agent;
  assert.ok((loaded.initParameters.tools as Tool[])[0] instanceof AgentTool);
  assert.throws(() => new AgentTool({ agent: researcher, name: "", description: "d" }), /needs a name/);
  assert.throws(() => new AgentTool({ agent: {} as Agent, name: "r", description: "d" }), /must be an instance of Agent/);
});

test("a multi-agent YAML as Haystack's docs write it: AgentTool with its handler, Responses generators, ComponentTool", () => {
  const generator = `
        type: haystack.components.generators.chat.openai_responses.OpenAIResponsesChatGenerator
        init_parameters: {api_base_url: null, api_key: {env_vars: [TEST_OPENAI_KEY], strict: true, type: env_var}, generation_kwargs: {}, http_client_kwargs: null, max_retries: null, model: gpt-5.4-nano, organization: null, streaming_callback: null, timeout: null, tools: null, tools_strict: false}`;
  const yaml = `components:
  coordinator:
    type: haystack.components.agents.agent.Agent
    init_parameters:
      chat_generator: ${generator}
      exit_conditions: [text]
      hooks: null
      max_agent_steps: 100
      raise_on_tool_invocation_failure: false
      required_variables: '*'
      state_schema: {}
      streaming_callback: haystack.components.generators.utils.print_streaming_chunk
      system_prompt: You are a coordinator.
      tool_concurrency_limit: 4
      tool_streaming_callback_passthrough: false
      user_prompt: null
      tools:
      - type: haystack.tools.agent_tool.AgentTool
        data:
          name: research_specialist
          description: A specialist that researches topics on the web
          inputs_from_state: null
          outputs_to_state: null
          outputs_to_string: {handler: haystack.tools.agent_tool.agent_result_to_string}
          parameters: null
          agent:
            type: haystack.components.agents.agent.Agent
            init_parameters:
              chat_generator: ${generator.replace(/\n {8}/g, "\n                ")}
              required_variables: '*'
              system_prompt: You are a research specialist.
              tools:
              - type: haystack.tools.component_tool.ComponentTool
                data:
                  component:
                    type: haystack_integrations.components.websearch.serperdev.websearch.SerperDevWebSearch
                    init_parameters: {allowed_domains: null, api_key: {env_vars: [SERPERDEV_API_KEY], strict: true, type: env_var}, exclude_subdomains: false, search_params: {}, top_k: 3}
                  description: Search the web for current information on any topic
                  inputs_from_state: null
                  name: web_search
                  outputs_to_state: null
                  outputs_to_string: null
                  parameters: null
connection_type_validation: true
connections: []
max_runs_per_component: 100
metadata: {}
`;
  const coordinator = loadPipelineYaml(yaml, createRegistry()).getComponent("coordinator") as Agent;
  const research = (coordinator.initParameters.tools as Tool[])[0] as AgentTool;
  assert.ok(research instanceof AgentTool);
  assert.equal(research.toDict().data.outputs_to_string, { handler: "haystack.tools.agent_tool.agent_result_to_string" });
  const inner = research.component as Agent;
  assert.ok((inner.initParameters.tools as Tool[])[0] instanceof ComponentTool);
  assert.ok(inner.initParameters.chat_generator instanceof OpenAIResponsesChatGenerator);
});

// ---- OpenAIResponsesChatGenerator ----

test("OpenAIResponsesChatGenerator: input items, a Response as the reply's meta, function calls with call_id", async () => {
  const weather = tool({ name: "weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } } } }, ({ city }) => `sun in ${city}`);
  const llm = new OpenAIResponsesChatGenerator({ api_key: { type: "env_var", env_vars: ["TEST_OPENAI_KEY"] }, api_base_url: responses.url, tools: [weather], generation_kwargs: { reasoning_effort: "low", reasoning_summary: "auto", verbosity: "low" } });
  responses.script({ output: [{ type: "reasoning", id: "rs_1", summary: "Check weather." }, { type: "function_call", id: "fc_1", call_id: "call_1", name: "weather", arguments: { city: "Oslo" } }] });
  const [reply] = (await llm.run({ messages: [ChatMessage.fromSystem("sys"), ChatMessage.fromUser("weather in Oslo")] }, ctx())).replies;
  const sent = responses.requests.at(-1)!.body;
  assert.equal(sent.input, [{ role: "system", content: "sys" }, { role: "user", content: [{ type: "input_text", text: "weather in Oslo" }] }]);
  assert.equal(sent.tools, [{ type: "function", name: "weather", description: "Weather", parameters: { ...weather.parameters, additionalProperties: false }, strict: false }]);
  assert.equal([sent.reasoning, sent.text], [{ effort: "low", summary: "auto" }, { verbosity: "low" }]);
  assert.equal(reply!.toolCalls, [{ id: "fc_1", tool_name: "weather", arguments: { city: "Oslo" }, extra: { call_id: "call_1" } }]);
  assert.equal(reply!.reasoning, { reasoning_text: "Check weather.", extra: { type: "reasoning", id: "rs_1" } });
  const usage = reply!.meta.usage as Record<string, number>;
  assert.equal([String(reply!.meta.id).startsWith("resp_"), usage.total_tokens, "output" in reply!.meta], [true, usage.input_tokens + usage.output_tokens, false]);
  // The call and its result go back as function_call / function_call_output items, reasoning first.
  await llm.run({ messages: [ChatMessage.fromUser("q"), reply!, ChatMessage.fromTool("sun in Oslo", reply!.toolCalls[0]!)] }, ctx());
  assert.equal(responses.requests.at(-1)!.body.input.slice(1), [
    { summary: [{ text: "Check weather.", type: "summary_text" }], type: "reasoning", id: "rs_1" },
    { type: "function_call", name: "weather", arguments: '{"city": "Oslo"}', id: "fc_1", call_id: "call_1" },
    { type: "function_call_output", call_id: "call_1", output: [{ type: "input_text", text: "sun in Oslo" }] },
  ]);
  assert.equal(resolveResponsesKwargs({ include_reasoning_encrypted_content: true, reasoning_summary: "auto" }), { reasoning: { summary: "auto" }, include: ["reasoning.encrypted_content"] });
});

test("OpenAIResponsesChatGenerator: streaming events, the reply rebuilt; an Agent loop; errors named", async () => {
  const chunks: StreamingChunk[] = [];
  const llm = new OpenAIResponsesChatGenerator({ api_key: { type: "env_var", env_vars: ["TEST_OPENAI_KEY"] }, api_base_url: responses.url, streaming_callback: (c: StreamingChunk) => void chunks.push(c) });
  responses.script({ output: [{ type: "message", text: "Streamed answer here" }] });
  const [reply] = (await llm.run({ messages: "hi" }, ctx("r"))).replies;
  assert.is(reply!.text, "Streamed answer here");
  assert.match(String(reply!.meta.id), /^resp_[0-9a-f]+$/);
  const text = chunks.filter((c) => c.content);
  assert.ok(text[0]!.start && text.slice(1).every((c) => !c.start));
  assert.is(chunks.at(-1)!.finish_reason, "stop");
  responses.script({ output: [{ type: "function_call", id: "fc_9", call_id: "call_9", name: "weather", arguments: { city: "Rome" } }] }, { output: [{ type: "message", text: "Sunny." }] });
  const weather = tool({ name: "weather", description: "w", parameters: { type: "object", properties: { city: { type: "string" } } } }, ({ city }) => `sun in ${city}`);
  const agent = new Agent({ chat_generator: new OpenAIResponsesChatGenerator({ api_key: { type: "env_var", env_vars: ["TEST_OPENAI_KEY"] }, api_base_url: responses.url }), tools: [weather] });
  const out = (await agent.run({ messages: [ChatMessage.fromUser("weather?")] }, ctx("agent"))) as { last_message: ChatMessage };
  assert.is(out.last_message.text, "Sunny.");
  assert.equal(responses.requests.at(-1)!.body.input.at(-1), { type: "function_call_output", call_id: "call_9", output: [{ type: "input_text", text: "sun in Rome" }] });
  responses.script({ status: 429, error: { message: "Rate limit reached", type: "rate_limit_error" } });
  const llmNoRetry = new OpenAIResponsesChatGenerator({ api_key: { type: "env_var", env_vars: ["TEST_OPENAI_KEY"] }, api_base_url: responses.url, max_retries: 0 });
  await rejects(() => llmNoRetry.run({ messages: "x" }, ctx("llm")), /OpenAIResponsesChatGenerator 'llm': the OpenAI API answered 429: Rate limit reached/);
});

test.run();
