/**
 * @module Wrappers that take over `POST /v1/files` (Hayhooks' `run_file_upload`). A deployed
 * wrapper with a `runFileUpload(file, ctx)` method receives every upload instead of svc's file
 * store — the first such pipeline in deploy order, as Hayhooks picks the first in its registry —
 * and answers with its OpenAI file object. The set is kept current by the `deploy` hook, so an
 * upload looks up no registry. The call has its own span (`svc.openai.file_upload`) and needs the
 * right to run that pipeline (an API key limited to other pipelines gets 403), as any call of a
 * wrapper's code does.
 */
import {
  CallRunContext,
  HttpError,
  RequestRunCall,
  messageOf,
  type BasePipelineWrapper,
  type DeployedPipeline,
  type FileUpload,
  type PipelineRegistry,
  type PluginApi,
  type RequestContext,
} from "svc/plugin";

type UploadingWrapper = Required<Pick<BasePipelineWrapper, "runFileUpload">>;

/** Whether a pipeline's wrapper takes uploads over (and so resolves its own file ids). */
export const takesUploads = (pipeline: DeployedPipeline): boolean => typeof (pipeline.wrapper as Partial<UploadingWrapper> | null)?.runFileUpload === "function";

export class FileUploadHandlers {
  /** Names of the pipelines whose wrapper takes uploads, in deploy order. */
  private readonly names = new Set<string>();

  constructor(
    private readonly kernel: PluginApi,
    private readonly registry: PipelineRegistry,
  ) {}

  /** Follows deploys from now on, starting with what is deployed. */
  start(): this {
    for (const pipeline of this.registry.list()) if (takesUploads(pipeline)) this.names.add(pipeline.name);
    this.kernel.hooks.deploy.deployed.tap((pipeline) => {
      this.names.delete(pipeline.name);
      if (takesUploads(pipeline)) this.names.add(pipeline.name);
    });
    this.kernel.hooks.deploy.undeployed.tap((name) => {
      this.names.delete(name);
    });
    return this;
  }

  /** The pipeline that takes uploads now, if any. */
  current(): DeployedPipeline | undefined {
    for (const name of this.names) {
      const pipeline = this.registry.get(name);
      if (pipeline) return pipeline;
    }
    return undefined;
  }

  /** Hands the upload to `pipeline`'s wrapper; its answer, completed with the upload's fields, is the file object. */
  async upload(c: RequestContext, pipeline: DeployedPipeline, file: FileUpload): Promise<Record<string, unknown>> {
    const decision = await this.kernel.authorize({ scope: "run", req: c.req, state: c.state, pipeline: pipeline.name });
    if (!decision.allow) throw new HttpError(decision.status, decision.message);
    const tags = {
      "svc.pipeline.name": pipeline.name,
      "svc.transport": "openai",
      "svc.openai.operation": "file_upload",
      "svc.openai.file.content_type": file.contentType,
      "svc.openai.file.purpose": file.purpose,
      "svc.openai.file.size_bytes": file.data.length,
      "svc.request.id": c.id,
    };
    const span = this.kernel.tracer.startSpan("svc.openai.file_upload", tags);
    const call = new RequestRunCall(c, pipeline.name, "runFileUpload", "openai", undefined, span);
    const ctx = new CallRunContext(call, c, [], this.kernel.tracer);
    let answer: unknown;
    try {
      answer = await (pipeline.wrapper as UploadingWrapper).runFileUpload(file, ctx);
    } catch (error) {
      span.end(error);
      if (error instanceof HttpError) throw error;
      throw new HttpError(500, `File upload failed in pipeline '${pipeline.name}': ${messageOf(error)}`, { cause: error });
    }
    const record = answer as Record<string, unknown> | null;
    if (!record || typeof record !== "object" || Array.isArray(record) || typeof record.id !== "string" || record.id === "") {
      const error = new HttpError(500, `runFileUpload of pipeline '${pipeline.name}' returned an unsupported value: expected a file object with a string 'id'`);
      span.end(error);
      throw error;
    }
    span.end();
    return {
      object: "file",
      bytes: file.data.length,
      created_at: Math.floor(Date.now() / 1000),
      filename: file.filename,
      purpose: file.purpose,
      status: "processed",
      expires_at: null,
      status_details: null,
      ...record,
    };
  }
}
