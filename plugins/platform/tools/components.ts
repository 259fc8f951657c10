/**
 * @module Component schemas: the families of components, one component's full definition
 * (init parameters, inputs, outputs), a search over them (BM25 on title and description), the
 * organisation's custom components, and running one component on the platform.
 */
import * as v from "valibot";
import { ToolError } from "svc/object-store";
import type { PlatformClient } from "../client/platform-client.js";
import type { BaseTool } from "../tool-config.js";
import { clientOf, integer, objectArg, orFail, text } from "./common.js";
import { rankByBm25, words } from "./rank.js";

type Schema = Record<string, any>;

/** GET v1/haystack/components (the platform wants the domain as a JSON body, even on GET). */
async function componentSchemas(client: PlatformClient, signal?: AbortSignal): Promise<Record<string, Schema>> {
  const body = await client.requestJson("v1/haystack/components", { body: { domain: "deepset-cloud" }, signal });
  const components = body?.component_schema?.definitions?.Components;
  return components && typeof components === "object" ? components : {};
}

const typeOf = (schema: Schema): string | undefined => schema?.properties?.type?.const;

export const listComponentFamilies: BaseTool = {
  name: "list_component_families",
  description: "Lists the families of pipeline components (for example converters, embedders, generators, retrievers) with a description of each. Use it to find what kind of component a pipeline needs.",
  parameters: {},
  async run(args) {
    const schemas = await orFail(() => componentSchemas(clientOf(args), args.signal), "Failed to retrieve component families");
    const families = new Map<string, string>();
    for (const schema of Object.values(schemas)) {
      const family = schema?.properties?.type?.family;
      if (family && !families.has(family)) families.set(family, schema?.properties?.type?.family_description ?? "");
    }
    if (families.size === 0) throw new ToolError("No component families found in the response");
    const list = [...families].map(([name, description]) => ({ name, description })).sort((a, b) => a.name.localeCompare(b.name));
    return { families: list, total_count: list.length };
  },
};

export const getComponentDefinition: BaseTool = {
  name: "get_component_definition",
  description: `Fetches the full definition of one component type: description, family, init parameters (name, type, default, required), input and output schema.
Give the fully qualified type, e.g. \`haystack.components.builders.prompt_builder.PromptBuilder\`.`,
  parameters: { component_type: text("Fully qualified component type.") },
  async run(args) {
    const client = clientOf(args);
    const type = args.component_type as string;
    const schemas = await orFail(() => componentSchemas(client, args.signal), "Failed to retrieve component definition");
    const schema = Object.values(schemas).find((s) => typeOf(s) === type);
    if (!schema) throw new ToolError(`Component not found: ${type}`);
    return definition(client, type, schema, args.signal);
  },
};

export const getCustomComponents: BaseTool = {
  name: "get_custom_components",
  description: "Lists the custom components installed in the organisation, with their definitions (init parameters, inputs, outputs) and package versions.",
  parameters: {},
  async run(args) {
    const client = clientOf(args);
    const schemas = await orFail(() => componentSchemas(client, args.signal), "Error retrieving component schemas");
    const custom = Object.values(schemas).filter((s) => s?.package_version && typeOf(s));
    if (custom.length === 0) throw new ToolError("No custom components found.");
    const components = await Promise.all(custom.map((s) => definition(client, typeOf(s)!, s, args.signal)));
    return { components, total_count: components.length };
  },
};

export const searchComponentDefinitions: BaseTool = {
  name: "search_component_definitions",
  description: `Searches the component definitions by title, description, type and family for the components that fit a need (e.g. "split documents", "rank by relevance", "call an LLM"), best first, with a relevance score and each component's full definition (init parameters, inputs, outputs).
Returns {results: [{component, similarity_score}], query, total_found}; components sharing no word with the query are left out.`,
  parameters: {
    query: v.pipe(v.string(), v.minLength(1), v.description("What the component should do.")),
    top_k: integer("Maximum number of components to return.", 5, 1, 50),
  },
  async run(args) {
    const client = clientOf(args);
    const schemas = await orFail(() => componentSchemas(client, args.signal), "Failed to retrieve component schemas");
    const candidates = Object.values(schemas).filter((s) => typeOf(s));
    const textOf = (s: Schema) => `${s.title ?? ""} ${s.description ?? ""} ${words(typeOf(s)!)} ${s?.properties?.type?.family ?? ""}`;
    const ranked = await rankByBm25(candidates, textOf, args.query as string, args.top_k as number);
    const results = await Promise.all(ranked.map(async ({ item, score }) => ({ component: await definition(client, typeOf(item)!, item, args.signal), similarity_score: score })));
    return { results, query: args.query, total_found: results.length };
  },
};


export const runComponent: BaseTool = {
  name: "run_component",
  description: `Runs one component on the platform with the given init parameters and inputs, and returns its outputs by output socket name: a quick way to try a component (a prompt template, a converter) before putting it into a pipeline.
Give the fully qualified type, e.g. \`haystack.components.builders.prompt_builder.PromptBuilder\`; get_component_definition lists its init parameters and inputs.`,
  parameters: {
    component_type: text("Fully qualified component type."),
    init_params: objectArg("Init parameters of the component."),
    input_data: objectArg("Inputs of the component's run, by input socket name."),
    input_types: v.optional(
      v.pipe(v.record(v.string(), v.string()), v.description("Types of the inputs where they cannot be inferred, by input name; custom types by full import path (e.g. haystack.dataclasses.document.Document).")),
    ),
  },
  async run(args) {
    const body = {
      component_type: args.component_type,
      init_params: args.init_params ?? {},
      input: args.input_data ?? {},
      ...(args.input_types !== undefined ? { input_types: args.input_types } : {}),
    };
    const out = await orFail(() => clientOf(args).post("v1/haystack/components/run", body, { signal: args.signal }), "Failed to run component");
    return out ?? {};
  },
};

async function definition(client: PlatformClient, type: string, schema: Schema, signal?: AbortSignal): Promise<Record<string, unknown>> {
  const props = schema?.properties?.init_parameters?.properties ?? {};
  const required: string[] = schema?.properties?.init_parameters?.required ?? [];
  const out: Record<string, unknown> = {
    component_type: type,
    title: schema.title ?? type.split(".").pop(),
    description: schema.description ?? "",
    family: schema?.properties?.type?.family ?? null,
    family_description: schema?.properties?.type?.family_description ?? null,
    init_parameters: Object.entries(props).map(([name, p]: [string, any]) => ({
      name,
      annotation: p?._annotation ?? p?.type ?? null,
      description: p?.description ?? "",
      default: p?.default ?? null,
      required: required.includes(name),
    })),
    is_custom: Boolean(schema.package_version),
    ...(schema.package_version ? { package_version: schema.package_version } : {}),
    dynamic_params: Boolean(schema.dynamic_params),
  };
  try {
    const io = await client.get<any[]>("v1/haystack/components/input-output", { domain: "deepset-cloud", names: type }, { signal });
    const match = Array.isArray(io) ? io.find((x) => x?.name === type) : undefined;
    if (match) {
      out.input_schema = match.input ?? null;
      out.output_schema = match.output ?? null;
    } else out.error_message = `Failed to fetch input/output schema: no schema for ${type}`;
  } catch (error) {
    out.error_message = `Failed to fetch input/output schema: ${(error as Error).message}`;
  }
  return out;
}
