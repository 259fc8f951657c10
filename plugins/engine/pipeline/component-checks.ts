/**
 * @module Haystack's scheduler predicates (haystack.core.pipeline.component_checks), one function
 * each under Haystack's name, over svc's run state: whether a component can run, has a trigger,
 * has its sockets filled, and whether its senders all ran. The run loop (run-state.ts `priorityOf`)
 * is built from them, so Haystack's own cases for these helpers test svc's scheduler directly.
 * A socket's records are `{sender, value}`: `sender` null for user input, `value` possibly
 * NO_OUTPUT (the sender ran without producing this output).
 */
import type { InputSocket } from "../component.js";

export const NO_OUTPUT: unique symbol = Symbol("svc.engine.noOutputProduced");

export interface InputRecord {
  readonly sender: string | null;
  readonly value: unknown;
}

/** A component's inputs in one run, by socket name. */
export type Inputs = Map<string, InputRecord[]>;

/** What the checks read of a component: its input sockets, who sends to each, how often it ran. */
export interface ComponentState {
  readonly sockets: readonly InputSocket[];
  /** Senders of each input socket (Haystack's `InputSocket.senders`); absent means none. */
  readonly senders: ReadonlyMap<string, readonly string[]>;
  readonly visits: number;
}

const sendersOf = (component: ComponentState, socket: InputSocket) => component.senders.get(socket.name) ?? [];
const recordsOf = (inputs: Inputs, socket: InputSocket) => inputs.get(socket.name) ?? [];
const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((x) => b.has(x));

/** Two gates: every mandatory socket is filled, and something triggered the component. */
export function canComponentRun(component: ComponentState, inputs: Inputs): boolean {
  return areAllSocketsReady(component, inputs, true) && hasAnyTrigger(component, inputs);
}

/**
 * A predecessor's value, or (on the first visit only) user input or having no senders at all.
 * Each trigger runs the component once: sender values are consumed, the others need visits 0.
 */
export function hasAnyTrigger(component: ComponentState, inputs: Inputs): boolean {
  if (anyPredecessorsProvidedInput(component, inputs)) return true;
  if (component.visits !== 0) return false;
  return hasUserInput(inputs) || canNotReceiveInputsFromPipeline(component);
}

/**
 * Whether the sockets checked are filled: the mandatory ones, or (by default) the mandatory ones
 * and every socket with a sender. A lazy variadic socket counts as filled with any one value.
 */
export function areAllSocketsReady(component: ComponentState, inputs: Inputs, onlyCheckMandatory = false): boolean {
  return component.sockets
    .filter((s) => s.mandatory || (!onlyCheckMandatory && sendersOf(component, s).length > 0))
    .every((s) => {
      const records = recordsOf(inputs, s);
      return hasSocketReceivedAllInputs(s, sendersOf(component, s), records) || (s.kind === "lazyVariadic" && anySocketInputReceived(records));
    });
}

export function anyPredecessorsProvidedInput(component: ComponentState, inputs: Inputs): boolean {
  return component.sockets.some((s) => anySocketValueFromPredecessorReceived(recordsOf(inputs, s)));
}

/** A value (not NO_OUTPUT) from a sender; user input (sender null) does not count. */
export function anySocketValueFromPredecessorReceived(records: readonly InputRecord[]): boolean {
  return records.some((r) => r.value !== NO_OUTPUT && r.sender !== null);
}

/** Any record from outside the pipeline, even a NO_OUTPUT one. */
export function hasUserInput(inputs: Inputs): boolean {
  for (const records of inputs.values()) if (records.some((r) => r.sender === null)) return true;
  return false;
}

/** No socket has a sender: only the run call itself can trigger the component. */
export function canNotReceiveInputsFromPipeline(component: ComponentState): boolean {
  return component.sockets.every((s) => sendersOf(component, s).length === 0);
}

/** The senders seen on the socket (user input aside) are exactly its connected senders. */
export function allSocketPredecessorsExecuted(senders: readonly string[], records: readonly InputRecord[]): boolean {
  const executed = new Set(records.flatMap((r) => (r.sender === null ? [] : [r.sender])));
  return sameSet(new Set(senders), executed);
}

/** Any value, from a sender or the user. */
export function anySocketInputReceived(records: readonly InputRecord[]): boolean {
  return records.some((r) => r.value !== NO_OUTPUT);
}

/** Every connected sender delivered a value (NO_OUTPUT and user input do not count). */
export function hasLazyVariadicSocketReceivedAllInputs(senders: readonly string[], records: readonly InputRecord[]): boolean {
  const delivered = new Set(records.flatMap((r) => (r.sender !== null && r.value !== NO_OUTPUT ? [r.sender] : [])));
  return sameSet(new Set(senders), delivered);
}

/** Greedy: any value; lazy variadic: a value from every sender; normal: its (first) value is real. */
export function hasSocketReceivedAllInputs(socket: InputSocket, senders: readonly string[], records: readonly InputRecord[]): boolean {
  if (records.length === 0) return false;
  if (socket.kind === "greedyVariadic") return anySocketInputReceived(records);
  if (socket.kind === "lazyVariadic") return hasLazyVariadicSocketReceivedAllInputs(senders, records);
  return records[0]!.value !== NO_OUTPUT;
}

export function allPredecessorsExecuted(component: ComponentState, inputs: Inputs): boolean {
  return component.sockets.every((s) => allSocketPredecessorsExecuted(sendersOf(component, s), recordsOf(inputs, s)));
}

export function isAnyGreedySocketReady(component: ComponentState, inputs: Inputs): boolean {
  return component.sockets.some((s) => s.kind === "greedyVariadic" && hasSocketReceivedAllInputs(s, sendersOf(component, s), recordsOf(inputs, s)));
}
