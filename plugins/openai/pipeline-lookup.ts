/**
 * @module The pipeline a chat or Responses request names in `model`. A lookup that fails (an
 * unknown model: 404; no such method: 501) never reaches the `run` hook, so it leaves its own failed
 * `svc.openai.run` span here, with the status — a client pointed at the wrong model shows up in the
 * traces as Hayhooks shows it.
 */
import { remoteParentOf, type DeployedPipeline, type PluginApi, type RequestContext } from "svc/plugin";

type OpenAiMethod = "runChatCompletion" | "runResponse";

const OPERATIONS: Record<OpenAiMethod, string> = { runChatCompletion: "run_chat_completion", runResponse: "run_response" };

export function pipelineForModel(kernel: PluginApi, c: RequestContext, model: string, method: OpenAiMethod, stream: boolean): DeployedPipeline {
  try {
    return kernel.pipelineFor(model, method);
  } catch (error) {
    const tags = { "svc.pipeline.name": model, "svc.transport": "openai", "svc.openai.operation": OPERATIONS[method], "svc.openai.stream_requested": stream, "svc.request.id": c.id };
    kernel.tracer.startSpan("svc.openai.run", tags, remoteParentOf(c.req.headers)).end(error);
    throw error;
  }
}
