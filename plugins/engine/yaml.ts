/**
 * @module Haystack's YAML pipeline format: `components` ({type, init_parameters}), `connections`,
 * `metadata`, `max_runs_per_component`, `connection_type_validation`. Parsing is safe: only the
 * python/tuple tag is known, any other tag is an error, alias expansion is bounded; components,
 * nested objects and secrets come only from the registry.
 */
import * as v from "valibot";
import YAML, { type Tags } from "yaml";
import { DEFAULT_MAX_YAML_ENTRIES, HttpError, formatIssues, messageOf, parseYamlText } from "svc/plugin";
import { Secret } from "./dataclasses/secret.js";
import { PipelineError } from "./pipeline/errors.js";
import { Pipeline } from "./pipeline/pipeline.js";
import type { EngineRegistry } from "./registry.js";
import { rememberCallableName } from "./callable-names.js";
import { isSerializedTool, toolFromDict } from "./tool-serde.js";
import { flattenTools, Toolset, type ToolsType } from "./toolset.js";

const tupleTag: Tags[number] = {
  tag: "tag:yaml.org,2002:python/tuple",
  collection: "seq",
  default: false,
};

const PipelineYaml = v.looseObject({
  components: v.optional(v.record(v.string(), v.object({ type: v.string(), init_parameters: v.optional(v.nullable(v.record(v.string(), v.unknown()))) })), {}),
  connections: v.optional(v.array(v.object({ sender: v.string(), receiver: v.string() })), []),
  metadata: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
  max_runs_per_component: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 100),
  connection_type_validation: v.optional(v.boolean(), true),
});
export type PipelineDocument = v.InferOutput<typeof PipelineYaml>;

/**
 * Parses YAML text safely, in time linear in its size; errors carry line and column. More than
 * `maxEntries` keys and list items is a 413 (HttpError), any other problem a PipelineError.
 */
export function parseYaml(text: string, maxEntries = DEFAULT_MAX_YAML_ENTRIES): unknown {
  try {
    return parseYamlText(text, { customTags: [tupleTag], maxEntries });
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new PipelineError((error as Error).message);
  }
}

export function readPipelineDocument(data: unknown): PipelineDocument {
  const result = v.safeParse(PipelineYaml, data ?? {});
  if (!result.success) throw new PipelineError(`Invalid pipeline definition: ${formatIssues(result.issues)}`);
  return result.output;
}

/**
 * A Toolset loads as a Toolset (Haystack keeps it, so an Agent dumps it back as one). Components
 * that do not declare `acceptsToolsets` (chat generators: a plain list) get its tools instead.
 */
function withToolsetsFor(cls: unknown, init: Record<string, unknown>): Record<string, unknown> {
  if ((cls as { acceptsToolsets?: boolean }).acceptsToolsets || !init || typeof init !== "object") return init;
  const tools = init.tools;
  if (tools instanceof Toolset || (Array.isArray(tools) && tools.some((t) => t instanceof Toolset))) return { ...init, tools: flattenTools(tools as ToolsType) };
  return init;
}

/** Turns serialized init parameters into objects: secrets and registered nested objects. */
function resolveInit(value: unknown, registry: EngineRegistry): unknown {
  if (Array.isArray(value)) return value.map((x) => resolveInit(x, registry));
  if (!value || typeof value !== "object") return value;
  if (Secret.isSerialized(value)) return Secret.fromDict(value);
  const o = value as Record<string, unknown>;
  if (isSerializedTool(o)) return toolFromDict(o, registry, (x) => resolveInit(x, registry));
  if (typeof o.type === "string" && (o.init_parameters === undefined || typeof o.init_parameters === "object")) {
    const init = () => resolveInit(o.init_parameters ?? {}, registry) as Record<string, unknown>;
    // Registered objects written as `{type, data}` (a custom Toolset, as Haystack dumps one) get their data.
    if (registry.objects.has(o.type)) return registry.objects.get(o.type).fromDict(o.init_parameters === undefined && o.data && typeof o.data === "object" ? (resolveInit(o.data, registry) as Record<string, unknown>) : init());
    // A component nested in another's init parameters (an Agent's chat_generator).
    if (registry.components.has(o.type)) {
      const cls = registry.components.get(o.type);
      return new cls(withToolsetsFor(cls, init()));
    }
    // `{type, init_parameters}` with an unregistered type is a typo, not a plain dict: name it.
    if (o.init_parameters !== undefined) throw new Error(registry.components.unknownTypeMessage(o.type));
  }
  return Object.fromEntries(
    Object.entries(o).map(([k, x]) => {
      if (k === "streaming_callback" && typeof x === "string") return [k, callableByName(x, registry)];
      // Jinja custom filters by name (reached only when loading unsafely, see checkSafeLoading).
      if (k === "custom_filters" && x && typeof x === "object") return [k, Object.fromEntries(Object.entries(x).map(([n, f]) => [n, typeof f === "string" ? callableByName(f, registry) : f]))];
      try {
        return [k, resolveInit(x, registry)];
      } catch (error) {
        // Name the parameter holding the broken nested object, in Haystack's words.
        throw new Error(`Failed to deserialize '${k}': ${messageOf(error)}`, { cause: error });
      }
    }),
  );
}

/** A streaming callback named by its import path (Haystack's serialize_callable) from the registry. */
function callableByName(name: string, registry: EngineRegistry): unknown {
  const fn = registry.getFunction(name);
  rememberCallableName(fn, name);
  return fn;
}

export interface LoadOptions {
  /**
   * Haystack's `Pipeline.load(..., unsafe=True)`: components may switch off template sandboxing
   * (`unsafe: true`) and name custom Jinja filters (registered functions). Off: such YAML is refused.
   */
  unsafe?: boolean;
}

/** Builds a pipeline from a parsed definition; an unknown type lists the registered types. */
export function pipelineFromDocument(doc: PipelineDocument, registry: EngineRegistry, options: LoadOptions = {}): Pipeline {
  const pipeline = new Pipeline({
    metadata: doc.metadata ?? {},
    maxRunsPerComponent: doc.max_runs_per_component,
    connectionTypeValidation: doc.connection_type_validation,
  });
  for (const [name, spec] of Object.entries(doc.components)) {
    let cls;
    try {
      cls = registry.components.get(spec.type);
    } catch (error) {
      throw new PipelineError(`Component '${name}': ${messageOf(error)}`);
    }
    if (!options.unsafe) (cls as { checkSafeLoading?: (init: Record<string, unknown>) => void }).checkSafeLoading?.(spec.init_parameters ?? {});
    try {
      pipeline.addComponent(name, new cls(withToolsetsFor(cls, resolveInit(spec.init_parameters ?? {}, registry) as Record<string, unknown>)));
    } catch (error) {
      throw new PipelineError(`Couldn't deserialize component '${name}' of type '${spec.type}': ${messageOf(error)}`, { cause: error });
    }
  }
  for (const { sender, receiver } of doc.connections) pipeline.connect(sender, receiver);
  return pipeline;
}

export function loadPipelineYaml(text: string, registry: EngineRegistry, options: LoadOptions = {}): Pipeline {
  return pipelineFromDocument(readPipelineDocument(parseYaml(text)), registry, options);
}

/** Haystack's dump: sorted keys, canonical type strings, connections in connection order. */
export function dumpPipelineYaml(pipeline: Pipeline): string {
  const components = Object.fromEntries(pipeline.componentNames.map((n) => [n, pipeline.getComponent(n).toDict()]));
  const data = {
    components,
    connection_type_validation: pipeline.connectionTypeValidation,
    connections: pipeline.edges.map((e) => ({ receiver: `${e.receiver}.${e.receiverSocket}`, sender: `${e.sender}.${e.senderSocket}` })),
    max_runs_per_component: pipeline.maxRunsPerComponent,
    metadata: pipeline.metadata,
  };
  return YAML.stringify(data, { sortMapEntries: true, customTags: [tupleTag] });
}
