/**
 * @module Haystack's agent-shaped pipeline scenarios from test/core/pipeline/features/test_run.py
 * (pipeline_run.feature), ported value for value like pipeline-run.test.ts: the same graph of fake
 * LLMs, prompt builders, routers and loop, the same inputs, outputs and every component call's
 * inputs, one component at a time and concurrently. The prompt texts are Haystack's.
 */
import { test } from "uvu";
import * as v from "valibot";
import { AnswerBuilder, BranchJoiner, ChatMessage, ChatPromptBuilder, ConditionalRouter, Document, GeneratedAnswer, OutputAdapter, Pipeline, PromptBuilder, socket } from "svc/engine";
import { check, componentOf } from "./harness.js";

const msgs = v.array(v.instance(ChatMessage));
const user = (text: string) => ChatMessage.fromUser(text);
const assistant = (text: string) => ChatMessage.fromAssistant(text);
const last = (messages: unknown) => (messages as ChatMessage[]).at(-1)!.text ?? "";

/** A chat generator stand-in answering `replies` in turn (the last one from then on). */
const fakeLlm = (...replies: string[]) => {
  let calls = 0;
  return componentOf({ messages: socket(msgs), generation_kwargs: socket(v.nullable(v.record(v.string(), v.unknown())), { default: null }) }, { replies: msgs }, () => ({
    replies: [assistant(replies[Math.min(calls++, replies.length - 1)]!)],
  }));
};
/** Haystack's FixedGenerator (its features' conftest): `replies` one per call, in a cycle. */
const fixedGenerator = (...replies: string[]) => {
  let calls = 0;
  return componentOf({ prompt: socket(v.string()) }, { replies: v.array(v.string()) }, () => ({ replies: [replies[calls++ % replies.length]] }));
};
/** Haystack's PromptConcatenator: the current prompt's last text, the last reply's, a suffix, as one user message. */
const promptConcatenator = (suffix = "") =>
  componentOf({ replies: socket(msgs), current_prompt: socket(msgs) }, { output: msgs }, (i) => ({ output: [user(last(i.current_prompt) + last(i.replies) + suffix)] }));

const SEARCH_TEMPLATE = "\n    Given these web search results:\n\n    {% for doc in documents %}\n        {{ doc.content }}\n    {% endfor %}\n\n    Be as brief as possible, max one sentence.\n    Answer the question: {{search_query}}\n    ";
const REACT_TEMPLATE = "\n    Solve a question answering task with interleaving Thought, Action, Observation steps.\n\n    Thought reasons about the current situation\n\n    Action can be:\n    google_search - Searches Google for the exact concept/entity (given in square brackets) and returns the results for you to use\n    finish - Returns the final answer (given in square brackets) and finishes the task\n\n    Observation summarizes the Action outcome and helps in formulating the next\n    Thought in Thought, Action, Observation interleaving triplet of steps.\n\n    After each Observation, provide the next Thought and next Action.\n    Don't execute multiple steps even though you know the answer.\n    Only generate Thought and Action, never Observation, you'll get Observation from Action.\n    Follow the pattern in the example below.\n\n    Example:\n    ###########################\n    Question: Which magazine was started first Arthur’s Magazine or First for Women?\n    Thought: I need to search Arthur’s Magazine and First for Women, and find which was started\n    first.\n    Action: google_search[When was 'Arthur’s Magazine' started?]\n    Observation: Arthur’s Magazine was an American literary periodical ˘\n    published in Philadelphia and founded in 1844. Edited by Timothy Shay Arthur, it featured work by\n    Edgar A. Poe, J.H. Ingraham, Sarah Josepha Hale, Thomas G. Spear, and others. In May 1846\n    it was merged into Godey’s Lady’s Book.\n    Thought: Arthur’s Magazine was started in 1844. I need to search First for Women founding date next\n    Action: google_search[When was 'First for Women' magazine started?]\n    Observation: First for Women is a woman’s magazine published by Bauer Media Group in the\n    USA. The magazine was started in 1989. It is based in Englewood Cliffs, New Jersey. In 2011\n    the circulation of the magazine was 1,310,696 copies.\n    Thought: First for Women was started in 1989. 1844 (Arthur’s Magazine) ¡ 1989 (First for\n    Women), so Arthur’s Magazine was started first.\n    Action: finish[Arthur’s Magazine]\n    ############################\n\n    Let's start, the question is: {{query}}\n\n    Thought:\n    ";

test("that is a simple agent", () => {
  const question = "which tower is taller: eiffel tower or tower of pisa?";
  const searchQuery = "What is taller, Eiffel Tower or Leaning Tower of Pisa";
  const thought = `thinking\n Action: google_search[${searchQuery}]\n`;
  const finish = "thinking\n Action: finish[Eiffel Tower]\n";
  const conclusion = "Tower of Pisa is 55 meters tall\n";
  const documents = [
    new Document({ id: "c37eb19352b261b17314cac9e1539921b5996f88c99ad0b134f12effb38ed467", content: "Eiffel Tower is 300 meters tall" }),
    new Document({ id: "c5281056a220c32e6fa1c4ae7d3f263c0f25fd620592c5e45049a9dcb778f129", content: "Tower of Pisa is 55 meters tall" }),
  ];
  const prompt = REACT_TEMPLATE.replace("{{query}}", question);
  const afterAction = prompt + thought;
  const observation = `Observation: ${conclusion}\n`;
  const nextPrompt = `${afterAction}${observation}\nThought: `;
  const searchPrompt = `\n    Given these web search results:\n\n    \n        Eiffel Tower is 300 meters tall\n    \n        Tower of Pisa is 55 meters tall\n    \n\n    Be as brief as possible, max one sentence.\n    Answer the question: ${searchQuery}\n    `;
  const routes = ["search", "finish"].map((name) => ({ condition: `{{'${name}' in tool_id_and_param[0]}}`, output: "{{tool_id_and_param[1]}}", output_name: name, output_type: "str" }));
  const toolExtractor = () => componentOf({ messages: socket(msgs) }, { output: v.array(v.nullable(v.string())) }, (i) => {
    for (const line of last(i.messages).trim().split("\n").reverse()) {
      const match = /Action:\s*(\w+)\[(.*?)\]/.exec(line);
      if (match) return { output: [match[1], match[2]] };
    }
    return { output: [null, null] };
  });
  return check(
    () =>
      new Pipeline()
        .addComponent("main_input", new BranchJoiner({ type_: "list[ChatMessage]" }))
        .addComponent("prompt_builder", new ChatPromptBuilder({ variables: ["query"] }))
        .addComponent("llm", fakeLlm(thought, finish))
        .addComponent("tool_extractor", toolExtractor())
        .addComponent("prompt_concatenator_after_action", promptConcatenator())
        .addComponent("router", new ConditionalRouter({ routes }))
        .addComponent("router_search", componentOf({ query: socket(v.string()) }, { documents: v.array(v.instance(Document)) }, () => ({ documents: documents.map((d) => new Document({ content: d.content })) })))
        .addComponent("search_prompt_builder", new ChatPromptBuilder({ variables: ["documents", "search_query"] }))
        .addComponent("search_llm", fakeLlm(conclusion))
        .addComponent("search_output_adapter", componentOf({ replies: socket(msgs) }, { output: msgs }, (i) => ({ output: [assistant(`Observation: ${last(i.replies)}\n`)] })))
        .addComponent("prompt_concatenator_after_observation", promptConcatenator("\nThought: "))
        .connect("main_input", "prompt_builder.template")
        .connect("prompt_builder.prompt", "llm.messages")
        .connect("llm.replies", "prompt_concatenator_after_action.replies")
        .connect("prompt_builder.prompt", "prompt_concatenator_after_action.current_prompt")
        .connect("prompt_concatenator_after_action", "tool_extractor.messages")
        .connect("tool_extractor", "router")
        .connect("router.search", "router_search.query")
        .connect("router_search.documents", "search_prompt_builder.documents")
        .connect("router.search", "search_prompt_builder.search_query")
        .connect("search_prompt_builder.prompt", "search_llm.messages")
        .connect("search_llm.replies", "search_output_adapter.replies")
        .connect("search_output_adapter", "prompt_concatenator_after_observation.replies")
        .connect("prompt_concatenator_after_action", "prompt_concatenator_after_observation.current_prompt")
        .connect("prompt_concatenator_after_observation", "main_input"),
    [
      {
        inputs: {
          main_input: { value: [user(REACT_TEMPLATE)] },
          prompt_builder: { query: question },
          search_prompt_builder: { template: [user(SEARCH_TEMPLATE)] },
        },
        expectedOutputs: { router: { finish: "Eiffel Tower" } },
        expectedCalls: {
          "llm#1": { generation_kwargs: null, messages: [user(prompt)] },
          "llm#2": { generation_kwargs: null, messages: [user(nextPrompt)] },
          "main_input#1": { value: [[user(REACT_TEMPLATE)]] },
          "main_input#2": { value: [[user(nextPrompt)]] },
          "prompt_builder#1": { query: question, template: [user(REACT_TEMPLATE)], template_variables: null },
          "prompt_builder#2": { query: question, template: [user(nextPrompt)], template_variables: null },
          "prompt_concatenator_after_action#1": { current_prompt: [user(prompt)], replies: [assistant(thought)] },
          "prompt_concatenator_after_action#2": { current_prompt: [user(nextPrompt)], replies: [assistant(finish)] },
          "prompt_concatenator_after_observation#1": { current_prompt: [user(afterAction)], replies: [assistant(observation)] },
          "router#1": { tool_id_and_param: ["google_search", searchQuery] },
          "router#2": { tool_id_and_param: ["finish", "Eiffel Tower"] },
          "router_search#1": { query: searchQuery },
          "search_llm#1": { generation_kwargs: null, messages: [user(searchPrompt)] },
          "search_output_adapter#1": { replies: [assistant(conclusion)] },
          "search_prompt_builder#1": { documents, search_query: searchQuery, template: [user(SEARCH_TEMPLATE)], template_variables: null },
          "tool_extractor#1": { messages: [user(afterAction)] },
          "tool_extractor#2": { messages: [user(nextPrompt + finish)] },
        },
      },
    ],
  );
});

test("that is an agent that can use RAG", () => {
  const AGENT_TEMPLATE = "\nYour task is to answer the user's question.\nYou can use a RAG system to find information.\nUse the RAG system until you have sufficient information to answer the question.\nTo use the RAG system, output \"search:\" followed by your question.\nOnce you have an answer, output \"answer:\" followed by your answer.\n\nHere is the question: {{query}}\n    ";
  const RAG_TEMPLATE = "\nAnswer the question based on the provided documents.\nQuestion: {{ query }}\nDocuments:\n{% for document in documents %}\n{{ document.content }}\n{% endfor %}\n    ";
  const query = "Does this run reliably?";
  /** The agent prompt as rendered for the query. */
  const PROMPT = "\nYour task is to answer the user's question.\nYou can use a RAG system to find information.\nUse the RAG system until you have sufficient information to answer the question.\nTo use the RAG system, output \"search:\" followed by your question.\nOnce you have an answer, output \"answer:\" followed by your answer.\n\nHere is the question: Does this run reliably?\n    ";
  const document = () => new Document({ content: "This is a document potentially answering the question.", meta: { access_group: 1 } });
  const documents = [new Document({ id: "366a10745500c26f1177f434c74513daacaa7f9d2e09ba892cfcd48652eb80c1", content: "This is a document potentially answering the question.", meta: { access_group: 1 } })];
  const routes = [
    { condition: "{{ 'search:' in replies[0] }}", output: "{{ replies[0] }}", output_name: "search", output_type: "str" },
    { condition: "{{ 'answer:' in replies[0] }}", output: "{{ replies }}", output_name: "answer", output_type: "list[str]" },
  ];
  return check(
    () =>
      new Pipeline({ maxRunsPerComponent: 2 })
        .addComponent("joiner", new BranchJoiner({ type_: "str" }))
        .addComponent("rag_llm", fixedGenerator("This is all the information I found!"))
        .addComponent("rag_prompt", new PromptBuilder({ template: RAG_TEMPLATE }))
        .addComponent("agent_prompt", new PromptBuilder({ template: AGENT_TEMPLATE }))
        .addComponent("agent_llm", fixedGenerator("search: Can you help me?", "answer: here is my answer"))
        .addComponent("router", new ConditionalRouter({ routes }))
        .addComponent("concatenator", new OutputAdapter({ template: "{{current_prompt + '\n' + rag_answer[0]}}", output_type: "str" }))
        .addComponent("retriever", componentOf({ query: socket(v.string()) }, { documents: v.array(v.instance(Document)) }, () => ({ documents: [document()] })))
        .addComponent("answer_builder", new AnswerBuilder())
        .connect("agent_prompt.prompt", "joiner.value")
        .connect("joiner.value", "agent_llm.prompt")
        .connect("agent_llm.replies", "router.replies")
        .connect("router.search", "retriever.query")
        .connect("router.answer", "answer_builder.replies")
        .connect("retriever.documents", "rag_prompt.documents")
        .connect("rag_prompt.prompt", "rag_llm.prompt")
        .connect("rag_llm.replies", "concatenator.rag_answer")
        .connect("joiner.value", "concatenator.current_prompt")
        .connect("concatenator.output", "joiner.value"),
    [
      {
        inputs: { agent_prompt: { query }, rag_prompt: { query }, answer_builder: { query } },
        expectedOutputs: {
          answer_builder: { answers: [new GeneratedAnswer("answer: here is my answer", query, [], { all_messages: ["answer: here is my answer"] })] },
        },
        expectedCalls: {
          "agent_llm#1": { prompt: PROMPT },
          "agent_llm#2": { prompt: `${PROMPT}\nThis is all the information I found!` },
          "agent_prompt#1": { query: "Does this run reliably?", template: null, template_variables: null },
          "answer_builder#1": { documents: null, meta: null, pattern: null, query: "Does this run reliably?", expand_reference_ranges: null, reference_pattern: null, replies: ["answer: here is my answer"] },
          "concatenator#1": { current_prompt: PROMPT, rag_answer: ["This is all the information I found!"] },
          "joiner#1": { value: [PROMPT] },
          "joiner#2": { value: [`${PROMPT}\nThis is all the information I found!`] },
          "rag_llm#1": { prompt: "\nAnswer the question based on the provided documents.\nQuestion: Does this run reliably?\nDocuments:\n\nThis is a document potentially answering the question.\n\n    " },
          "rag_prompt#1": { documents, query: "Does this run reliably?", template: null, template_variables: null },
          "retriever#1": { query: "search: Can you help me?" },
          "router#1": { replies: ["search: Can you help me?"] },
          "router#2": { replies: ["answer: here is my answer"] },
        },
      },
    ],
  );
});

test("that has an agent with a feedback cycle", () => {
  const CODE_TEMPLATE = "\nGenerate code to solve the task: {{ task }}\n\nYou can edit files by returning:\nEdit: file_name\n\nOnce you solved the task, respond with:\nTask finished!\n\n{% if feedback %}\nHere is your initial attempt and some feedback:\n{{ feedback }}\n{% endif %}\n    ";
  const FEEDBACK_TEMPLATE = "\n{% if task_finished %}\nCheck if this code is valid and can run: {{ code }}\nReturn \"PASS\" if it passes and \"FAIL\" if it fails.\nProvide additional feedback on why it fails.\n{% endif %}\n    ";
  /** The code prompt as rendered for the task, and what the fake file editor answers. */
  const PROMPT = "\nGenerate code to solve the task: Generate code to generate christmas ascii-art\n\nYou can edit files by returning:\nEdit: file_name\n\nOnce you solved the task, respond with:\nTask finished!\n\n\n    ";
  const FILE = "This is the edited file content.";
  const replies = v.array(v.string());
  const feedbackRouter = [
    { condition: "{{ 'FAIL' in replies[0] }}", output: "{{ current_prompt + '\n' + replies[0] }}", output_name: "fail", output_type: "str" },
    { condition: "{{ 'PASS' in replies[0] }}", output: "{{ replies }}", output_name: "pass", output_type: "list[str]" },
  ];
  const toolUseRouter = [
    { condition: "{{ 'Edit:' in replies[0] }}", output: "{{ replies }}", output_name: "edit", output_type: "list[str]" },
    { condition: "{{ 'Task finished!' in replies[0] }}", output: "{{ replies }}", output_name: "done", output_type: "list[str]" },
  ];
  return check(
    () =>
      new Pipeline({ maxRunsPerComponent: 8 })
        .addComponent("code_prompt", new PromptBuilder({ template: CODE_TEMPLATE, required_variables: ["task"] }))
        .addComponent("joiner", new BranchJoiner({ type_: "str" }))
        .addComponent("code_llm", fixedGenerator("Edit: file_1.py", "Edit: file_2.py", "Edit: file_3.py", "Task finished!"))
        .addComponent("tool_use_router", new ConditionalRouter({ routes: toolUseRouter }))
        .addComponent("file_editor", componentOf({ replies: socket(replies) }, { files: v.string() }, () => ({ files: FILE })))
        .addComponent("agent_concatenator", new OutputAdapter({ template: "{{current_prompt + '\n' + files}}", output_type: "str" }))
        .addComponent("feedback_prompt", new PromptBuilder({ template: FEEDBACK_TEMPLATE, required_variables: ["task_finished"] }))
        .addComponent("feedback_llm", fixedGenerator("FAIL", "PASS"))
        .addComponent("feedback_router", new ConditionalRouter({ routes: feedbackRouter }))
        .connect("code_prompt.prompt", "joiner.value")
        .connect("joiner.value", "code_llm.prompt")
        .connect("code_llm.replies", "tool_use_router.replies")
        .connect("tool_use_router.edit", "file_editor.replies")
        .connect("file_editor.files", "agent_concatenator.files")
        .connect("joiner.value", "agent_concatenator.current_prompt")
        .connect("agent_concatenator.output", "joiner.value")
        .connect("tool_use_router.done", "feedback_prompt.task_finished")
        .connect("agent_concatenator.output", "feedback_prompt.code")
        .connect("feedback_prompt.prompt", "feedback_llm.prompt")
        .connect("feedback_llm.replies", "feedback_router.replies")
        .connect("agent_concatenator.output", "feedback_router.current_prompt")
        .connect("feedback_router.fail", "joiner.value"),
    [
      {
        inputs: { code_prompt: { task: "Generate code to generate christmas ascii-art" } },
        expectedOutputs: { feedback_router: { pass: ["PASS"] } },
        expectedCalls: {
          "agent_concatenator#1": { current_prompt: PROMPT, files: FILE },
          "agent_concatenator#2": { current_prompt: `${PROMPT}\n${FILE}`, files: FILE },
          "agent_concatenator#3": { current_prompt: `${PROMPT}\n${FILE}\n${FILE}`, files: FILE },
          "agent_concatenator#4": { current_prompt: `${PROMPT}\n${FILE}\n${FILE}\n${FILE}\nFAIL`, files: FILE },
          "agent_concatenator#5": { current_prompt: `${PROMPT}\n${FILE}\n${FILE}\n${FILE}\nFAIL\n${FILE}`, files: FILE },
          "agent_concatenator#6": { current_prompt: `${PROMPT}\n${FILE}\n${FILE}\n${FILE}\nFAIL\n${FILE}\n${FILE}`, files: FILE },
          "code_llm#1": { prompt: PROMPT },
          "code_llm#2": { prompt: `${PROMPT}\n${FILE}` },
          "code_llm#3": { prompt: `${PROMPT}\n${FILE}\n${FILE}` },
          "code_llm#4": { prompt: `${PROMPT}\n${FILE}\n${FILE}\n${FILE}` },
          "code_llm#5": { prompt: `${PROMPT}\n${FILE}\n${FILE}\n${FILE}\nFAIL` },
          "code_llm#6": { prompt: `${PROMPT}\n${FILE}\n${FILE}\n${FILE}\nFAIL\n${FILE}` },
          "code_llm#7": { prompt: `${PROMPT}\n${FILE}\n${FILE}\n${FILE}\nFAIL\n${FILE}\n${FILE}` },
          "code_llm#8": { prompt: `${PROMPT}\n${FILE}\n${FILE}\n${FILE}\nFAIL\n${FILE}\n${FILE}\n${FILE}` },
          "code_prompt#1": { feedback: "", task: "Generate code to generate christmas ascii-art", template: null, template_variables: null },
          "feedback_llm#1": { prompt: `\n\nCheck if this code is valid and can run: ${PROMPT}\n${FILE}\n${FILE}\n${FILE}\nReturn "PASS" if it passes and "FAIL" if it fails.\nProvide additional feedback on why it fails.\n\n    ` },
          "feedback_llm#2": { prompt: `\n\nCheck if this code is valid and can run: ${PROMPT}\n${FILE}\n${FILE}\n${FILE}\nFAIL\n${FILE}\n${FILE}\n${FILE}\nReturn "PASS" if it passes and "FAIL" if it fails.\nProvide additional feedback on why it fails.\n\n    ` },
          "feedback_prompt#1": { code: `${PROMPT}\n${FILE}\n${FILE}\n${FILE}`, task_finished: ["Task finished!"], template: null, template_variables: null },
          "feedback_prompt#2": { code: `${PROMPT}\n${FILE}\n${FILE}\n${FILE}\nFAIL\n${FILE}\n${FILE}\n${FILE}`, task_finished: ["Task finished!"], template: null, template_variables: null },
          "feedback_router#1": { current_prompt: `${PROMPT}\n${FILE}\n${FILE}\n${FILE}`, replies: ["FAIL"] },
          "feedback_router#2": { current_prompt: `${PROMPT}\n${FILE}\n${FILE}\n${FILE}\nFAIL\n${FILE}\n${FILE}\n${FILE}`, replies: ["PASS"] },
          "file_editor#1": { replies: ["Edit: file_1.py"] },
          "file_editor#2": { replies: ["Edit: file_2.py"] },
          "file_editor#3": { replies: ["Edit: file_3.py"] },
          "file_editor#4": { replies: ["Edit: file_1.py"] },
          "file_editor#5": { replies: ["Edit: file_2.py"] },
          "file_editor#6": { replies: ["Edit: file_3.py"] },
          "joiner#1": { value: [PROMPT] },
          "joiner#2": { value: [`${PROMPT}\n${FILE}`] },
          "joiner#3": { value: [`${PROMPT}\n${FILE}\n${FILE}`] },
          "joiner#4": { value: [`${PROMPT}\n${FILE}\n${FILE}\n${FILE}`] },
          "joiner#5": { value: [`${PROMPT}\n${FILE}\n${FILE}\n${FILE}\nFAIL`] },
          "joiner#6": { value: [`${PROMPT}\n${FILE}\n${FILE}\n${FILE}\nFAIL\n${FILE}`] },
          "joiner#7": { value: [`${PROMPT}\n${FILE}\n${FILE}\n${FILE}\nFAIL\n${FILE}\n${FILE}`] },
          "joiner#8": { value: [`${PROMPT}\n${FILE}\n${FILE}\n${FILE}\nFAIL\n${FILE}\n${FILE}\n${FILE}`] },
          "tool_use_router#1": { replies: ["Edit: file_1.py"] },
          "tool_use_router#2": { replies: ["Edit: file_2.py"] },
          "tool_use_router#3": { replies: ["Edit: file_3.py"] },
          "tool_use_router#4": { replies: ["Task finished!"] },
          "tool_use_router#5": { replies: ["Edit: file_1.py"] },
          "tool_use_router#6": { replies: ["Edit: file_2.py"] },
          "tool_use_router#7": { replies: ["Edit: file_3.py"] },
          "tool_use_router#8": { replies: ["Task finished!"] },
        },
      },
    ],
  );
});

test.run();
