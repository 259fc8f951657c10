/**
 * @module The run state of one pipeline run and Haystack 2.x's readiness rules over it. Each
 * input socket holds a list of `{sender, value}` records: `sender` null for user input, `value`
 * possibly NO_OUTPUT, the marker a sender writes for a declared output it did not produce (a
 * router's branch not taken), so receivers know the sender ran.
 */
import type { Component, InputSocket } from "../component.js";
import type { Edge } from "./connections.js";

export const NO_OUTPUT: unique symbol = Symbol("svc.engine.noOutputProduced");

export interface InputRecord {
  readonly sender: string | null;
  readonly value: unknown;
}

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

export type Inputs = Map<string, InputRecord[]>;

const hasValue = (records: readonly InputRecord[]) => records.some((r) => r.value !== NO_OUTPUT);

function socketPredecessorsExecuted(node: Node, socket: InputSocket, records: readonly InputRecord[]): boolean {
  const expected = node.senders.get(socket.name) ?? [];
  const executed = new Set(records.flatMap((r) => (r.sender === null ? [] : [r.sender])));
  return expected.every((s) => executed.has(s));
}

function socketReceivedAll(node: Node, socket: InputSocket, records: readonly InputRecord[]): boolean {
  if (records.length === 0) return false;
  if (socket.kind === "greedyVariadic") return hasValue(records);
  if (socket.kind === "normal") return records[0]!.value !== NO_OUTPUT;
  return socketPredecessorsExecuted(node, socket, records) && hasValue(records);
}

/** Haystack's `are_all_sockets_ready`: the mandatory sockets, or else those and every socket with a sender. */
function socketsReady(node: Node, inputs: Inputs, onlyMandatory: boolean): boolean {
  return node.sockets
    .filter((s) => s.mandatory || (!onlyMandatory && (node.senders.get(s.name) ?? []).length > 0))
    .every((s) => {
      const records = inputs.get(s.name) ?? [];
      return socketReceivedAll(node, s, records) || (s.kind === "lazyVariadic" && hasValue(records));
    });
}

function hasTrigger(node: Node, inputs: Inputs): boolean {
  let fromPredecessor = false;
  let fromUser = false;
  for (const records of inputs.values()) {
    for (const r of records) {
      if (r.sender !== null && r.value !== NO_OUTPUT) fromPredecessor = true;
      if (r.sender === null) fromUser = true;
    }
  }
  if (fromPredecessor) return true;
  if (node.visits > 0) return false;
  return fromUser || [...node.senders.values()].every((s) => s.length === 0);
}

export function canRun(node: Node, inputs: Inputs): boolean {
  return socketsReady(node, inputs, true) && hasTrigger(node, inputs);
}

export function priorityOf(node: Node, inputs: Inputs): Priority {
  if (!canRun(node, inputs)) return Priority.BLOCKED;
  const greedyReady = node.sockets.some((s) => s.kind === "greedyVariadic" && socketReceivedAll(node, s, inputs.get(s.name) ?? []));
  // A greedy socket runs at once only when every socket with a sender is filled too (an optional
  // input still on its way defers it).
  if (greedyReady && socketsReady(node, inputs, false)) return Priority.HIGHEST;
  if (node.sockets.every((s) => socketPredecessorsExecuted(node, s, inputs.get(s.name) ?? []))) return Priority.READY;
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
