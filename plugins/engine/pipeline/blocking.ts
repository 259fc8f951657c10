/**
 * @module Haystack's diagnosis of a pipeline that stopped without producing any of its outputs
 * (`_is_pipeline_possibly_blocked`, `_find_components_blocking_pipeline`): the components most
 * likely waiting on inputs that will never arrive are named in a warning, as Haystack logs it.
 */
import type { Logger } from "svc/plugin";
import type { Pipeline } from "./pipeline.js";
import type { Inputs, Node } from "./run-state.js";
import { byRankThenName } from "./topology.js";

/** The class name of a dotted type string, as Haystack names types in messages. */
export const shortType = (type: string) => type.slice(type.lastIndexOf(".") + 1);

/** Whether none of the pipeline's open outputs was produced (a pipeline without outputs is never blocked). */
export function isPossiblyBlocked(pipeline: Pipeline, result: Record<string, unknown>): boolean {
  const expected = Object.keys(pipeline.outputs());
  return expected.length > 0 && !expected.some((name) => name in result);
}

/**
 * The blocked components that still hold inputs (all of them if none does), keeping those run the
 * fewest times; several are ordered topologically, then by name.
 */
export function findBlockingComponents(nodes: ReadonlyMap<string, Node>, state: ReadonlyMap<string, Inputs>, ranks: ReadonlyMap<string, number>): Node[] {
  const all = [...nodes.values()];
  const withInputs = all.filter((n) => [...state.get(n.name)!.values()].some((records) => records.length > 0));
  const candidates = withInputs.length ? withInputs : all;
  const fewest = Math.min(...candidates.map((n) => n.visits));
  const blocking = candidates.filter((n) => n.visits === fewest);
  return blocking.sort(byRankThenName(ranks));
}

export function warnBlocked(log: Logger | undefined, blocking: readonly Node[]): void {
  if (!log || blocking.length === 0) return;
  const details = blocking.map((n) => `  - '${n.name}' (${shortType(n.component.type)})`).join("\n");
  log.warn(
    "Cannot run pipeline - the pipeline appears to be blocked.\nThe following components could not be run and may be waiting on inputs that will never arrive:\n" +
      details +
      "\nNote that some of these components may be intentionally inactive due to conditional branching. If this is unexpected, check the connections to these components and ensure all required inputs are provided.",
    { component_names: blocking.map((n) => n.name), component_types: blocking.map((n) => shortType(n.component.type)) },
  );
}

/** Haystack warns when a component returns keys it did not declare: downstream components never see them. */
export function warnUndeclaredOutputs(log: Logger | undefined, node: Node, outputs: Record<string, unknown>): void {
  const declared = Object.keys(node.component.outputSockets);
  if (!log || declared.length === 0) return;
  const extra = Object.keys(outputs).filter((k) => !declared.includes(k));
  if (extra.length === 0) return;
  log.warn(
    `Component '${node.name}' (type: ${shortType(node.component.type)}) returned output keys {${extra.map((k) => `'${k}'`).join(", ")}} that are not declared in its output types. These keys will be ignored and not passed to downstream components. Make sure the component's output keys match its declared output types.`,
  );
}
