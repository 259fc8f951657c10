/**
 * @module The built-in registry: every component, nested object and data class the engine ships,
 * under Haystack's dotted type strings and short aliases.
 */
import { Agent } from "./components/agent.js";
import { BranchJoiner } from "./components/branch-joiner.js";
import { ChatPromptBuilder } from "./components/chat-prompt-builder.js";
import { ConditionalRouter } from "./components/conditional-router.js";
import { OpenAIChatGenerator } from "./components/openai-chat-generator.js";
import { OpenAIGenerator } from "./components/openai-generator.js";
import { PromptBuilder } from "./components/prompt-builder.js";
import { sampleComponents } from "./components/sample-components.js";
import { ToolInvoker } from "./components/tool-invoker.js";
import { AnswerBuilder } from "./components/answer-builder.js";
import { DocumentJoiner } from "./components/document-joiner.js";
import { AnswerJoiner } from "./components/answer-joiner.js";
import { CSVToDocument } from "./components/csv-to-document.js";
import { JSONConverter } from "./components/json-converter.js";
import { DocumentSplitter } from "./components/document-splitter.js";
import { DocumentWriter } from "./components/document-writer.js";
import { HTMLToDocument } from "./components/html-to-document.js";
import { InMemoryBM25Retriever } from "./components/in-memory-bm25-retriever.js";
import { LinkContentFetcher } from "./components/link-content-fetcher.js";
import { InMemoryEmbeddingRetriever } from "./components/in-memory-embedding-retriever.js";
import { MultiQueryEmbeddingRetriever } from "./components/multi-query-embedding-retriever.js";
import { OpenAIDocumentEmbedder } from "./components/openai-document-embedder.js";
import { OpenAITextEmbedder } from "./components/openai-text-embedder.js";
import { SentenceTransformersDocumentEmbedder, SentenceTransformersTextEmbedder } from "./components/sentence-transformers-embedders.js";
import { InMemoryDocumentStore } from "./document-store.js";
import { TextFileToDocument } from "./components/text-file-to-document.js";
import { MarkdownToDocument } from "./components/markdown-to-document.js";
import { PyPDFToDocument } from "./components/pypdf-to-document.js";
import { FileTypeRouter } from "./components/file-type-router.js";
import { DocumentCleaner } from "./components/document-cleaner.js";
import { QueryExpander } from "./components/query-expander.js";
import { MultiQueryTextRetriever } from "./components/multi-query-text-retriever.js";
import { LostInTheMiddleRanker } from "./components/lost-in-the-middle-ranker.js";
import { MetaFieldGroupingRanker } from "./components/meta-field-grouping-ranker.js";
import { OutputAdapter } from "./components/output-adapter.js";
import { AnthropicChatGenerator } from "./components/anthropic-chat-generator.js";
import { OpenAIResponsesChatGenerator } from "./components/openai-responses-chat-generator.js";
import { SerperDevWebSearch } from "./components/serper-dev-web-search.js";
import { PRINT_STREAMING_CHUNK, printStreamingChunk } from "./print-streaming-chunk.js";
import { AGENT_RESULT_TO_STRING, agentResultToString } from "./agent-tool.js";
import { EngineRegistry } from "./registry.js";

export function createRegistry(): EngineRegistry {
  const registry = new EngineRegistry();
  registry.components.register(
    // Files in, documents out.
    TextFileToDocument,
    CSVToDocument,
    JSONConverter,
    MarkdownToDocument,
    PyPDFToDocument,
    FileTypeRouter,
    DocumentCleaner,
    // Query and ranking.
    QueryExpander,
    MultiQueryTextRetriever,
    LostInTheMiddleRanker,
    MetaFieldGroupingRanker,
    OutputAdapter,
    // More generators and tools.
    AnthropicChatGenerator,
    OpenAIResponsesChatGenerator,
    SerperDevWebSearch,
    BranchJoiner,
    PromptBuilder,
    ChatPromptBuilder,
    ConditionalRouter,
    OpenAIChatGenerator,
    OpenAIGenerator,
    Agent,
    ToolInvoker,
    InMemoryBM25Retriever,
    DocumentWriter,
    DocumentSplitter,
    DocumentJoiner,
    AnswerJoiner,
    AnswerBuilder,
    HTMLToDocument,
    LinkContentFetcher,
    ...sampleComponents,
  );
  // Embeddings and embedding retrieval (issue 16).
  registry.components.register(
    OpenAITextEmbedder,
    OpenAIDocumentEmbedder,
    SentenceTransformersTextEmbedder,
    SentenceTransformersDocumentEmbedder,
    InMemoryEmbeddingRetriever,
    MultiQueryEmbeddingRetriever,
  );
  registry.objects.register(InMemoryDocumentStore);
  registry.registerFunction(PRINT_STREAMING_CHUNK, (chunk: Parameters<typeof printStreamingChunk>[0]) => printStreamingChunk(chunk));
  registry.registerFunction(AGENT_RESULT_TO_STRING, agentResultToString);
  return registry;
}
