/**
 * @module svc:pgvector, an engine integration as Haystack's `haystack_integrations` packages are:
 * it registers PgvectorDocumentStore, PgvectorEmbeddingRetriever and PgvectorKeywordRetriever
 * under their Haystack import paths in the engine's registry, so Haystack YAML using them
 * deploys unchanged. Loading it costs one module import: no store connects before its first use.
 * It closes a pipeline's store pools when the pipeline is undeployed or replaced, and every pool
 * on shutdown.
 */
import { definePlugin, type DeployedPipeline, type KernelPlugin } from "svc/plugin";
import { ENGINE_REGISTRY } from "svc/engine";
import { PgvectorDocumentStore } from "./document-store.js";
import { PgvectorEmbeddingRetriever } from "./embedding-retriever.js";
import { PgvectorKeywordRetriever } from "./keyword-retriever.js";
import { pgvectorSettings } from "./settings.js";
import { storesOf } from "./stores-of.js";

export default function pgvectorPlugin(): KernelPlugin<undefined, typeof pgvectorSettings> {
  const created = new Set<PgvectorDocumentStore>();
  let unregister: (() => void) | undefined;
  const byPipeline = new Map<string, Set<PgvectorDocumentStore>>();
  const release = async (stores: Iterable<PgvectorDocumentStore> | undefined) => {
    await Promise.all([...(stores ?? [])].map(async (store) => {
      created.delete(store);
      await store.close();
    }));
  };
  return definePlugin({
    name: "svc:pgvector",
    needs: [ENGINE_REGISTRY],
    settings: pgvectorSettings,
    setup(kernel) {
      const limits = { max: kernel.settings.pgvectorPoolSize, connectionTimeoutMillis: Math.round(kernel.settings.pgvectorConnectTimeoutSeconds * 1000) };
      const registry = kernel.resolve(ENGINE_REGISTRY);
      const storeClass = {
        type: PgvectorDocumentStore.type,
        aliases: PgvectorDocumentStore.aliases,
        fromDict(initParameters: Record<string, unknown>) {
          const store = PgvectorDocumentStore.fromDict(initParameters, limits);
          created.add(store);
          return store;
        },
      };
      unregister = registry.registerIntegration({ documentStores: [storeClass], components: [PgvectorEmbeddingRetriever, PgvectorKeywordRetriever] });
      kernel.hooks.deploy.deployed.tap(async (pipeline: DeployedPipeline) => {
        const previous = byPipeline.get(pipeline.name);
        const stores = new Set(storesOf(pipeline.wrapper, PgvectorDocumentStore));
        byPipeline.set(pipeline.name, stores);
        // A redeploy: the old instance's pools go (its stores are not the new one's).
        if (previous) await release([...previous].filter((s) => !stores.has(s)));
      });
      kernel.hooks.deploy.undeployed.tap(async (name: string) => {
        const stores = byPipeline.get(name);
        byPipeline.delete(name);
        await release(stores);
      });
    },
    async close() {
      unregister?.();
      unregister = undefined;
      byPipeline.clear();
      await release([...created]);
    },
  });
}

export { PgvectorDocumentStore, DEFAULT_POOL_LIMITS, WRITE_BATCH_SIZE } from "./document-store.js";
export { DocumentStoreUnavailableError } from "./connection.js";
export { PgvectorEmbeddingRetriever } from "./embedding-retriever.js";
export { PgvectorKeywordRetriever } from "./keyword-retriever.js";
export { filtersToSql, SqlFilterError } from "./sql-filters.js";
export { pgvectorSettings } from "./settings.js";
