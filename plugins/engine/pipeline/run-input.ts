/**
 * @module Checking run data and placing it in the run state. Data is keyed by component
 * (`{llm: {messages}}`) or flat (`{query}`), recognised by its keys: when every key names a
 * component and every value is an object, it is by component. A flat key goes to every component
 * with an open (unconnected or variadic) socket of that name. Each component gets its own deep copy
 * of what it is given (Haystack's `_prepare_component_input_data`).
 */
import type { Logger } from "svc/plugin";
import type { Inputs, Node } from "./run-state.js";
import { PipelineInputError } from "./errors.js";
import type { Pipeline } from "./pipeline.js";
import { makeAutoVariadic } from "./connections.js";
import { deepCopy } from "./copy.js";

const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype;

/**
 * Run data by component: a copy when it already is, else each flat key sent to every component
 * with an open socket of that name. The caller's objects are never mutated.
 */
export function inputsByComponent(pipeline: Pipeline, data: Record<string, unknown>, log?: Logger): Record<string, Record<string, unknown>> {
  const names = new Set(pipeline.componentNames);
  const entries = Object.entries(data);
  if (entries.length > 0 && entries.every(([k, v]) => names.has(k) && isPlainObject(v))) {
    return Object.fromEntries(entries.map(([k, v]) => [k, Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([n, x]) => [n, deepCopy(x)]))]));
  }
  const perComponent: Record<string, Record<string, unknown>> = {};
  const open = pipeline.inputs();
  for (const [key, value] of entries) {
    for (const [component, sockets] of Object.entries(open)) {
      if (key in sockets) (perComponent[component] ??= {})[key] = deepCopy(value);
    }
  }
  // Haystack warns about flat keys no component takes: most often a typo in a run parameter.
  const unmatched = entries.map(([key]) => key).filter((key) => !Object.values(perComponent).some((sockets) => key in sockets));
  if (unmatched.length) log?.warn(`Inputs [${unmatched.map((k) => `'${k}'`).join(", ")}] were not matched to any component inputs, please check your run parameters.`);
  return perComponent;
}

/**
 * Haystack's `validate_input` and `_convert_to_internal_format`; answers the data by component. User input for a socket that
 * also has a sender makes that socket (this run's copy of it) lazy variadic, so the user's value
 * and the senders' are joined; a socket that cannot be is an error.
 */
export function distributeInput(pipeline: Pipeline, nodes: ReadonlyMap<string, Node>, data: Record<string, unknown>, state: Map<string, Inputs>, log?: Logger): Record<string, Record<string, unknown>> {
  const perComponent = inputsByComponent(pipeline, data, log);
  for (const [component, sockets] of Object.entries(perComponent)) {
    const node = nodes.get(component);
    if (!node) throw new PipelineInputError(`Component named '${component}' not found in the pipeline.`);
    for (const socketName of Object.keys(sockets)) {
      if (!node.sockets.some((s) => s.name === socketName)) throw new PipelineInputError(`Input '${socketName}' not found in component '${component}'.`);
    }
  }
  for (const [component, sockets] of Object.entries(perComponent)) {
    const node = nodes.get(component)!;
    for (const [socketName, value] of Object.entries(sockets)) {
      const socket = node.sockets.find((s) => s.name === socketName)!;
      const senders = node.senders.get(socketName) ?? [];
      if (senders.length) makeAutoVariadic(component, socket, senders[0]!, PipelineInputError);
      state.get(component)!.set(socketName, [{ sender: null, value }]);
    }
  }
  for (const node of nodes.values()) {
    for (const socket of node.sockets) {
      if (socket.mandatory && (node.senders.get(socket.name) ?? []).length === 0 && !state.get(node.name)!.has(socket.name)) {
        throw new PipelineInputError(`Missing mandatory input '${socket.name}' for component '${node.name}'.`);
      }
    }
  }
  return perComponent;
}
