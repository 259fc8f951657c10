/**
 * @module Running a component held by another one (a QueryExpander's chat generator, a
 * MultiQueryTextRetriever's retriever, a ComponentTool's component) the way a pipeline would: its
 * optional inputs filled with their defaults, only inputs it has passed, warmed up first.
 */
import * as v from "valibot";
import { NOOP_TRACER } from "svc/plugin";
import type { Component, ComponentContext, Outputs } from "../component.js";

/** Duck-typed: a component from another copy of the engine module still qualifies. */
export const isComponent = (x: unknown): x is Component =>
  !!x && typeof x === "object" && typeof (x as Component).run === "function" && typeof (x as Component).inputSockets === "object";

/** An init parameter holding a component (YAML: a nested `{type, init_parameters}`). */
export const componentParameter = (what: string) => v.custom<Component>(isComponent, `${what} must be a component instance (YAML: a nested {type, init_parameters})`);

export async function runNested(component: Component, inputs: Record<string, unknown>, parent: Partial<ComponentContext> & { name: string }): Promise<Outputs> {
  const sockets = component.inputSockets;
  const unknown = Object.keys(inputs).filter((k) => !(k in sockets));
  if (unknown.length) throw new Error(`${component.type} has no input ${unknown.map((k) => `'${k}'`).join(", ")}. Its inputs: ${Object.keys(sockets).join(", ")}.`);
  const full: Record<string, unknown> = Object.fromEntries(Object.values(sockets).filter((s) => !s.mandatory).map((s) => [s.name, s.default]));
  Object.assign(full, inputs);
  const missing = Object.values(sockets).filter((s) => s.mandatory && full[s.name] === undefined).map((s) => s.name);
  if (missing.length) throw new Error(`${component.type} is missing the mandatory input ${missing.map((k) => `'${k}'`).join(", ")}.`);
  await component.warmUp?.();
  const ctx: ComponentContext = {
    name: parent.name,
    signal: parent.signal ?? new AbortController().signal,
    tracer: parent.tracer ?? NOOP_TRACER,
    ...(parent.span ? { span: parent.span } : {}),
    ...(parent.log ? { log: parent.log } : {}),
  };
  return component.run(full, ctx);
}
