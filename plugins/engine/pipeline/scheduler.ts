/**
 * @module The run loop: Haystack 2.x's async scheduler. Ready components run concurrently up to a
 * limit; a component with a ready greedy socket runs alone once everything in flight finished;
 * deferred ones (waiting on optional or variadic inputs) run only when nothing else can, tie-broken
 * by topological order (cycles rank together) and then by name. Outputs flow along the edges,
 * converted where the connection needs it; the result holds unconsumed outputs and the full outputs
 * of `includeOutputsFrom`.
 */
import { messageOf, NOOP_TRACER, signalSpan, signalTracer, type Span, type Tracer } from "svc/plugin";
import type { InputSocket } from "../component.js";
import { ChatMessage } from "../dataclasses/chat-message.js";
import type { Conversion } from "../type-ref.js";
import { PipelineComponentsBlockedError, PipelineError, PipelineMaxComponentRuns, PipelineRuntimeError, ValueError } from "./errors.js";
import type { Pipeline, RunOptions } from "./pipeline.js";
import { consume, deliver, NO_OUTPUT, priorityOf, Priority, type Inputs, type Node } from "./run-state.js";
import { distributeInput } from "./run-input.js";
import { byCodePoints, byRankThenName, topologicalRanks } from "./topology.js";
import { deepCopy } from "./copy.js";
import { FIFOPriorityQueue } from "./priority-queue.js";
import { componentSpanTags } from "./span-tags.js";
import { findBlockingComponents, isPossiblyBlocked, shortType, warnBlocked, warnUndeclaredOutputs } from "./blocking.js";

export type PipelineResult = Record<string, Record<string, unknown>>;

/** Haystack's `_convert_value`, step by step; its errors are Haystack's ValueErrors. */
function convert(value: unknown, steps: readonly Conversion[] | undefined): unknown {
  let v = value;
  for (const step of steps ?? []) {
    if (step === "wrapList") v = [v];
    else if (step === "unwrapList") {
      if (!Array.isArray(v) || v.length === 0) throw new ValueError("Cannot get first item of an empty list. ");
      if (v.length > 1) {
        throw new ValueError(`Cannot unwrap a list of ${v.length} items to a single value: a list-to-scalar connection only accepts one-element lists; otherwise items would be silently dropped.`);
      }
      v = v[0];
    } else if (step === "chatMessageToText") {
      const text = v instanceof ChatMessage ? v.text : null;
      if (text === null) throw new ValueError("Cannot convert `ChatMessage` to `str` because it has no text. ");
      v = text;
    } else if (step === "textToChatMessage") v = ChatMessage.fromUser(String(v));
  }
  return v;
}

/** Errors a run raises as they are; anything else is wrapped. */
const isPipelineFailure = (error: unknown) => error instanceof PipelineError || error instanceof PipelineRuntimeError || error instanceof ValueError;

export async function runPipeline(pipeline: Pipeline, data: Record<string, unknown>, options: RunOptions): Promise<Record<string, Record<string, unknown>>> {
  const limit = options.concurrencyLimit ?? 4;
  if (!Number.isInteger(limit) || limit < 1) throw new ValueError("concurrency_limit must be greater than or equal to 1");
  // Components see this run's own signal: aborted with the caller's, and when a component fails,
  // so its siblings in flight stop instead of running on (Haystack cancels their tasks).
  const stop = new AbortController();
  const onCallerAbort = () => stop.abort(options.signal!.reason);
  if (options.signal?.aborted) onCallerAbort();
  else options.signal?.addEventListener("abort", onCallerAbort, { once: true });
  try {
    return await runWith(pipeline, data, options, limit, stop);
  } finally {
    options.signal?.removeEventListener("abort", onCallerAbort);
  }
}

async function runWith(pipeline: Pipeline, data: Record<string, unknown>, options: RunOptions, limit: number, stop: AbortController): Promise<Record<string, Record<string, unknown>>> {
  // Without a tracer given, the kernel's that traced the caller's run (found through its signal).
  const tracer = options.tracer ?? signalTracer(options.signal) ?? NOOP_TRACER;
  const signal = stop.signal;
  const includeFrom = new Set(options.includeOutputsFrom ?? []);
  const contentTracing = options.contentTracing ?? process.env.HAYSTACK_CONTENT_TRACING_ENABLED === "true";

  const nodes = new Map<string, Node>();
  for (const name of pipeline.componentNames.sort()) {
    const component = pipeline.getComponent(name);
    // This run's copies: user input next to a sender makes a socket variadic for this run only.
    const sockets = Object.values(component.inputSockets).map((s) => ({ ...s }));
    nodes.set(name, {
      name,
      component,
      sockets,
      senders: new Map(sockets.map((s) => [s.name, pipeline.sendersOf(name, s.name).map((e) => e.sender)])),
      receivers: pipeline.receiversOf(name),
      visits: 0,
    });
  }
  const state = new Map<string, Inputs>([...nodes.keys()].map((n) => [n, new Map()]));
  const inputData = distributeInput(pipeline, nodes, data, state, options.log);
  // Haystack: a pipeline without components runs and returns nothing.
  if (nodes.size === 0) return {};
  const ranks = topologicalRanks(pipeline);
  const result: Record<string, Record<string, unknown>> = {};

  const pipelineSpan = tracer.startSpan("haystack.pipeline.run", {
    "haystack.pipeline.max_runs_per_component": pipeline.maxRunsPerComponent,
    "haystack.pipeline.metadata": pipeline.metadata,
    // One component at a time is Haystack's `run`; concurrently, its `run_async`.
    "haystack.pipeline.execution_mode": limit === 1 ? "sync" : "async",
    // By component, as Haystack records it (flat data already sent to its sockets).
    ...(contentTracing ? { "haystack.pipeline.input_data": inputData } : {}),
  }, options.parentSpan ?? signalSpan(options.signal));

  for (const node of nodes.values()) await node.component.warmUp?.();

  const running = new Map<string, Promise<void>>();
  let failure: unknown;

  const start = (node: Node) => {
    if (node.visits >= pipeline.maxRunsPerComponent) throw new PipelineMaxComponentRuns(node.name, pipeline.maxRunsPerComponent);
    const inputs = consume(node, state.get(node.name)!);
    const task = execute(node, inputs, pipelineSpan).then(
      (outputs) => {
        running.delete(node.name);
        node.visits++;
        try {
          write(node, outputs);
        } catch (error) {
          failure ??= error;
        }
      },
      (error) => {
        running.delete(node.name);
        failure ??= error;
        if (!stop.signal.aborted) stop.abort(error);
      },
    );
    running.set(node.name, task);
  };

  const execute = async (node: Node, inputs: Record<string, unknown>, parent: Span): Promise<Record<string, unknown>> => {
    const span = tracer.startSpan("haystack.component.run", {
      ...componentSpanTags(pipeline, node, inputs),
      ...(contentTracing ? { "haystack.component.input": inputs } : {}),
    }, parent);
    options.onComponentStart?.(node.name);
    try {
      if (signal.aborted) throw signal.reason ?? new Error("The pipeline run was aborted.");
      // Each run gets its own copy: a component mutating its input changes no one else's.
      const outputs = await node.component.run(deepCopy(inputs), { name: node.name, signal, tracer, span, log: options.log });
      if (!outputs || typeof outputs !== "object" || Array.isArray(outputs)) throw PipelineRuntimeError.invalidOutput(node.name, node.component.type, outputs);
      warnUndeclaredOutputs(options.log, node, outputs);
      if (contentTracing) span.setTag("haystack.component.output", outputs as Record<string, unknown>);
      span.end();
      options.onComponentEnd?.(node.name, outputs);
      return outputs;
    } catch (error) {
      span.end(error);
      throw error instanceof PipelineRuntimeError ? error : new PipelineRuntimeError(node.name, node.component.type, error);
    }
  };

  const write = (node: Node, outputs: Record<string, unknown>) => {
    const consumedSockets = new Set<string>();
    for (const edge of node.receivers) {
      consumedSockets.add(edge.senderSocket);
      const receiverSocket = nodes.get(edge.receiver)!.sockets.find((s) => s.name === edge.receiverSocket) as InputSocket;
      const produced = edge.senderSocket in outputs ? outputs[edge.senderSocket] : NO_OUTPUT;
      let value = produced;
      if (produced !== NO_OUTPUT && edge.conversion) {
        try {
          value = convert(produced, edge.conversion);
        } catch (error) {
          const receiver = nodes.get(edge.receiver)!.component.type;
          throw new PipelineRuntimeError(
            null,
            null,
            error,
            `Failed to perform conversion between components:\nSender component: '${node.name}' (type: '${shortType(node.component.type)}')\nSender socket: '${edge.senderSocket}'\nReceiver component: '${edge.receiver}' (type: '${shortType(receiver)}')\nReceiver socket: '${edge.receiverSocket}'\nError: ${messageOf(error)}`,
          );
        }
      }
      const inputs = state.get(edge.receiver)!;
      inputs.set(edge.receiverSocket, deliver(value, receiverSocket, node.name, inputs.get(edge.receiverSocket)));
    }
    // The last run's outputs win; only unconsumed sockets, unless all outputs were asked for.
    const kept = includeFrom.has(node.name) ? outputs : Object.fromEntries(Object.entries(outputs).filter(([k]) => !consumedSockets.has(k)));
    if (Object.keys(kept).length || includeFrom.has(node.name)) result[node.name] = kept;
  };

  // Haystack's `_fill_queue`: the components not running, pushed in name order (Python's `sorted`:
  // code points, capitals first), so equal priorities keep it.
  const byName = [...nodes.values()].sort((a, b) => byCodePoints(a.name, b.name));
  const fillQueue = () => {
    const queue = new FIFOPriorityQueue<Node>();
    for (const n of byName) if (!running.has(n.name)) queue.push(n, priorityOf(n, state.get(n.name)!));
    return queue;
  };
  // Haystack's `_tiebreak_waiting_components`: of the first priority's components, the first in topological order, then by name.
  const tiebreak = (queue: FIFOPriorityQueue<Node>): Node => {
    const [priority, head] = queue.pop();
    const same = [head];
    while (queue.length && queue.peek()[0] === priority) same.push(queue.pop()[1]);
    return same.sort(byRankThenName(ranks))[0]!;
  };

  try {
    let first = true;
    while (failure === undefined) {
      if (signal.aborted) throw signal.reason ?? new Error("The pipeline run was aborted.");
      const queue = fillQueue();
      const best = queue.length ? queue.peek()[0] : undefined;
      if (first && (best === undefined || best === Priority.BLOCKED)) throw new PipelineComponentsBlockedError();
      first = false;
      if (best === undefined || best === Priority.BLOCKED) {
        if (running.size === 0) {
          if (isPossiblyBlocked(pipeline, result)) warnBlocked(options.log, findBlockingComponents(nodes, state, ranks));
          break;
        }
        await Promise.race(running.values());
        continue;
      }
      if (best === Priority.HIGHEST) {
        // A greedy socket must see every value in flight: wait for all, then re-evaluate.
        if (running.size) {
          await Promise.all(running.values());
          continue;
        }
        const node = queue.pop()[1];
        start(node);
        await running.get(node.name);
        continue;
      }
      if (best === Priority.READY) {
        while (queue.length && queue.peek()[0] === Priority.READY && running.size < limit) start(queue.pop()[1]);
        if (running.size >= limit || !(queue.length && queue.peek()[0] === Priority.READY)) await Promise.race(running.values());
        continue;
      }
      // Deferred: only when nothing else is running.
      if (running.size) {
        await Promise.race(running.values());
        continue;
      }
      const node = tiebreak(queue);
      start(node);
      await running.get(node.name);
    }
    await Promise.allSettled(running.values());
    if (failure !== undefined) throw failure;
    if (contentTracing) pipelineSpan.setTag("haystack.pipeline.output_data", result);
    pipelineSpan.end();
    return result;
  } catch (error) {
    await Promise.allSettled(running.values());
    pipelineSpan.end(error);
    throw isPipelineFailure(error) ? error : new PipelineError(`Pipeline run failed: ${messageOf(error)}`, { cause: error });
  }
}
