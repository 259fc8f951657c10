/**
 * @module Agent (Haystack's `haystack.components.agents.agent.Agent`, pipeline-engine.md §5.4): a
 * chat generator and tools in a loop. Each step asks the LLM, appends its replies, stops when it
 * answered without tool calls or when an exit-condition tool ran cleanly, and otherwise runs the
 * tools and appends their results. Everything streams through the one callback, so a consumer
 * sees text and tool-call deltas, then tool results, then a `tool_call_results` marker (§4.4).
 */
import * as v from "valibot";
import { messageOf, type Span } from "svc/plugin";
import { Component, isComponent, output, selectStreamingCallback, socket, type ComponentContext, type InputSocketSpec, type OutputSocketSpec } from "../component.js";
import { ChatMessage } from "../dataclasses/chat-message.js";
import type { StreamingCallback } from "../dataclasses/streaming-chunk.js";
import { PipelineRuntimeError } from "../pipeline/errors.js";
import { Tool } from "../tool.js";
import { State, stateSocketSchema, withMessages, type StateSchema } from "./agent-state.js";
import { ToolInvoker, checkDuplicateTools, runToolCalls } from "./tool-invoker.js";

const agentInitSchema = v.object({
  chat_generator: v.custom<Component>(isComponent, "chat_generator must be a component instance (YAML: a nested {type, init_parameters})"),
  tools: v.nullish(v.array(v.instance(Tool)), []),
  system_prompt: v.nullish(v.string()),
  exit_conditions: v.nullish(v.array(v.string()), ["text"]),
  state_schema: v.nullish(v.record(v.string(), v.object({ type: v.string() })), {}),
  max_agent_steps: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 100),
  streaming_callback: v.nullish(v.function()),
  raise_on_tool_invocation_failure: v.optional(v.boolean(), false),
  /** Newer Haystack's names for the tool invoker's `max_workers` and streaming passthrough. */
  tool_concurrency_limit: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(1))),
  tool_streaming_callback_passthrough: v.nullish(v.boolean()),
  tool_invoker_kwargs: v.nullish(
    v.object({
      max_workers: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
      convert_result_to_json_string: v.optional(v.boolean()),
      enable_streaming_callback_passthrough: v.optional(v.boolean()),
    }),
  ),
  // Haystack parameters svc does not implement: known names, refused below when set (UNSUPPORTED).
  user_prompt: v.optional(v.unknown()),
  required_variables: v.optional(v.unknown()),
  confirmation_strategies: v.optional(v.unknown()),
  hooks: v.optional(v.unknown()),
});

export type AgentParams = v.InferOutput<typeof agentInitSchema>;

/** Haystack parameters not implemented yet: an error beats silently ignoring them. */
const UNSUPPORTED = ["user_prompt", "required_variables", "confirmation_strategies", "hooks"];
/** Run inputs a state key would shadow. */
const RESERVED_INPUTS = ["streaming_callback", "generation_kwargs", "system_prompt", "tools", "last_message"];

export interface AgentInputs {
  messages: ChatMessage[];
  streaming_callback?: unknown;
  generation_kwargs?: Record<string, unknown> | null;
  system_prompt?: string | null;
  /** Tool objects, or names picking a subset of the init tools. */
  tools?: (Tool | string)[] | null;
  [stateKey: string]: unknown;
}

export class Agent extends Component<AgentParams> {
  static override readonly type = "haystack.components.agents.agent.Agent";
  static override readonly aliases = ["Agent"];
  static override readonly initSchema = agentInitSchema;

  /** The user's schema plus `messages`. */
  readonly stateSchema: StateSchema;
  private warming?: Promise<void>;

  constructor(init: unknown = {}) {
    super(init);
    const p = this.initParameters;
    // Without a user_prompt, required_variables (Haystack writes '*') has nothing to require.
    const given = UNSUPPORTED.filter((k) => !isEmpty(this.rawInit[k]) && !(k === "required_variables" && isEmpty(this.rawInit.user_prompt)));
    if (given.length) throw new Error(`Agent: ${given.join(", ")} ${given.length > 1 ? "are" : "is"} not supported yet.`);
    checkDuplicateTools(p.tools);
    if (p.tools.length && !("tools" in p.chat_generator.inputSockets)) throw new Error(`${p.chat_generator.type} does not accept tools parameter in its run method.`);
    const valid = ["text", ...p.tools.map((t) => t.name)];
    const invalid = p.exit_conditions.filter((c) => !valid.includes(c));
    if (invalid.length) {
      throw new Error(
        `Invalid exit conditions provided: ${invalid.join(", ")}. Valid exit conditions must be a subset of ${valid.join(", ")}. Ensure that each exit condition corresponds to either 'text' or a valid tool name.`,
      );
    }
    const shadowing = Object.keys(p.state_schema).filter((k) => RESERVED_INPUTS.includes(k));
    if (shadowing.length) throw new Error(`Agent: state_schema keys ${shadowing.join(", ")} clash with the Agent's own inputs or outputs.`);
    this.stateSchema = withMessages(p.state_schema);
    // A tool reading or writing a key the state does not have would only fail mid-run.
    for (const t of p.tools) {
      for (const key of [...Object.keys(t.inputs_from_state ?? {}), ...Object.keys(t.outputs_to_state ?? {})]) {
        if (!(key in this.stateSchema)) throw new Error(`Agent: tool '${t.name}' uses state key '${key}', which is not in state_schema.`);
      }
    }
  }

  protected inputSpecs(): Record<string, InputSocketSpec> {
    const state = Object.entries(this.stateSchema).filter(([k]) => k !== "messages");
    return {
      messages: socket(v.array(v.instance(ChatMessage))),
      streaming_callback: socket(v.nullable(v.function()), { default: null }),
      generation_kwargs: socket(v.nullable(v.record(v.string(), v.unknown())), { default: null }),
      system_prompt: socket(v.nullable(v.string()), { default: null }),
      tools: socket(v.nullable(v.array(v.union([v.string(), v.instance(Tool)]))), { default: null }),
      ...Object.fromEntries(state.map(([k, f]) => [k, socket(stateSocketSchema(f.type), { default: null })])),
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

  /** Warms the chat generator once; concurrent callers share the one warm-up. */
  warmUp(): Promise<void> {
    this.warming ??= Promise.resolve(this.initParameters.chat_generator.warmUp?.()).catch((error: unknown) => {
      this.warming = undefined; // a failed warm-up may be retried
      throw error;
    });
    return this.warming;
  }

  async run(inputs: AgentInputs, ctx: ComponentContext): Promise<Record<string, unknown>> {
    const p = this.initParameters;
    const tools = this.selectTools(inputs.tools);
    const callback = selectStreamingCallback(p.streaming_callback, inputs.streaming_callback);
    const systemPrompt = inputs.system_prompt ?? p.system_prompt;
    const stateInputs = Object.fromEntries(Object.entries(inputs).filter(([k]) => k !== "messages"));
    const state = new State(this.stateSchema, stateInputs);
    state.set("messages", [...(systemPrompt ? [ChatMessage.fromSystem(systemPrompt)] : []), ...(inputs.messages ?? [])]);

    const contentTracing = process.env.HAYSTACK_CONTENT_TRACING_ENABLED === "true";
    const span = ctx.tracer.startSpan(
      "haystack.agent.run",
      {
        "haystack.agent.max_steps": p.max_agent_steps,
        "haystack.agent.tools": tools.map((t) => t.name),
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
        steps++;
        exited = await this.step(steps, state, tools, callback, inputs.generation_kwargs ?? null, ctx, span);
      }
      if (!exited) {
        const message = `Agent reached maximum agent steps of ${p.max_agent_steps}, stopping.`;
        if (ctx.log) ctx.log.warn(message, { component: ctx.name });
        else console.warn(message);
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

  /** One LLM turn and, if it called tools, one tool batch. True when the agent is done. */
  private async step(n: number, state: State, tools: Tool[], callback: StreamingCallback | undefined, generationKwargs: Record<string, unknown> | null, ctx: ComponentContext, parent: Span): Promise<boolean> {
    const p = this.initParameters;
    const span = ctx.tracer.startSpan("haystack.agent.step", { "haystack.agent.step": n }, parent);
    let stage = "chat_generator";
    try {
      const replies = await this.callGenerator(state.messages, tools, callback, generationKwargs, ctx, span);
      state.set("messages", replies);
      // Nothing to run: the LLM answered (Haystack exits whenever no reply calls a tool).
      if (tools.length === 0 || !replies.some((r) => r.toolCalls.length > 0)) {
        span.setTag("haystack.agent.exit", "text").end();
        return true;
      }
      stage = "tool_invoker";
      const kwargs = p.tool_invoker_kwargs ?? {};
      const toolMessages = await runToolCalls({
        messages: replies,
        tools,
        state,
        raiseOnFailure: p.raise_on_tool_invocation_failure,
        maxWorkers: kwargs.max_workers ?? p.tool_concurrency_limit ?? undefined,
        convertResultToJsonString: kwargs.convert_result_to_json_string,
        passthrough: kwargs.enable_streaming_callback_passthrough ?? p.tool_streaming_callback_passthrough ?? undefined,
        callback,
        componentInfo: { type: ToolInvoker.type, name: `${ctx.name}.tool_invoker` },
        signal: ctx.signal,
        tracer: ctx.tracer,
        parentSpan: span,
      });
      state.set("messages", toolMessages);
      const exitTool = this.exitTool(replies, toolMessages);
      if (exitTool) span.setTag("haystack.agent.exit", exitTool);
      span.end();
      return exitTool !== null;
    } catch (error) {
      span.end(error);
      throw this.failure(ctx, `${stage} (step ${n})`, error);
    }
  }

  private async callGenerator(messages: ChatMessage[], tools: Tool[], callback: StreamingCallback | undefined, generationKwargs: Record<string, unknown> | null, ctx: ComponentContext, span: Span): Promise<ChatMessage[]> {
    const generator = this.initParameters.chat_generator;
    const sockets = generator.inputSockets;
    // Called directly, not by a pipeline: fill optional inputs with their defaults as a pipeline would.
    const inputs: Record<string, unknown> = Object.fromEntries(Object.values(sockets).filter((s) => !s.mandatory).map((s) => [s.name, s.default]));
    inputs.messages = messages;
    if (tools.length) inputs.tools = tools.map((t) => t.toolSpec);
    if (callback && "streaming_callback" in sockets) inputs.streaming_callback = callback;
    if (generationKwargs && "generation_kwargs" in sockets) inputs.generation_kwargs = generationKwargs;
    const result = await generator.run(inputs, { name: `${ctx.name}.chat_generator`, signal: ctx.signal, tracer: ctx.tracer, span, log: ctx.log });
    const replies = (result as { replies?: unknown })?.replies;
    if (!Array.isArray(replies) || !replies.every((r) => r instanceof ChatMessage)) throw new Error(`${generator.type} did not return replies as a list of ChatMessages.`);
    return replies;
  }

  /** The exit-condition tool called in this turn, if every call to it succeeded. */
  private exitTool(replies: ChatMessage[], toolMessages: ChatMessage[]): string | null {
    const conditions = this.initParameters.exit_conditions;
    const called = [...new Set(replies.flatMap((r) => r.toolCalls.map((c) => c.tool_name)))].filter((name) => conditions.includes(name));
    const failed = new Set(toolMessages.flatMap((m) => m.toolCallResults.filter((r) => r.error).map((r) => r.origin.tool_name)));
    if (called.length === 0 || called.some((name) => failed.has(name))) return null;
    return called[0]!;
  }

  /** Run-time tools: names select init tools, Tool objects are used as given. */
  private selectTools(requested: (Tool | string)[] | null | undefined): Tool[] {
    const own = this.initParameters.tools;
    if (!requested) return own;
    const missing = requested.filter((t): t is string => typeof t === "string" && !own.some((o) => o.name === t));
    if (missing.length) throw new Error(`Agent: requested tools not available: ${missing.join(", ")}. Available tools: ${own.map((t) => t.name).join(", ") || "none"}.`);
    const tools = requested.map((t) => (typeof t === "string" ? own.find((o) => o.name === t)! : t));
    checkDuplicateTools(tools);
    return tools;
  }

  /** A failure inside the loop, named after this agent (the pipeline passes it on unchanged). */
  private failure(ctx: ComponentContext, where: string, error: unknown): PipelineRuntimeError {
    if (error instanceof PipelineRuntimeError && error.componentName === ctx.name) return error;
    const message = `The following component failed to run:\nComponent name: '${ctx.name}'\nComponent type: '${this.type}'\nError: ${where}: ${messageOf(error)}`;
    return new PipelineRuntimeError(ctx.name, this.type, error, message);
  }
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0) || (typeof value === "object" && Object.keys(value).length === 0);
}
