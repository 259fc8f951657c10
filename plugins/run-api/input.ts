/**
 * @module The run input: a JSON object, or for pipelines that take files a multipart form whose
 * fields are converted to what the schema expects (numbers, booleans, JSON objects and arrays).
 */
import * as v from "valibot";
import { HttpError, isForm, parseOr400, type DeployedPipeline, type RequestContext, type UploadedFile } from "svc/plugin";

export interface RunInput {
  readonly input: Record<string, unknown>;
  readonly files: readonly UploadedFile[];
}

/** The files of a JSON body: none, one list for every request. */
const NO_FILES: readonly UploadedFile[] = Object.freeze([]);

type Schema = { type: string; wrapped?: Schema; item?: Schema; entries?: Record<string, Schema> };
const WRAPPERS = new Set(["optional", "nullable", "nullish", "exact_optional", "undefinedable", "non_optional", "non_nullable", "non_nullish"]);

function unwrap(schema: Schema | undefined): Schema | undefined {
  let s = schema;
  while (s && WRAPPERS.has(s.type) && s.wrapped) s = s.wrapped;
  return s;
}

type ParseJson = (text: string) => unknown;

/** One form value as the schema's type wants it. */
function convert(field: string, raw: string, schema: Schema | undefined, parseJson: ParseJson): unknown {
  switch (schema?.type) {
    case "number":
    case "integer": {
      const n = Number(raw);
      return raw.trim() !== "" && Number.isFinite(n) ? n : raw;
    }
    case "boolean": {
      const t = raw.trim().toLowerCase();
      return ["true", "1", "yes", "on"].includes(t) ? true : ["false", "0", "no", "off"].includes(t) ? false : raw;
    }
    case "object":
    case "loose_object":
    case "strict_object":
    case "object_with_rest":
    case "record":
    case "tuple":
    case "array":
      try {
        return parseJson(raw);
      } catch (error) {
        throw new HttpError(400, `Invalid request body: ${field}: expected JSON in the form field (${(error as Error).message})`);
      }
    default:
      return raw;
  }
}

function fromForm(fields: ReadonlyMap<string, string[]>, schema: Schema | undefined, parseJson: ParseJson): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, values] of fields) {
    const fieldSchema = unwrap(schema?.entries?.[field]);
    // A list field may arrive as repeated form keys, or as one JSON array.
    if (fieldSchema?.type === "array" && !(values.length === 1 && values[0]!.trim().startsWith("["))) {
      out[field] = values.map((value) => convert(field, value, unwrap(fieldSchema.item), parseJson));
    } else {
      out[field] = convert(field, values.at(-1)!, fieldSchema, parseJson);
    }
  }
  return out;
}

/**
 * Reads the run input and hands it to `then`. A JSON body (the hot path) is read with no promise:
 * what fails is answered by the request's `fail`, and nothing is returned; a form gives a promise
 * of `then`'s result.
 */
export function readRunInput(c: RequestContext, pipeline: DeployedPipeline, then: (input: RunInput) => unknown): Promise<unknown> | undefined {
  const schema = pipeline.inputSchema as v.GenericSchema<unknown, Record<string, unknown>> | undefined;
  // A YAML pipeline that takes uploads also takes its files as ByteStreams in a JSON body; a
  // wrapper's uploads come only as a form (a JSON body is a 415 there).
  if (pipeline.requiresFiles && (!pipeline.filesAsJson || isForm(c.req))) return readFormInput(c, schema).then(then);
  c.bodyThen((raw) => {
    const body = c.parseJson(raw.toString("utf8")) ?? {};
    if (typeof body !== "object" || Array.isArray(body)) throw new HttpError(400, "Invalid request body: expected a JSON object");
    return then({ input: schema ? parseOr400(schema, body) : (body as Record<string, unknown>), files: NO_FILES });
  });
  return undefined;
}

async function readFormInput(c: RequestContext, schema: v.GenericSchema<unknown, Record<string, unknown>> | undefined): Promise<RunInput> {
  const form = await c.form();
  const raw = { ...fromForm(form.fields, schema as unknown as Schema, (text) => c.parseJson(text)), files: form.files };
  return { input: schema ? parseOr400(schema, raw) : raw, files: form.files };
}
