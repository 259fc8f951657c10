/**
 * @module `@svc-serve/svc/plugin` (also `svc/plugin`): the kernel's entry for plugin authors —
 * `definePlugin`, `PluginApi`, hook points and their types, DI tokens, settings, the HTTP layer's
 * helpers and the kernel's services. Plugins, the CLI and the host import kernel names from here
 * only (test/boundaries.test.ts); wrappers import the smaller `@svc-serve/svc` (api/index.ts).
 * docs/entries.md lists the names by group.
 */
import "reflect-metadata";

export { createContainer, type DependencyContainer } from "./container.js";
export { createKernel, Kernel, type KernelOptions } from "./kernel.js";
export { definePlugin, type KernelPlugin, type PluginApi, type PluginEntry } from "./plugin.js";
export { loadPlugins, type LoadPluginsOptions, type PluginModule } from "./plugin-loader.js";
export { createModuleLoader, type ModuleLoader } from "./module-loader.js";
export { readConfigFile, readDotEnv, CONFIG_FILE_NAMES, type ConfigFile, type PluginSpec } from "./config-sources.js";
export { loadSettings, kernelSettings, type Settings, type SettingKey, type SettingSources, type LoadSettingsOptions } from "./settings.js";
export { setting, type SettingField, type SettingFields, type SettingValues } from "./setting-field.js";
export { mergeSettings, fieldsOf, type DeclaredSettings, type SettingRow } from "./settings-table.js";
export * as settingTypes from "./settings-schema.js";
export { packageInfo, packageVersion, type PackageInfo } from "./package-info.js";
export {
  connectRedisKeyv,
  closeKeyv,
  redisClientOf,
  DEFAULT_REDIS_CONNECT_TIMEOUT_MS,
  type RedisKeyvOptions,
} from "./kv/redis-keyv.js";
export { parseRedisTarget, type RedisTarget } from "./kv/redis-target.js";
export { withDeadline, RedisWatch, RedisTimeoutError, DEFAULT_REDIS_TIMEOUT_MS } from "./kv/redis-deadline.js";
export { pageByIds, type IdPage, type IdPageQuery, type SortedIdCommands } from "./kv/redis-id-pages.js";
export { Keyv } from "keyv";
export {
  EXECUTION_STATUSES,
  type ExecutionIndex,
  type ExecutionPage,
  type ExecutionQuery,
  type ExecutionRecord,
  type ExecutionStatus,
} from "./execution-index.js";
export { DEFAULT_MAX_YAML_ENTRIES, checkYamlEntries, parseYamlText, type YamlTextOptions } from "./yaml-text.js";
export { Readiness, ready, notReady, type ReadinessCheck, type CheckResult, type CheckOptions, type ReadinessReport } from "./readiness.js";
export { Logger, LOG_LEVELS, LOG_FORMATS, type LogFormat, type LogLevel, type LogSink } from "./logger.js";
export { HttpError, KernelError, kernelErrors, messageOf, errorTypeFor, type ErrorType, type KernelErrorCode } from "./errors.js";
export { tracebackOf, withTraceback } from "./traceback.js";
export { newId, randomHex, randomUuid } from "./ids.js";
export { formatIssues, parseOr400 } from "./validation.js";
export * from "./tokens.js";
export type { ObjectStore, ObjectStoreBackend } from "./object-store.js";
export { PipelineRegistry, type DeployedPipeline, type PipelineCapabilities } from "./registry.js";
export { KernelHooks, type PluginHooks, type RunCall } from "./hooks/index.js";
export type { TapOptions } from "./hooks/taps.js";
export type { Interceptor, Next } from "./hooks/interceptor-hook.js";
export type { AnsweredRequest } from "./hooks/observer-hook.js";
export type { ResultHook, ResultInfo, ResultItems, ResultTap } from "./hooks/result-hook.js";
export { DROP, type StreamInfo, type StreamStats, type StreamTap } from "./hooks/waterfall-hook.js";
export { NOOP_TRACER, bindSignalSpan, inSpan, signalSpan, signalTracer, type Span, type Tracer, type Tags, type TagValue } from "./hooks/tracer.js";
export { RemoteSpan, TRACE_FLAG_RANDOM, TRACE_FLAG_SAMPLED, parseTraceparent, parseTracestate, remoteParentOf, traceHeaders } from "./hooks/trace-context.js";
export {
  allow,
  deny,
  type AccessCheck,
  type AccessDecision,
  type AccessPolicy,
  type AccessRequest,
  type AccessScope,
  type AccessScopes,
} from "./hooks/auth-hook.js";
export {
  cacheDir,
  dashboardTokenPath,
  ensureDashboardToken,
  readDashboardToken,
  InsecureCredentialError,
  DASHBOARD_TOKEN_FILE,
} from "./operator-access/credential-file.js";
export { OperatorAccess, isLoopbackBind } from "./operator-access/operator-access.js";
export { bearerToken, tokensEqual } from "./operator-access/bearer.js";
export type { DeploySourceHandler, DeploySourceRequest, LoadedPipeline } from "./hooks/deploy-hook.js";
export { RequestContext, contextOf, SHUTDOWN_MESSAGE, type AbortCause } from "./http/context.js";
export { createHttpServer, type ServerTimeouts } from "./http/server.js";
export { ownedBy, requestState, type Principal, type RequestState } from "./http/request-state.js";
export { SseWriter, type SseEvent } from "./http/sse.js";
export { Invocation, type StreamedSource } from "./invoke/invocation.js";
export { ABORTED, TIMED_OUT, InvocationStream, type Pulled, type StreamEnd } from "./invoke/invocation-stream.js";
export { Invoker, StreamedRun, invokeErrors, pipelineFailure, type InvokeRequest, type PipelineMethod } from "./invoke/invoke.js";
export { isForm, isMultipart, readMultipart, type MultipartForm, type MultipartLimits } from "./http/multipart.js";
export { mimeTypeOf, extensionOf } from "./http/mime-type.js";
export { errorBody, sendJson, type ErrorBody } from "./http/send.js";
export type { HttpMethod, RouteDocs, RouteHandler, RouteInfo, RouteOptions } from "./http/app.js";
export {
  BasePipelineWrapper,
  getLastUserMessage,
  type ChatMessage,
  type FileUpload,
  type InputSchema,
  type RunContext,
} from "./wrapper/base-pipeline-wrapper.js";
export { FileResult, SseStream, fileResponse, isStreamable, sse, streamItemText } from "./wrapper/results.js";
export { UploadedFile, uploadedFiles } from "./wrapper/uploaded-file.js";
export { CallRunContext, PlainRunCall, RequestRunCall, runAborted } from "./wrapper/run-context.js";
export { bodyLimits, maxConcurrencyField, mergeLimits, timeoutSecondsField, wrapperLimits, type RunLimits } from "./wrapper/run-limits.js";
export { WRAPPER_FILES, findWrapperFile, loadWrapper } from "./wrapper/load-wrapper.js";
export { DeployService, type DeployRequest } from "./deploy/deploy-service.js";
export { MAX_DEPLOY_FILES, folderStaging, yamlStaging, type DeployStaging } from "./deploy/source-staging.js";
export type { ClusterHealth, DeployState, ManifestEntry, ManifestWrite, PutResult, RemoveResult, ChangeListener } from "./deploy/deploy-state.js";
export { LocalDeployState } from "./deploy/local-deploy-state.js";
export { RedisDeployState } from "./deploy/redis-deploy-state.js";
export { WorkersManifest, WorkerDeployState, WORKERS_STATE_ENV } from "./deploy/workers-deploy-state.js";
export { PipelinesWatcher } from "./deploy/pipelines-watcher.js";
export { deployErrors } from "./deploy/deploy-errors.js";
export {
  DeployFilesBody,
  descriptionField,
  filesDeployRequest,
  overwriteField,
  pipelineNameField,
  skipMcpField,
} from "./deploy/deploy-files-body.js";
export { routeWords, checkPipelineName, checkRelativePath } from "./deploy/names.js";
export { settingsMarkdown, withSettingsTable, SETTINGS_START, SETTINGS_END } from "./settings-docs.js";
