/**
 * @module `@svc-serve/svc/plugin` (also `svc/plugin`): the kernel's entry for plugin authors —
 * `definePlugin` and `PluginApi`, the hook points and their types, the DI tokens and the types of
 * what they hold, setting declarations, the HTTP layer's helpers, errors, logging and spans.
 * Plugins import kernel names from here only (test/boundaries.test.ts, which also caps the count);
 * wrappers import `@svc-serve/svc` (api/index.ts), host applications `@svc-serve/svc/host`. What only
 * the CLI and the host use to boot (config files, settings sources, plugin loading, deploy states,
 * the watcher, the HTTP server, the dashboard credential) is in kernel/internal.ts, not published.
 * docs/entries.md lists the names by group.
 */
import "reflect-metadata";

// A plugin: its definition, what setup() gets, and a kernel to boot (a plugin's own server or tests).
export { definePlugin, type KernelPlugin, type PluginApi, type PluginEntry } from "./plugin.js";
export { createKernel, type Kernel, type KernelOptions } from "./kernel.js";
export type { DependencyContainer } from "./container.js";
export { packageInfo, packageVersion } from "./package-info.js";

// Hook points a plugin taps (PluginApi.hooks) and what their taps get and return.
export type { PluginHooks, RunCall } from "./hooks/index.js";
export type { TapOptions } from "./hooks/taps.js";
export type { CallObserver, CallTimes, Interceptor, Next, Observation } from "./hooks/interceptor-hook.js";
export type { AnsweredRequest } from "./hooks/observer-hook.js";
export type { ResultHook, ResultInfo, ResultItems, ResultTap } from "./hooks/result-hook.js";
export { DROP, type StreamInfo, type StreamStats, type StreamTap } from "./hooks/waterfall-hook.js";
export type { DeploySourceHandler, DeploySourceRequest, LoadedPipeline } from "./hooks/deploy-hook.js";
export { allow, deny, type AccessDecision, type AccessPolicy, type AccessRequest, type AccessScope } from "./hooks/auth-hook.js";

// DI tokens (declared once, where provided) and the types of what they hold.
export {
  token,
  accessToken,
  type Token,
  SETTINGS,
  LOGGER,
  REGISTRY,
  TRACER,
  DEPLOYER,
  DEPLOY_STATE,
  ROUTES,
  OBJECT_STORE,
  READINESS,
  EXECUTION_INDEX,
  TRACE_ACCESS,
  ADMIN_ACCESS,
  RUN_ACCESS,
} from "./tokens.js";
export { PipelineRegistry, type DeployedPipeline } from "./registry.js";
export type { ObjectStore, ObjectStoreBackend } from "./object-store.js";
export { ready, notReady, type ReadinessCheck, type CheckResult } from "./readiness.js";
export { EXECUTION_STATUSES, type ExecutionIndex, type ExecutionPage, type ExecutionQuery, type ExecutionRecord, type ExecutionStatus } from "./execution-index.js";
export type { DeployState } from "./deploy/deploy-state.js";

// Settings: declaring a plugin's settings, and its table in its README.
export { setting, type SettingField, type SettingFields, type SettingValues } from "./setting-field.js";
export * as settingTypes from "./settings-schema.js";
export type { Settings, SettingKey } from "./settings.js";
export { mergeSettings } from "./settings-table.js";
export { withSettingsTable } from "./settings-docs.js";

// Errors, validation and YAML.
export { HttpError, KernelError, kernelErrors, messageOf, type ErrorType } from "./errors.js";
export { tracebackOf, withTraceback } from "./traceback.js";
export { formatIssues, parseOr400 } from "./validation.js";
export { DEFAULT_MAX_YAML_ENTRIES, parseYamlText } from "./yaml-text.js";

// HTTP: routes, the request context, bodies, answers.
export type { HttpMethod, RouteDocs, RouteHandler, RouteInfo, RouteOptions } from "./http/app.js";
export { RequestContext, SHUTDOWN_MESSAGE } from "./http/context.js";
export { ownedBy, requestState, type Principal, type RequestState } from "./http/request-state.js";
export { isForm, readMultipart } from "./http/multipart.js";
export { mimeTypeOf, extensionOf } from "./http/mime-type.js";
export { errorBody } from "./http/send.js";
export { SseWriter } from "./http/sse.js";
export { bearerToken, tokensEqual } from "./operator-access/bearer.js";

// Running pipelines (the transports' side): invocations, their streams, wrapper results and limits.
export { Invocation, type StreamedSource } from "./invoke/invocation.js";
export { ABORTED, TIMED_OUT } from "./invoke/invocation-stream.js";
export { StreamedRun, pipelineFailure, type InvokeRequest, type PipelineMethod } from "./invoke/invoke.js";
export { BasePipelineWrapper, type FileUpload, type RunContext } from "./wrapper/base-pipeline-wrapper.js";
export { FileResult, isStreamable, streamItemText } from "./wrapper/results.js";
export { UploadedFile } from "./wrapper/uploaded-file.js";
export { CallRunContext, RequestRunCall, runAborted } from "./wrapper/run-context.js";
export { bodyLimits, maxConcurrencyField, timeoutSecondsField, type RunLimits } from "./wrapper/run-limits.js";

// Deploying (the deploy endpoints' and deploy sources' side).
export { DeployService, type DeployRequest } from "./deploy/deploy-service.js";
export { deployErrors } from "./deploy/deploy-errors.js";
export { DeployFilesBody, descriptionField, filesDeployRequest, overwriteField, pipelineNameField, skipMcpField } from "./deploy/deploy-files-body.js";
export { yamlStaging } from "./deploy/source-staging.js";

// Logging, spans and trace context.
export { Logger, type LogLevel } from "./logger.js";
export { NOOP_TRACER, signalSpan, signalTracer, type Span, type Tracer, type Tags, type TagValue } from "./hooks/tracer.js";
export { RemoteSpan, TRACE_FLAG_RANDOM, TRACE_FLAG_SAMPLED, remoteParentOf, traceHeaders } from "./hooks/trace-context.js";
export { newId, randomHex, randomUuid } from "./ids.js";

// Redis and key-value storage, shared by the plugins that keep state in Redis.
export { connectRedisKeyv, closeKeyv, redisClientOf } from "./kv/redis-keyv.js";
export { parseRedisTarget } from "./kv/redis-target.js";
export { withDeadline, RedisWatch, RedisTimeoutError, DEFAULT_REDIS_TIMEOUT_MS } from "./kv/redis-deadline.js";
export { pageByIds, type IdPage, type IdPageQuery, type SortedIdCommands } from "./kv/redis-id-pages.js";
export { Keyv } from "keyv";
