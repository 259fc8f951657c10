/**
 * @module Agent (Haystack's `haystack.components.agents.agent.Agent`, pipeline-engine.md §5.4): a
 * chat generator and tools in a loop. Each step asks the LLM, appends its replies, stops when it
 * answered without tool calls or when an exit-condition tool ran cleanly, and otherwise runs the
 * tools and appends their results. Everything streams through the one callback, so a consumer
 * sees text and tool-call deltas, then tool results, then a `tool_call_results` marker (§4.4).
 * As Haystack 3 it reports `step_count`, `token_usage`, `tool_call_counts` and `exit_reason`, and
 * renders `system_prompt` / `user_prompt` templates whose variables are inputs.
 */
import * as v from "valibot";
import { messageOf, type Span } from "svc/plugin";
import { Component, isComponent, output, selectStreamingCallback, socket, type ComponentContext, type InputSocketSpec, type OutputSocketSpec } from "../component.js";
import { ChatMessage } from "../dataclasses/chat-message.js";
import type { StreamingCallback } from "../dataclasses/streaming-chunk.js";
import { PipelineRuntimeError } from "../pipeline/errors.js";
import { Tool } from "../tool.js";
import { flattenTools, isToolsType, selectRunTools, Toolset, warmUpTools, type ToolsType } from "../toolset.js";
import { State, stateSocketSchema, validateStateSchema, withMessages, type StateSchema } from "./agent-state.js";
import { checkExitConditions, EXIT_REASON_MAX_STEPS, EXIT_REASON_TEXT, INTERNAL_KEYS, isTextExit, promptBuilder, promptVariables, recordLlmUsage, recordToolCalls, renderPrompt, RUN_METADATA_KEYS, validatePromptMessageBlocks } from "./agent-run.js";
import type { ChatPromptBuilder } from "./chat-prompt-builder.js";
import { ToolInvoker, checkDuplicateTools, runToolCalls } from "./tool-invoker.js";

const agentInitSchema = v.object({
  chat_generator: v.custom<Component>(isComponent, "chat_generator must be a component instance (YAML: a nested {type, init_parameters})"),
  tools: v.nullish(v.custom<ToolsType>(isToolsType, "tools must be a list of Tool and/or Toolset objects, or a Toolset."), []),
  system_prompt: v.nullish(v.string()),
  user_prompt: v.nullish(v.string()),
  required_variables: v.optional(v.nullable(v.union([v.literal("*"), v.array(v.string())])), "*"),
  exit_conditions: v.nullish(v.array(v.string()), ["text"]),
  state_schema: v.nullish(v.record(v.string(), v.object({ type: v.string() })), {}),
  max_agent_steps: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 100),
  streaming_callback: v.nullish(v.function()),
  raise_on_tool_invocation_failure: v.optional(v.boolean(), false),
  /** Newer Haystack's names for the tool invoker's `max_workers` and streaming passthrough. */
  tool_concurrency_limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1, "tool_concurrency_limit must be greater than or equal to 1.")), 4),
  tool_streaming_callback_passthrough: v.optional(v.boolean(), false),
  tool_invoker_kwargs: v.nullish(
    v.object({
      max_workers: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
      convert_result_to_json_string: v.optional(v.boolean()),
      enable_streaming_callback_passthrough: v.optional(v.boolean()),
    }),
  ),
  // Haystack parameters svc does not implement: known names, refused below when set (UNSUPPORTED).
  confirmation_strategies: v.optional(v.unknown()),
  hooks: v.optional(v.unknown()),
});

export type AgentParams = v.InferOutput<typeof agentInitSchema>;

/** Haystack parameters not implemented yet: an error beats silently ignoring them. */
const UNSUPPORTED = ["confirmation_strategies", "hooks"];
/** Run inputs a state key would shadow. */
const RESERVED_INPUTS = ["streaming_callback", "generation_kwargs", "system_prompt", "tools", "last_message"];
/** The run's own inputs: a prompt variable may not take these names. */
const RUN_PARAMS = ["messages", "streaming_callback", "generation_kwargs", "tools", "hook_context", "system_prompt"];

export interface AgentInputs {
  messages: ChatMessage[];
  streaming_callback?: unknown;
  generation_kwargs?: Record<string, unknown> | null;
  /** svc's (and Haystack 2's) run-time system prompt: used as is, replacing the init one. */
  system_prompt?: string | null;
  /** Tools and Toolsets, or names picking a subset of the init tools. */
  tools?: ToolsType | string[] | null;
  [stateKeyOrPromptVariable: string]: unknown;
}

export class Agent extends Component<AgentParams> {
  static override readonly type = "haystack.components.agents.agent.Agent";
  static override readonly aliases = ["Agent"];
  static override readonly initSchema = agentInitSchema;
  /** The YAML loader keeps Toolsets as Toolsets for this component. */
  static readonly acceptsToolsets = true;

  /** The user's schema plus `messages` and the run metadata keys (Haystack's `resolved_state_schema`). */
  readonly stateSchema: StateSchema;
  private readonly systemBuilder?: ChatPromptBuilder;
  private readonly userBuilder?: ChatPromptBuilder;
  /** Prompt variables, each with whether it must be given. */
  private readonly promptVariables: Map<string, boolean>;
  private warming?: Promise<void>;

  constructor(init: unknown = {}) {
    super(init);
    const p = this.initParameters;
    const given = UNSUPPORTED.filter((k) => !isEmpty(this.rawInit[k]));
    if (given.length) throw new Error(`Agent: ${given.join(", ")} ${given.length > 1 ? "are" : "is"} not supported yet.`);
    const tools = flattenTools(p.tools);
    checkDuplicateTools(tools);
    if (tools.length && !this.generatorTakesTools) throw new Error(`${p.chat_generator.type} does not accept tools parameter in its run method.`);
    // Exit conditions are not checked against tool names (Haystack 3): tools may come at run time or from a lazy Toolset.
    const reserved = [...Object.keys(RUN_METADATA_KEYS), ...INTERNAL_KEYS].sort();
    const reservedUsed = Object.keys(p.state_schema).filter((k) => reserved.includes(k)).sort();
    if (reservedUsed.length) {
      throw new Error(`state_schema keys ${pyList(reservedUsed)} are reserved for Agent internal state and cannot be redefined. Reserved keys: ${pyList(reserved)}.`);
    }
    const shadowing = Object.keys(p.state_schema).filter((k) => RESERVED_INPUTS.includes(k));
    if (shadowing.length) throw new Error(`Agent: state_schema keys ${shadowing.join(", ")} clash with the Agent's own inputs or outputs.`);
    validateStateSchema(p.state_schema);
    this.stateSchema = { ...withMessages(p.state_schema), ...RUN_METADATA_KEYS };
    // A tool reading or writing a key the state does not have would only fail mid-run.
    for (const t of tools) {
      for (const key of [...Object.keys(t.inputs_from_state ?? {}), ...Object.keys(t.outputs_to_state ?? {})]) {
        if (!(key in this.stateSchema)) throw new Error(`Agent: tool '${t.name}' uses state key '${key}', which is not in state_schema.`);
      }
    }
    validatePromptMessageBlocks(p.user_prompt, p.system_prompt);
    if (p.system_prompt != null) this.systemBuilder = promptBuilder(p.system_prompt, "system", p.required_variables);
    if (p.user_prompt != null) this.userBuilder = promptBuilder(p.user_prompt, "user", p.required_variables);
    this.promptVariables = promptVariables(
      [
        [this.systemBuilder, "system_prompt"],
        [this.userBuilder, "user_prompt"],
      ],
      p.required_variables,
      [...Object.keys(this.stateSchema), ...INTERNAL_KEYS],
      RUN_PARAMS,
    );
  }

  private get generatorTakesTools(): boolean {
    return "tools" in this.initParameters.chat_generator.inputSockets;
  }

  /** The init tools as given: a Toolset, or a list of Tools and Toolsets (Haystack's `agent.tools`). */
  get tools(): ToolsType {
    return this.initParameters.tools;
  }

  get exitConditions(): string[] {
    return this.initParameters.exit_conditions;
  }

  protected inputSpecs(): Record<string, InputSocketSpec> {
    const state = Object.entries(this.stateSchema).filter(([k]) => k !== "messages" && !(k in RUN_METADATA_KEYS));
    return {
      messages: socket(v.array(v.instance(ChatMessage))),
      streaming_callback: socket(v.nullable(v.function()), { default: null }),
      generation_kwargs: socket(v.nullable(v.record(v.string(), v.unknown())), { default: null }),
      system_prompt: socket(v.nullable(v.string()), { default: null }),
      tools: socket(v.nullable(v.union([v.array(v.union([v.string(), v.instance(Tool), v.instance(Toolset)])), v.instance(Toolset)])), { default: null }),
      ...Object.fromEntries(state.map(([k, f]) => [k, socket(stateSocketSchema(f.type), { default: null })])),
      ...Object.fromEntries([...this.promptVariables].map(([name, required]) => [name, required ? socket(v.any()) : socket(v.any(), { default: null })])),
    };
  }

  protected outputSpecs(): Record<string, OutputSocketSpec> {
    const state = Object.entries(this.stateSchema).filter(([k]) => k !== "messages");
    return {
      messages: output(v.array(v.instance(ChatMessage))),
      last_message: output(v.instance(ChatMessage)),
      ...Object.fromEntries(state.map(([k, f]) => [k, output(stateSocketSchema(f.type))])),
    };
  }

  /** Warms the tools (every call: toolsets load lazily and must be idempotent) and the chat generator once. */
  async warmUp(): Promise<void> {
    await warmUpTools(this.initParameters.tools);
    this.warming ??= Promise.resolve(this.initParameters.chat_generator.warmUp?.()).catch((error: unknown) => {
      this.warming = undefined; // a failed warm-up may be retried
      throw error;
    });
    return this.warming;
  }

  /** Releases the chat generator's resources. */
  async close(): Promise<void> {
    await (this.initParameters.chat_generator as { close?: () => unknown }).close?.();
  }

  /** A new Agent configured like this one, with the given init parameters replaced. */
  clone(overrides: Partial<Record<keyof AgentParams, unknown>> = {}): Agent {
    return new Agent({ ...this.rawInit, ...overrides });
  }

  /** Haystack 3 writes neither 2.x's `tool_invoker_kwargs` nor `confirmation_strategies`; a set value stays, so it round-trips. */
  override toDict(): { type: string; init_parameters: Record<string, unknown> } {
    const dict = super.toDict();
    for (const key of ["tool_invoker_kwargs", "confirmation_strategies"]) if (dict.init_parameters[key] == null) delete dict.init_parameters[key];
    return dict;
  }

  async run(inputs: AgentInputs, ctx: ComponentContext): Promise<Record<string, unknown>> {
    const p = this.initParameters;
    const callback = selectStreamingCallback(p.streaming_callback, inputs.streaming_callback);
    let messages = [...(inputs.messages ?? [])];
    if (this.userBuilder) messages = [...messages, ...renderPrompt(this.userBuilder, "user", "user_prompt", inputs)];
    if (inputs.system_prompt) messages = [ChatMessage.fromSystem(inputs.system_prompt), ...messages];
    else if (this.systemBuilder) messages = [...renderPrompt(this.systemBuilder, "system", "system_prompt", inputs), ...messages];
    if (messages.every((m) => m.role === "system")) warn(ctx, "All messages provided to the Agent component are system messages. This is not recommended.");

    const selected = await this.selectTools(inputs.tools);
    const stateInputs = Object.fromEntries(Object.entries(inputs).filter(([k]) => k in this.stateSchema && k !== "messages" && !(k in RUN_METADATA_KEYS)));
    const state = new State(this.stateSchema, stateInputs);
    state.set("messages", messages);
    state.set("step_count", 0);
    state.set("token_usage", {});
    state.set("tool_call_counts", Object.fromEntries(flattenTools(selected).map((t) => [t.name, 0])));
    state.set("exit_reason", null);

    const contentTracing = process.env.HAYSTACK_CONTENT_TRACING_ENABLED === "true";
    const span = ctx.tracer.startSpan(
      "haystack.agent.run",
      {
        "haystack.agent.max_steps": p.max_agent_steps,
        "haystack.agent.tools": flattenTools(selected).map((t) => t.name),
        "haystack.agent.exit_conditions": p.exit_conditions,
        "haystack.agent.state_schema": state.schemaDict(),
        ...(contentTracing ? { "haystack.agent.input": { messages: state.messages.map((m) => m.toDict()) } } : {}),
      },
      ctx.span,
    );
    let steps = 0;
    try {
      await this.warmUp().catch((error: unknown) => Promise.reject(this.failure(ctx, "warm_up", error)));
      let exited = false;
      while (!exited && steps < p.max_agent_steps) {
        if (ctx.signal.aborted) throw ctx.signal.reason;
        exited = await this.step(steps, state, selected, callback, inputs.generation_kwargs ?? null, ctx, span);
        steps++;
        state.set("step_count", steps);
      }
      if (!exited) {
        warn(ctx, `Agent reached maximum agent steps of ${p.max_agent_steps}, stopping.`);
        state.set("exit_reason", EXIT_REASON_MAX_STEPS);
      }
      span.setTag("haystack.agent.steps_taken", steps);
      if (contentTracing) span.setTag("haystack.agent.output", { messages: state.messages.map((m) => m.toDict()) });
      span.end();
    } catch (error) {
      span.setTag("haystack.agent.steps_taken", steps);
      span.end(error);
      throw error;
    }
    const last = state.messages.at(-1);
    return { ...state.data, ...(last ? { last_message: last } : {}) };
  }

  /** One LLM turn and, if it called tools, one tool batch. True when the agent is done (`exit_reason` set). */
  private async step(index: number, state: State, selected: ToolsType, callback: StreamingCallback | undefined, generationKwargs: Record<string, unknown> | null, ctx: ComponentContext, parent: Span): Promise<boolean> {
    const p = this.initParameters;
    const span = ctx.tracer.startSpan("haystack.agent.step", { "haystack.agent.step": index }, parent);
    let stage = "chat_generator";
    try {
      // Flattened anew each step: a dynamic toolset may have changed its tools.
      const tools = flattenTools(selected);
      checkDuplicateTools(tools);
      const replies = await this.callGenerator(state.messages, tools, callback, generationKwargs, ctx, span);
      state.set("messages", replies);
      recordLlmUsage(state, replies);
      if (tools.length === 0 || isTextExit(replies)) {
        state.set("exit_reason", EXIT_REASON_TEXT);
        span.setTag("haystack.agent.exit", EXIT_REASON_TEXT).end();
        return true;
      }
      stage = "tool_invoker";
      // As Haystack: the calls of the last reply run (an empty reply runs nothing and the loop goes on).
      const pending = replies.at(-1)?.toolCalls.length ? [replies.at(-1)!] : [];
      const kwargs = p.tool_invoker_kwargs ?? {};
      const toolMessages = await runToolCalls({
        messages: pending,
        tools,
        state,
        raiseOnFailure: p.raise_on_tool_invocation_failure,
        maxWorkers: kwargs.max_workers ?? p.tool_concurrency_limit,
        convertResultToJsonString: kwargs.convert_result_to_json_string,
        passthrough: kwargs.enable_streaming_callback_passthrough ?? p.tool_streaming_callback_passthrough,
        callback,
        componentInfo: { type: ToolInvoker.type, name: `${ctx.name}.tool_invoker` },
        signal: ctx.signal,
        tracer: ctx.tracer,
        parentSpan: span,
      });
      state.set("messages", toolMessages);
      recordToolCalls(state, toolMessages);
      const exitTool = p.exit_conditions.length === 1 && p.exit_conditions[0] === EXIT_REASON_TEXT ? null : checkExitConditions(p.exit_conditions, pending, toolMessages);
      if (exitTool) {
        state.set("exit_reason", exitTool);
        span.setTag("haystack.agent.exit", exitTool);
      }
      span.end();
      return exitTool !== null;
    } catch (error) {
      span.end(error);
      throw this.failure(ctx, `${stage} (step ${index + 1})`, error);
    }
  }

  private async callGenerator(messages: ChatMessage[], tools: Tool[], callback: StreamingCallback | undefined, generationKwargs: Record<string, unknown> | null, ctx: ComponentContext, parent: Span): Promise<ChatMessage[]> {
    const generator = this.initParameters.chat_generator;
    const sockets = generator.inputSockets;
    // Called directly, not by a pipeline: fill optional inputs with their defaults as a pipeline would.
    const inputs: Record<string, unknown> = Object.fromEntries(Object.values(sockets).filter((s) => !s.mandatory).map((s) => [s.name, s.default]));
    inputs.messages = messages;
    if (tools.length) inputs.tools = tools.map((t) => t.toolSpec);
    if (callback && "streaming_callback" in sockets) inputs.streaming_callback = callback;
    if (generationKwargs && "generation_kwargs" in sockets) inputs.generation_kwargs = generationKwargs;
    const span = ctx.tracer.startSpan("haystack.agent.step.llm", {}, parent);
    try {
      const result = await generator.run(inputs, { name: `${ctx.name}.chat_generator`, signal: ctx.signal, tracer: ctx.tracer, span, log: ctx.log });
      const replies = (result as { replies?: unknown })?.replies;
      if (!Array.isArray(replies) || !replies.every((r) => r instanceof ChatMessage)) throw new Error(`${generator.type} did not return replies as a list of ChatMessages.`);
      span.end();
      return replies;
    } catch (error) {
      span.end(error);
      throw error;
    }
  }

  /** Run-time tools (Haystack's `_select_tools`); a chat generator without `tools` may not get any. */
  private async selectTools(requested: ToolsType | string[] | null | undefined): Promise<ToolsType> {
    const selected = await selectRunTools(this.initParameters.tools, requested);
    if (requested && !this.generatorTakesTools && flattenTools(selected).length) {
      throw new TypeError(`${this.initParameters.chat_generator.type} does not accept tools parameter in its run method. The Agent component requires a chat generator that supports tools when tools are provided.`);
    }
    return selected;
  }

  /** A failure inside the loop, named after this agent (the pipeline passes it on unchanged). */
  private failure(ctx: ComponentContext, where: string, error: unknown): PipelineRuntimeError {
    if (error instanceof PipelineRuntimeError && error.componentName === ctx.name) return error;
    const message = `The following component failed to run:\nComponent name: '${ctx.name}'\nComponent type: '${this.type}'\nError: ${where}: ${messageOf(error)}`;
    return new PipelineRuntimeError(ctx.name, this.type, error, message);
  }
}

function warn(ctx: ComponentContext, message: string): void {
  if (ctx.log) ctx.log.warn(message, { component: ctx.name });
  else console.warn(message);
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0) || (typeof value === "object" && Object.keys(value).length === 0);
}

const pyList = (xs: string[]) => `[${xs.map((x) => `'${x}'`).join(", ")}]`;
