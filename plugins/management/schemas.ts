/**
 * @module Request and response schemas of the management endpoints (validation and OpenAPI).
 */
import * as v from "valibot";
import {
  DeployFilesBody,
  descriptionField as description,
  maxConcurrencyField as max_concurrency,
  overwriteField as overwrite,
  pipelineNameField as name,
  skipMcpField as skipMcp,
  timeoutSecondsField as timeout_seconds,
  bodyLimits,
  parseOr400,
  type RunLimits,
} from "svc/plugin";

export { DeployFilesBody };

export const DeployYamlBody = v.object({
  name,
  source_code: v.pipe(v.string(), v.description("The YAML pipeline definition.")),
  description,
  overwrite,
  save_file: v.optional(v.pipe(v.boolean(), v.description("Keep the YAML file in the pipelines directory.")), true),
  skip_mcp: skipMcp,
  max_concurrency,
  timeout_seconds,
});

export const ActionResponse = v.object({
  status: v.literal("success"),
  message: v.string(),
  name: v.string(),
});

export const ClusterStatus = v.object({
  mode: v.pipe(v.picklist(["single", "workers", "redis"]), v.description("One process, `--workers N` on one host, or several instances sharing Redis.")),
  instance: v.pipe(v.string(), v.description("The instance that answered.")),
  connected: v.pipe(v.boolean(), v.description("Deploys and undeploys can be made now (false while Redis is unreachable: they are refused with 503).")),
  store: v.optional(v.pipe(v.string(), v.description("Where the deploy state lives (host:port, no credentials)."))),
  error: v.optional(v.pipe(v.string(), v.description("The last error of the deploy state's store while it is unreachable."))),
});

export const StatusAllResponse = v.object({
  status: v.string(),
  pipelines: v.array(v.string()),
  cluster: ClusterStatus,
  /** Present only when some are: saved pipelines not deployed because loading them took the process down (docs/production.md). */
  quarantined: v.optional(v.pipe(v.array(v.string()), v.description("Saved pipelines this start did not deploy: loading them took the process down on starts in a row."))),
});
export const StatusOneResponse = v.object({ status: v.string(), pipeline: v.string() });

const FormLimits = v.object({ max_concurrency, timeout_seconds });

/** `max_concurrency` / `timeout_seconds` of a multipart form, as numbers and checked like the JSON fields. */
export function formLimits(one: (field: string) => string | undefined): RunLimits | undefined {
  const number = (field: string) => {
    const raw = one(field)?.trim();
    return raw === undefined || raw === "" ? undefined : Number(raw);
  };
  return bodyLimits(parseOr400(FormLimits, { max_concurrency: number("max_concurrency"), timeout_seconds: number("timeout_seconds") }));
}

/** Multipart form booleans: `true/false/1/0/yes/no/on/off`, or absent (then `fallback`). */
export function formBoolean<F extends boolean | undefined>(values: string[] | undefined, field: string, fallback: F): boolean | F {
  const raw = values?.at(-1)?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (["true", "1", "yes", "on"].includes(raw)) return true;
  if (["false", "0", "no", "off"].includes(raw)) return false;
  throw new Error(`${field}: expected true or false, got '${raw}'`);
}
