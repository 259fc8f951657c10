/**
 * @module The run state of one pipeline run: each component's priority (from Haystack's
 * predicates in component-checks.ts), what a run consumes and how outputs are delivered. Each
 * input socket holds a list of `{sender, value}` records: `sender` null for user input, `value`
 * possibly NO_OUTPUT, the marker a sender writes for a declared output it did not produce (a
 * router's branch not taken), so receivers know the sender ran.
 */
import type { Component, InputSocket } from "../component.js";
import type { Edge } from "./connections.js";
import { allPredecessorsExecuted, areAllSocketsReady, canComponentRun, isAnyGreedySocketReady, NO_OUTPUT, type InputRecord, type Inputs } from "./component-checks.js";

export { NO_OUTPUT, type InputRecord, type Inputs };

/** Best first, as in Haystack 3: a ready greedy socket, all senders done, waiting (3.x merged DEFER_LAST into DEFER). */
export enum Priority {
  HIGHEST = 1,
  READY = 2,
  DEFER = 3,
  BLOCKED = 4,
}

export interface Node {
  readonly name: string;
  readonly component: Component;
  readonly sockets: readonly InputSocket[];
  /** Senders of each input socket. */
  readonly senders: ReadonlyMap<string, readonly string[]>;
  readonly receivers: readonly Edge[];
  visits: number;
}

/**
 * Haystack's `_calculate_priority`. HIGHEST needs a ready greedy socket and every socket checked
 * by `areAllSocketsReady`'s default (mandatory ones and those with senders), not just the mandatory ones.
 */
export function priorityOf(node: Node, inputs: Inputs): Priority {
  if (!canComponentRun(node, inputs)) return Priority.BLOCKED;
  if (isAnyGreedySocketReady(node, inputs) && areAllSocketsReady(node, inputs)) return Priority.HIGHEST;
  if (allPredecessorsExecuted(node, inputs)) return Priority.READY;
  return Priority.DEFER;
}

/**
 * Takes what a run consumes: the first value of a normal socket, every value of a lazy variadic one
 * in the order they arrived (user input first, then senders as they finished, as in Haystack), the
 * first value of a greedy one. Inputs from senders are removed; user inputs stay, except a greedy
 * socket's, which would otherwise trigger the component forever.
 */
export function consume(node: Node, inputs: Inputs): Record<string, unknown> {
  const consumed: Record<string, unknown> = {};
  for (const socket of node.sockets) {
    const records = inputs.get(socket.name) ?? [];
    let greedyTaken = false;
    const values = records.filter((r) => r.value !== NO_OUTPUT).map((r) => r.value);
    if (values.length) {
      if (socket.kind === "greedyVariadic") {
        greedyTaken = true;
        consumed[socket.name] = [values[0]];
      } else if (socket.kind === "lazyVariadic") {
        consumed[socket.name] = socket.autoVariadic ? values.flatMap((v) => (Array.isArray(v) ? v : [v])) : values;
      } else consumed[socket.name] = values[0];
    }
    inputs.set(
      socket.name,
      greedyTaken ? [] : records.filter((r) => r.sender === null),
    );
    if (!(socket.name in consumed) && !socket.mandatory) {
      consumed[socket.name] = socket.kind === "normal" || socket.autoVariadic ? socket.default : [socket.default];
    }
  }
  return consumed;
}

/** Writes a sender's outputs into its receivers' sockets; a declared output it did not produce writes NO_OUTPUT. */
export function deliver(value: unknown, receiverSocket: InputSocket, sender: string, records: InputRecord[] | undefined): InputRecord[] {
  // Variadic sockets queue values in arrival order; a greedy one takes the first (Haystack's `_write_component_outputs`).
  if (receiverSocket.kind !== "normal") return [...(records ?? []), { sender, value }];
  // A normal socket keeps its real value when a later sender only says it ran.
  if (records && records.length && value === NO_OUTPUT) return records;
  return [{ sender, value }];
}
