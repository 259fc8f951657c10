/**
 * @module Decorators that give a tool memory. `explorable` stores every result and returns its
 * preview with the `@obj_<id>` reference instead of the full output; `referenceable` lets every
 * parameter take a reference (`@obj_<id>` or `@obj_<id>.path`) that is resolved to the stored
 * value before the call; `explorableAndReferenceable` does both.
 */
import * as v from "valibot";
import type { ObjectStore } from "svc/plugin";
import { acceptsString, expectedType, fit, quoteValue } from "./coerce.js";
import { Explorer, ExplorerError } from "./explorer.js";
import { isReference } from "./reference.js";
import { typeName } from "./render.js";
import { ToolError, descriptionOf, isErrorResult, type ParameterSchema, type Parameters, type ToolDefinition } from "./tool-definition.js";

export interface MemoryOptions {
  objectStore: ObjectStore;
  /** Defaults to an explorer with the default limits over `objectStore`. */
  explorer?: Explorer;
}

export type ToolDecorator = <C>(tool: ToolDefinition<C>) => ToolDefinition<C>;

const EXPLORABLE_NOTE = [
  "The output is automatically stored and can be referenced in other functions.",
  "Returns a formatted preview with an object ID (e.g., `@obj_123`).",
  "Use the object store tools in combination with the object ID to view nested properties of the object.",
  "Use the returned object ID to pass this result to other functions.",
].join("\n");

export function explorable({ objectStore, explorer = new Explorer(objectStore) }: MemoryOptions): ToolDecorator {
  return (tool) => ({
    ...tool,
    description: `${tool.description.trimEnd()}\n\n${EXPLORABLE_NOTE}`,
    async handler(args, ctx) {
      const result = await tool.handler(args, ctx);
      // A failure is shown as it is: storing an error message would only hide it behind a preview.
      if (isErrorResult(result)) return result;
      const id = await objectStore.put(result);
      return explorer.explore(id);
    },
  });
}

export function referenceable({ objectStore }: MemoryOptions): ToolDecorator {
  return (tool) => {
    const names = Object.keys(tool.parameters);
    const example = names.length ? names : ["data"];
    const note = [
      "All parameters accept object references in the form `@obj_id` or `@obj_id.path.to.value`.",
      `For example: ${example[0]}="@obj_123" or ${example[0]}="@obj_123.items.0".`,
    ].join("\n");
    return {
      ...tool,
      description: `${tool.description.trimEnd()}\n\n${note}`,
      parameters: Object.fromEntries(names.map((name) => [name, admitReference(tool.parameters[name]!)])),
      async handler(args, ctx) {
        const resolved: Record<string, unknown> = { ...args };
        for (const name of names) {
          resolved[name] = await resolveArgument(objectStore, name, tool.parameters[name]!, args[name]);
        }
        return tool.handler(resolved, ctx);
      },
    };
  };
}

export function explorableAndReferenceable(options: MemoryOptions): ToolDecorator {
  const inputs = referenceable(options);
  const outputs = explorable(options);
  return (tool) => outputs(inputs(tool));
}

/** The schema a model sees: the original, or, where it takes no plain string, the original or a string. */
export function admitReference(schema: ParameterSchema): ParameterSchema {
  if (acceptsString(schema)) return schema;
  const s = schema as { type: string; wrapped?: ParameterSchema; default?: unknown };
  const description = descriptionOf(schema);
  const describe = (inner: ParameterSchema): ParameterSchema => (description ? v.pipe(inner, v.description(description)) : inner);
  if (s.type === "optional" || s.type === "nullish") {
    const inner = describe(v.union([s.wrapped!, v.string()]));
    return s.type === "optional" ? v.optional(inner, s.default as never) : v.nullish(inner, s.default as never);
  }
  return describe(v.union([schema, v.string()]));
}

/**
 * Resolves a reference and fits the value to the parameter; errors are SPEC §7's messages, with
 * the original's `Navigation error at <path>:` and `Invalid path <path>:` in front of path failures.
 */
export async function resolveArgument(store: ObjectStore, name: string, schema: ParameterSchema, value: unknown): Promise<unknown> {
  if (isReference(value)) {
    const explorer = new Explorer(store);
    let target;
    try {
      target = await explorer.resolve(value);
    } catch (error) {
      if (!(error instanceof ExplorerError)) throw error;
      throw new ToolError(`Parameter '${name}': ${withPathPrefix(error)}`);
    }
    const fitted = fit(schema, target.value);
    if (!fitted.ok) {
      throw new ToolError(`Parameter '${name}' expects ${expectedType(schema)}, got ${typeName(target.value)} from ${value}.`);
    }
    return fitted.value;
  }
  const fitted = fit(schema, value);
  if (fitted.ok) return fitted.value;
  if (typeof value === "string") {
    throw new ToolError(`Parameter '${name}' expects ${expectedType(schema)}, got string ${quoteValue(value)}. Use '@obj_id' for references.`);
  }
  throw new ToolError(`Parameter '${name}' expects ${expectedType(schema)}, got ${typeName(value)}.`);
}

/** `Navigation error at a.b: …` / `Invalid path a._x: …`, as the original words path failures. */
function withPathPrefix(error: ExplorerError): string {
  if (!error.path) return error.message;
  if (error.path.problem === "absent") return `Navigation error at ${error.path.text}: ${error.message}`;
  return error.message.startsWith("Invalid path") ? error.message : `Invalid path ${error.path.text}: ${error.message}`;
}

export type { Parameters };
