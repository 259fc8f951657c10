/**
 * @module The tags of a run's `haystack.component.run` span, as Haystack writes them: the class name
 * and the dotted type, each input's Python type name, and the component's sockets with their
 * senders and receivers.
 */
import { typeName } from "../type-ref.js";
import type { TypeRef } from "../type-ref.js";
import { shortType } from "./blocking.js";
import type { Pipeline } from "./pipeline.js";
import type { Node } from "./run-state.js";

/** Python's `type(value).__name__` for what a component receives. */
export function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "string") return "str";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "bigint") return "int";
  if (Array.isArray(value)) return "list";
  if (typeof value !== "object") return typeof value;
  const proto = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype ? "dict" : (proto.constructor?.name ?? "object");
}

/** A socket type as Python 3.10+ prints it: an optional type is `X | None`. */
const spanTypeName = (type: TypeRef) => typeName(type).replace(/^Optional\[(.*)\]$/, "$1 | None");

export function componentSpanTags(pipeline: Pipeline, node: Node, inputs: Record<string, unknown>): Record<string, unknown> {
  const { component, name } = node;
  return {
    "haystack.component.name": name,
    "haystack.component.type": shortType(component.type),
    "haystack.component.fully_qualified_type": component.type,
    "haystack.component.input_types": Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, pythonTypeName(v)])),
    "haystack.component.input_spec": Object.fromEntries(
      Object.values(component.inputSockets).map((s) => [s.name, { type: spanTypeName(s.type), senders: pipeline.sendersOf(name, s.name).map((e) => e.sender) }]),
    ),
    "haystack.component.output_spec": Object.fromEntries(
      Object.values(component.outputSockets).map((s) => [s.name, { type: spanTypeName(s.type), receivers: node.receivers.filter((e) => e.senderSocket === s.name).map((e) => e.receiver) }]),
    ),
    "haystack.component.visits": node.visits + 1,
  };
}
