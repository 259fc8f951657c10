/**
 * @module YAML deploys: the `yaml` deploy source. The YAML's `inputs` map request fields to one or
 * more `component.socket` targets (a value fans out to all of them) and `outputs` map result names
 * to sockets. The run answers as Hayhooks does, with the raw pipeline output keyed by component
 * (the components named in `outputs` are included whole), or with `SERVICE_YAML_RESULT_SHAPE=outputs`
 * keyed by the declared output names. Every declared input is required; a target claimed by two
 * inputs is an error. Documents, ByteStreams and ChatMessages are taken as JSON (wire-schemas.ts).
 * An input whose target takes ByteStreams (`sources`) is filled from uploaded files (yaml-uploads.ts).
 */
import * as v from "valibot";
import { HttpError, messageOf, type DeploySourceRequest, type LoadedPipeline, type RunContext, type Tracer } from "svc/plugin";
import { PipelineError } from "./pipeline/errors.js";
import type { Pipeline } from "./pipeline/pipeline.js";
import type { EngineRegistry } from "./registry.js";
import { parseYaml, pipelineFromDocument, readPipelineDocument } from "./yaml.js";
import { filesOrJson, takesFiles, uploadsSchema } from "./yaml-uploads.js";
import { ByteStreamJson, wireSchema } from "./wire-schemas.js";

const IoSpec = v.object({
  inputs: v.optional(v.nullable(v.record(v.string(), v.union([v.string(), v.array(v.string())])))),
  outputs: v.optional(v.nullable(v.record(v.string(), v.union([v.string(), v.array(v.string())])))),
});

/** `hayhooks` (the default): the raw output keyed by component; `outputs`: keyed by the declared output names. */
export type YamlResultShape = "outputs" | "hayhooks";

interface Target {
  component: string;
  socket: string;
}

// A YAML that cannot load is well-formed request content that cannot be processed: 422, as Hayhooks.
const bad = (message: string, cause?: unknown) => new HttpError(422, message, { cause });

function targetOf(pipeline: Pipeline, path: string, what: string): Target {
  const [component, socket] = [path.slice(0, path.indexOf(".")), path.slice(path.indexOf(".") + 1)];
  if (!pipeline.componentNames.includes(component)) throw bad(`${what} '${path}' names no component of the pipeline.`);
  return { component, socket };
}

/** The YAML pipeline as a deployed pipeline's runtime object. */
export class YamlPipeline {
  constructor(
    readonly pipeline: Pipeline,
    private readonly inputs: ReadonlyMap<string, Target[]>,
    private readonly outputs: ReadonlyMap<string, Target>,
    private readonly tracer: Tracer,
    private readonly resultShape: YamlResultShape = "hayhooks",
    /** The declared input that uploaded files feed, if any. */
    private readonly filesInput?: string,
  ) {}

  async runApi(input: Record<string, unknown>, ctx: RunContext): Promise<unknown> {
    const data: Record<string, Record<string, unknown>> = {};
    for (const [name, targets] of this.inputs) {
      const value = name === this.filesInput ? filesOrJson(name, ctx.files, input[name]) : input[name];
      for (const t of targets) (data[t.component] ??= {})[t.socket] = value;
    }
    const includeOutputsFrom = new Set([...this.outputs.values()].map((t) => t.component));
    const result = await this.pipeline.run(data, { includeOutputsFrom, signal: ctx.signal, tracer: this.tracer, parentSpan: ctx.span }).catch((error: unknown) => {
      throw httpCause(error) ?? error;
    });
    if (this.outputs.size === 0 || this.resultShape === "hayhooks") return result;
    return Object.fromEntries([...this.outputs].map(([name, t]) => [name, result[t.component]?.[t.socket] ?? null]));
  }
}

export function loadYamlDeploy(
  request: DeploySourceRequest,
  registry: EngineRegistry,
  tracer: Tracer,
  resultShape: YamlResultShape = "hayhooks",
  maxEntries?: number,
  unsafe = false,
): LoadedPipeline {
  const { source } = request.payload as { source: string };
  let doc;
  let io;
  let pipeline: Pipeline;
  try {
    const data = parseYaml(source, maxEntries);
    doc = readPipelineDocument(data);
    const parsedIo = v.safeParse(IoSpec, data);
    if (!parsedIo.success) throw new PipelineError(`Invalid inputs/outputs: ${parsedIo.issues.map((i) => i.message).join("; ")}`);
    io = parsedIo.output;
    pipeline = pipelineFromDocument(doc, registry, { unsafe });
  } catch (error) {
    // Too large (413) is not a matter of content.
    if (error instanceof HttpError && error.status === 413) throw error;
    throw bad(`Invalid YAML pipeline '${request.name}': ${messageOf(error)}`, error);
  }
  const declaredInputs = Object.entries(io.inputs ?? {});
  const declaredOutputs = Object.entries(io.outputs ?? {});
  if (declaredInputs.length === 0 && declaredOutputs.length === 0) throw bad("YAML pipeline must declare at least one of 'inputs' or 'outputs'.");

  const inputs = new Map<string, Target[]>();
  const claimed = new Map<string, string>();
  const entries: Record<string, v.GenericSchema> = {};
  let filesInput: string | undefined;
  for (const [name, spec] of declaredInputs) {
    const paths = [...new Set((Array.isArray(spec) ? spec : [spec]).filter((p) => p.includes(".")))];
    const targets = paths.map((p) => targetOf(pipeline, p, `Input '${name}' target`));
    for (const p of paths) {
      const owner = claimed.get(p);
      if (owner !== undefined) {
        throw bad(`Declared input '${name}' targets '${p}'; '${p}' already targeted by declared input '${owner}'. Each pipeline input target may be declared only once.`);
      }
      claimed.set(p, name);
    }
    const first = targets[0];
    const socket = first ? pipeline.getComponent(first.component).inputSockets[first.socket] : undefined;
    if (first && !socket) throw bad(`Input '${name}' target '${first.component}.${first.socket}' is not an input of '${first.component}'.`);
    const connected = first && socket?.kind === "normal" && pipeline.sendersOf(first.component, first.socket).length > 0;
    if (!connected && takesFiles(socket)) {
      if (filesInput !== undefined) throw bad(`Declared inputs '${filesInput}' and '${name}' both take files; uploads can feed only one input (give it several targets instead).`);
      filesInput = name;
      entries.files = uploadsSchema(name, paths);
      // ByteStreams only: a path would read a file on the server.
      entries[name] = v.pipe(v.optional(v.array(ByteStreamJson)), v.description(`Parameter '${name}': ByteStreams as JSON (Haystack's to_dict form), instead of uploaded files`));
      inputs.set(name, targets);
      continue;
    }
    const base = socket?.schema && !connected ? wireSchema(socket.schema) : v.custom<unknown>((x) => x !== undefined, "a value is required");
    // Hayhooks' wording for a field nothing documents.
    entries[name] = v.pipe(base, v.description(`Parameter '${name}'`));
    inputs.set(name, targets);
  }

  const outputs = new Map<string, Target>();
  const outputEntries: Record<string, v.GenericSchema> = {};
  for (const [name, spec] of declaredOutputs) {
    const path = (Array.isArray(spec) ? spec : [spec]).find((p) => p.includes("."));
    if (!path) continue;
    const target = targetOf(pipeline, path, `Output '${name}'`);
    const socket = pipeline.getComponent(target.component).outputSockets[target.socket];
    if (!socket) throw bad(`Output '${name}' names '${path}', which is not an output of '${target.component}'.`);
    outputs.set(name, target);
    outputEntries[name] = socket.schema ?? v.unknown();
  }

  return {
    description: request.description ?? (typeof doc.metadata?.description === "string" ? doc.metadata.description : request.name),
    wrapper: new YamlPipeline(pipeline, inputs, outputs, tracer, resultShape, filesInput),
    capabilities: { api: true, chat: false, response: false },
    inputSchema: v.object(entries),
    // The raw shape depends on which components leave outputs unconsumed: not described.
    outputSchema: outputs.size && resultShape === "outputs" ? v.object(outputEntries) : undefined,
    skipMcp: false,
    requiresFiles: filesInput !== undefined,
    filesAsJson: filesInput !== undefined,
  };
}

/**
 * A component that failed with an HttpError (a document store whose database is down: 503) is
 * answered with that status and message, the component named, instead of a 500.
 */
function httpCause(error: unknown): HttpError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof HttpError) {
      const component = (error as { componentName?: unknown }).componentName;
      return e === error || typeof component !== "string" ? e : new HttpError(e.status, `Component '${component}' failed: ${e.message}`, { cause: error, headers: e.headers });
    }
  }
  return undefined;
}
