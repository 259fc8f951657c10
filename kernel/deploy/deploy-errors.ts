/**
 * @module Every deploy and undeploy failure, each an HttpError with the status of DESIGN §5 and a
 * message that names the cause: 400 for a malformed request (names, paths, no files), 422 for a
 * well-formed request whose wrapper cannot load or breaks the wrapper contract (as Hayhooks).
 */
import { HttpError, messageOf } from "../errors.js";

const bad = (message: string, cause?: unknown) => new HttpError(400, message, { cause });
const unloadable = (message: string, cause?: unknown) => new HttpError(422, message, { cause });

/**
 * A load failure as the client sees it: the cause without Node's require stack, and paths inside
 * the pipeline folder relative to it. The full text (absolute paths, stack) goes to the log, and to
 * the client only with SERVICE_SHOW_TRACEBACKS.
 */
export function loadFailureText(cause: unknown, dir?: string): string {
  let text = messageOf(cause).split(/\n\s*Require stack:/)[0]!.trim();
  if (dir) text = text.split(dir.endsWith("/") ? dir : `${dir}/`).join("");
  return text;
}

export const deployErrors = {
  /** A deploy source's failure, marked with the plugin that registered the source. */
  sourceFailed: (error: HttpError, plugin: string): HttpError => {
    error.plugin ??= plugin;
    error.hook ??= "deploy.source";
    return error;
  },
  invalidName: (name: string, reason: string) => bad(`Invalid pipeline name '${name}': ${reason}`),
  invalidPath: (path: string, reason: string) => bad(`Invalid file path '${path}': ${reason}`),
  noFiles: () => bad("No files were given."),
  tooManyFiles: (count: number, max: number) => bad(`Too many files: ${count} (at most ${max}).`),
  symlink: (path: string) => bad(`Refusing to write through a symlink: ${path}`),
  missingWrapper: (files: readonly string[]) => bad(`Missing required file: ${files.join(" or ")}`),
  loadFailed: (name: string, cause: unknown, dir?: string) => unloadable(`Failed to load pipeline '${name}': ${loadFailureText(cause, dir)}`, cause),
  /** A wrapper folder's module that fails to import (Hayhooks' wording). */
  moduleLoadFailed: (name: string, cause: unknown, dir?: string) => unloadable(`Failed to load pipeline module '${name}': ${loadFailureText(cause, dir)}`, cause),
  noWrapperClass: (name: string) => unloadable(`Failed to load pipeline module '${name}': its pipeline_wrapper does not export a 'PipelineWrapper' class`),
  setupParameters: () => unloadable("PipelineWrapper.setup() must take no parameters"),
  noRunMethod: () => unloadable("At least one of runApi, runChatCompletion or runResponse must be implemented"),
  badInputSchema: (got: string) => unloadable(`PipelineWrapper.inputSchema must be a valibot object schema (v.object({...})), got ${got}`),
  constructorFailed: (cause: unknown) => unloadable(`Failed to create pipeline wrapper instance: ${messageOf(cause)}`, cause),
  setupFailed: (cause: unknown) => unloadable(`Failed to call setup() on pipeline wrapper instance: ${messageOf(cause)}`, cause),
  exists: (name: string) => new HttpError(409, `Pipeline '${name}' already exists`),
  notFound: (name: string) => new HttpError(404, `Pipeline '${name}' not found`),
  noSource: (kind: string) =>
    new HttpError(501, `Deploying '${kind}' pipelines needs a plugin that handles them (for YAML: the engine plugin).`),
  clusterUnavailable: (store: string, cause: unknown) =>
    new HttpError(503, `The cluster's deploy state (${store}) is unreachable, so pipelines cannot be deployed or undeployed now; deployed pipelines keep serving. Cause: ${messageOf(cause)}`, { cause }),
  saveFailed: (name: string, cause: unknown) => new HttpError(500, `Failed to save pipeline files for '${name}': ${messageOf(cause)}`, { cause }),
};
