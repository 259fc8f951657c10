/**
 * @module Resolving `connect("a.out", "b.in")` as Haystack does: either socket name may be left out;
 * among candidate pairs, strictly compatible ones beat convertible ones, then equal socket names
 * decide; a second sender turns a list socket into a lazy variadic one, anything else is an error.
 */
import type { Component, InputSocket, OutputSocket } from "../component.js";
import { PipelineConnectError } from "./errors.js";
import { conversionFor, strictlyCompatible, typeName, type Conversion } from "../type-ref.js";

export interface Edge {
  readonly sender: string;
  readonly senderSocket: string;
  readonly receiver: string;
  readonly receiverSocket: string;
  /** Applied to each value crossing the edge (smart connections). */
  readonly conversion?: Conversion[];
}

export function parseEndpoint(text: string): { component: string; socket?: string } {
  const dot = text.indexOf(".");
  return dot < 0 ? { component: text } : { component: text.slice(0, dot), socket: text.slice(dot + 1) };
}

const describe = (sockets: Record<string, InputSocket | OutputSocket>) =>
  Object.values(sockets)
    .map((s) => `${s.name}: ${typeName(s.type)}`)
    .join(", ") || "none";
/** Haystack's socket list in "does not exist" errors: `name (type T)`. */
const listSockets = (sockets: Record<string, InputSocket | OutputSocket>) =>
  Object.values(sockets)
    .map((s) => `${s.name} (type ${typeName(s.type)})`)
    .join(", ");

interface Candidate {
  out: OutputSocket;
  in: InputSocket;
  conversion?: Conversion[];
}

export function resolveEdge(
  senderName: string,
  sender: Component,
  senderSocket: string | undefined,
  receiverName: string,
  receiver: Component,
  receiverSocket: string | undefined,
  validateTypes: boolean,
): Candidate {
  if (senderName === receiverName) throw new PipelineConnectError(`Connecting a Component to itself is not supported.`);
  const outs = sender.outputSockets;
  const ins = receiver.inputSockets;
  if (Object.keys(outs).length === 0) {
    throw new PipelineConnectError(
      `'${senderName}' does not have any output connections. Please check that the output types of '${senderName}.run' are set, for example by using the '@component.output_types' decorator.`,
    );
  }
  if (senderSocket !== undefined && !outs[senderSocket]) {
    throw new PipelineConnectError(`'${senderName}.${senderSocket}' does not exist. Output connections of ${senderName} are: ${listSockets(outs)}`);
  }
  // Haystack's receiver message lacks the closing quote; kept, so both read the same.
  if (receiverSocket !== undefined && !ins[receiverSocket]) {
    throw new PipelineConnectError(`'${receiverName}.${receiverSocket} does not exist. Input connections of ${receiverName} are: ${listSockets(ins)}`);
  }
  const senders = senderSocket !== undefined ? [outs[senderSocket]!] : Object.values(outs);
  const receivers = receiverSocket !== undefined ? [ins[receiverSocket]!] : Object.values(ins);
  const strict: Candidate[] = [];
  const convertible: Candidate[] = [];
  for (const out of senders) {
    for (const input of receivers) {
      if (!validateTypes || strictlyCompatible(out.type, input.type)) strict.push({ out, in: input });
      else {
        const conversion = conversionFor(out.type, input.type);
        if (conversion) convertible.push({ out, in: input, conversion });
      }
    }
  }
  const pool = strict.length ? strict : convertible;
  if (pool.length === 0) {
    const detail =
      senderSocket !== undefined && receiverSocket !== undefined
        ? `'${senderName}.${senderSocket}': ${typeName(outs[senderSocket]!.type)} and '${receiverName}.${receiverSocket}': ${typeName(ins[receiverSocket]!.type)} are not compatible.`
        : `Cannot connect '${senderName}' with '${receiverName}': no matching connections available.\n'${senderName}':\n - ${describe(outs)}\n'${receiverName}':\n - ${describe(ins)}`;
    throw new PipelineConnectError(detail.startsWith("Cannot") ? detail : `Cannot connect '${senderName}.${senderSocket}' with '${receiverName}.${receiverSocket}': ${detail}`);
  }
  if (pool.length === 1) return pool[0]!;
  const sameName = pool.filter((c) => c.out.name === c.in.name);
  if (sameName.length === 1) return sameName[0]!;
  throw new PipelineConnectError(
    `Cannot connect '${senderName}' with '${receiverName}': more than one connection is possible between these components. Please specify the connection name, like: pipeline.connect('${senderName}.${pool[0]!.out.name}', '${receiverName}.${pool[0]!.in.name}').`,
  );
}

/** Whether a type is list-like, so a second sender can turn the socket into a lazy variadic one. */
export function isListLike(socket: InputSocket): boolean {
  const t = socket.type;
  if (t.kind === "list") return true;
  if (t.kind === "union") return t.members.every((m) => m.kind === "list" || m.kind === "null") && t.members.some((m) => m.kind === "list");
  return false;
}

/**
 * Haystack's `_make_socket_auto_variadic`: a socket that already has a sender takes a second one
 * (or user input besides its sender) only when its type is a list, an optional list or a union of
 * lists; it then collects from all of them, lists concatenated one level.
 */
export function makeAutoVariadic(component: string, socket: InputSocket, firstSender: string, error: new (message: string) => Error): void {
  if (socket.kind !== "normal") return;
  if (!isListLike(socket)) {
    throw new error(
      `Component '${component}' cannot accept multiple inputs to '${socket.name}'. It is already connected to component '${firstSender}', and it can only accept inputs from multiple senders if its type is list, Optional[list], or union of list types.`,
    );
  }
  socket.kind = "lazyVariadic";
  socket.autoVariadic = true;
}

/** Undoes makeAutoVariadic when a socket is left with one sender (Haystack's `remove_component`). */
export function unmakeAutoVariadic(socket: InputSocket): void {
  socket.kind = "normal";
  socket.autoVariadic = false;
}
