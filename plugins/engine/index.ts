/**
 * @module svc:engine (also `svc/engine`): the pipeline engine and its plugin. The plugin provides
 * the component registry under ENGINE_REGISTRY (other plugins register their components there) and
 * handles `yaml` deploys.
 */
import { definePlugin, yamlStaging, type KernelPlugin } from "svc/plugin";
import { createRegistry } from "./builtins.js";
import { ENGINE_REGISTRY } from "./engine-token.js";
import { loadYamlDeploy } from "./yaml-deploy.js";
import { engineSettings } from "./settings.js";

export { ENGINE_REGISTRY };

export default function enginePlugin(): KernelPlugin {
  return definePlugin({
    name: "svc:engine",
    settings: engineSettings,
    provides: [ENGINE_REGISTRY],
    setup(kernel) {
      kernel.provide(ENGINE_REGISTRY, createRegistry());
      // The host's registry, when it registered one.
      const resolved = kernel.resolve(ENGINE_REGISTRY);
      kernel.hooks.deploy.source("yaml", async (request) => loadYamlDeploy(request, resolved, kernel.tracer, kernel.settings.yamlResultShape, kernel.settings.maxYamlEntries, kernel.settings.yamlUnsafe), yamlStaging);
    },
  });
}

export { createRegistry } from "./builtins.js";
export { EngineRegistry, TypeRegistry, type ObjectClass, type NamedFunction, type EngineIntegrationTypes } from "./registry.js";
export { engineIntegration, type EngineIntegrationOptions } from "./integration.js";
export * from "./document-store-protocol.js";
export { Component, socket, variadic, greedyVariadic, output, selectStreamingCallback, serializeValue } from "./component.js";
export type { ComponentClass, ComponentContext, InputSocket, InputSocketSpec, OutputSocket, OutputSocketSpec, Outputs, SocketKind } from "./component.js";
export { Pipeline, type PipelineOptions, type RunOptions } from "./pipeline/pipeline.js";
export type { PipelineResult } from "./pipeline/scheduler.js";
export { PipelineStreamHandle, type StreamOptions } from "./pipeline/stream.js";
export * from "./pipeline/errors.js";
export { loadPipelineYaml, dumpPipelineYaml, parseYaml, pipelineFromDict, type LoadOptions } from "./yaml.js";
export { YamlPipeline } from "./yaml-deploy.js";
export { streamingGenerator, type StreamingGeneratorOptions, type StreamExtra } from "./streaming-generator.js";
export { ChatMessage, chatRoleFromStr, parseArguments, type ChatRole, type ContentPart, type ToolCall, type ToolCallResult, type ReasoningContent } from "./dataclasses/chat-message.js";
export { Document, ByteStream, checkSparseEmbedding, type DocumentInit, type SparseEmbedding } from "./dataclasses/document.js";
export { StreamingChunk, toolCallDeltaToDict, toolCallDeltaFromDict, componentInfoFromDict, type StreamingCallback, type ToolCallDelta, type ComponentInfo, type FinishReason } from "./dataclasses/streaming-chunk.js";
export { Secret, secretParameter } from "./dataclasses/secret.js";
export { BranchJoiner } from "./components/branch-joiner.js";
export { PromptBuilder } from "./components/prompt-builder.js";
export { ChatPromptBuilder } from "./components/chat-prompt-builder.js";
export { ConditionalRouter, NoRouteSelectedException, RouteConditionException, RouteValueError } from "./components/conditional-router.js";
export { OpenAIChatGenerator } from "./components/openai-chat-generator.js";
export { OpenAIGenerator } from "./components/openai-generator.js";
export { Agent, type AgentInputs, type AgentParams } from "./components/agent.js";
export { State, mergeLists, replaceValues, isListType, isValidTypeString, validateStateSchema, schemaToDict, schemaFromDict, type StateSchema, type StateField } from "./components/agent-state.js";
export { serializeValueWithSchema, deserializeValueWithSchema, type SerializedValue } from "./value-serialization.js";
export { ToolInvoker, ToolNotFoundError, ToolStateMergeError, runToolCalls, checkDuplicateTools, mergeIntoState, resultToString, scheduleToolCalls, type RunToolCallsOptions } from "./components/tool-invoker.js";
export { Tool, tool, ToolInvocationError, TOOL_TYPE, type ToolInit, type ToolFunction, type ToolContext, type ToolSpec, type JsonSchema } from "./tool.js";
export { InMemoryDocumentStore, DuplicatePolicy, DocumentStoreError, DuplicateDocumentError, parseDuplicatePolicy } from "./document-store.js";
export { FilterError, documentMatchesFilter, applyFilterPolicy, parseFilterPolicy, type Filters, type FilterPolicy } from "./filters.js";
export { filtersSchema, retrieverEntries } from "./retriever-parameters.js";
export { InMemoryBM25Retriever } from "./components/in-memory-bm25-retriever.js";
export { InMemoryEmbeddingRetriever } from "./components/in-memory-embedding-retriever.js";
export { MultiQueryEmbeddingRetriever } from "./components/multi-query-embedding-retriever.js";
export { OpenAITextEmbedder } from "./components/openai-text-embedder.js";
export { OpenAIDocumentEmbedder } from "./components/openai-document-embedder.js";
export { SentenceTransformersTextEmbedder, SentenceTransformersDocumentEmbedder } from "./components/sentence-transformers-embedders.js";
export { DocumentWriter } from "./components/document-writer.js";
export { DocumentSplitter } from "./components/document-splitter.js";
export { DocumentJoiner } from "./components/document-joiner.js";
export { AnswerJoiner } from "./components/answer-joiner.js";
export { CSVToDocument } from "./components/csv-to-document.js";
export { JSONConverter } from "./components/json-converter.js";
export { AnswerBuilder } from "./components/answer-builder.js";
export { GeneratedAnswer } from "./dataclasses/generated-answer.js";
export { ExtractedAnswer, type Span } from "./dataclasses/extracted-answer.js";
export { HTMLToDocument } from "./components/html-to-document.js";
export { HTTPStatusError, LinkContentFetcher, RequestError } from "./components/link-content-fetcher.js";
export { TextFileToDocument } from "./components/text-file-to-document.js";
export { MarkdownToDocument } from "./components/markdown-to-document.js";
export { PyPDFToDocument } from "./components/pypdf-to-document.js";
export { FileTypeRouter } from "./components/file-type-router.js";
export { DocumentCleaner } from "./components/document-cleaner.js";
export { guessMimeType, byteStreamFromSource } from "./components/converter-sources.js";
export { QueryExpander } from "./components/query-expander.js";
export { MultiQueryTextRetriever } from "./components/multi-query-text-retriever.js";
export { LostInTheMiddleRanker } from "./components/lost-in-the-middle-ranker.js";
export { MetaFieldGroupingRanker } from "./components/meta-field-grouping-ranker.js";
export { OutputAdapter, OutputAdaptationException } from "./components/output-adapter.js";
export { AnthropicChatGenerator } from "./components/anthropic-chat-generator.js";
export { OpenAIResponsesChatGenerator } from "./components/openai-responses-chat-generator.js";
export { SerperDevWebSearch, SerperDevError } from "./components/serper-dev-web-search.js";
export { ComponentTool, COMPONENT_TOOL_TYPE } from "./component-tool.js";
export { Toolset, TOOLSET_TYPE, flattenTools, warmUpTools, type ToolsType } from "./toolset.js";
export { AgentTool, AGENT_TOOL_TYPE } from "./agent-tool.js";
export { printStreamingChunk, PRINT_STREAMING_CHUNK } from "./print-streaming-chunk.js";
export { renderTemplate, templateVariables, compileTemplate, TemplateError } from "./jinja.js";
export * from "./components/sample-components.js";
export { schemaForTypeString } from "./type-strings.js";
export { typeRefOf, typeName, type TypeRef } from "./type-ref.js";
export { engineSettings } from "./settings.js";
