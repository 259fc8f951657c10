/**
 * @module Running a pipeline's chat or Responses method for an OpenAI-style request: find the
 * pipeline named by `model` (404), check it implements the method (501), invoke it through the
 * kernel's `run` hook with transport `openai`, and turn a wrapper failure into a 500
 * `Pipeline execution failed: …`.
 */
import {
  CallRunContext,
  HttpError,
  RequestRunCall,
  messageOf,
  type BasePipelineWrapper,
  type DeployedPipeline,
  type PipelineRegistry,
  type PluginApi,
  type RequestContext,
  type RunContext,
  type UploadedFile,
} from "svc";

export type OpenAIMethod = "runChatCompletion" | "runResponse";

const NOT_IMPLEMENTED: Record<OpenAIMethod, string> = {
  runChatCompletion: "Chat endpoint not implemented for this model",
  runResponse: "Responses endpoint not implemented for this model",
};

export function pipelineFor(registry: PipelineRegistry, model: string, method: OpenAIMethod): DeployedPipeline {
  const pipeline = registry.get(model);
  if (!pipeline) throw new HttpError(404, `Pipeline '${model}' not found or not a pipeline wrapper`);
  const capable = method === "runChatCompletion" ? pipeline.capabilities.chat : pipeline.capabilities.response;
  if (!capable) throw new HttpError(501, NOT_IMPLEMENTED[method]);
  return pipeline;
}

export function pipelineFailure(error: unknown): HttpError {
  return error instanceof HttpError ? error : new HttpError(500, `Pipeline execution failed: ${messageOf(error)}`, { cause: error });
}

/**
 * Calls `method` on the pipeline's wrapper with `args` and a run context holding `files` (those the
 * request's messages refer to). The result may be a value or an (async) iterable; a stream's own
 * failures surface when it is consumed.
 */
export async function invoke(
  kernel: PluginApi,
  c: RequestContext,
  pipeline: DeployedPipeline,
  method: OpenAIMethod,
  input: unknown,
  args: readonly unknown[],
  files: readonly UploadedFile[] = [],
): Promise<unknown> {
  const wrapper = pipeline.wrapper as BasePipelineWrapper & Record<OpenAIMethod, (...a: unknown[]) => unknown>;
  const call = new RequestRunCall(c, pipeline.name, method, "openai", input);
  try {
    return await kernel.run(call, (call) => wrapper[method]!(...args, new CallRunContext(call, () => c.log, files) as RunContext));
  } catch (error) {
    throw pipelineFailure(error);
  }
}
