/**
 * @module svc:object-store, and the `svc/object-store` library: a JSON store with a TTL behind
 * `@obj_<id>` references (memory or Redis backend, keyv), the explorer that previews, searches
 * and slices stored objects (and edits or queries them with a regex or jq into new objects),
 * and the decorators that give tools memory. The plugin provides the
 * store under the `OBJECT_STORE` token, configured by `OBJECT_STORE_BACKEND`,
 * `OBJECT_STORE_REDIS_URL` and `OBJECT_STORE_TTL` (or its options), and closes it on shutdown.
 */
import * as v from "valibot";
import { OBJECT_STORE, definePlugin, type KernelPlugin, type ObjectStore as Store } from "svc/plugin";
import { createObjectStore, OBJECT_STORE_BACKENDS } from "./initialize.js";
import { objectStoreSettings } from "./settings.js";

const options = v.object({
  backend: v.optional(v.picklist(OBJECT_STORE_BACKENDS)),
  redisUrl: v.optional(v.string()),
  ttl: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
});

export function objectStorePlugin(): KernelPlugin<v.InferOutput<typeof options>> {
  let store: Store | undefined;
  return definePlugin({
    name: "svc:object-store",
    settings: objectStoreSettings,
    provides: [OBJECT_STORE],
    options,
    async setup(kernel, opts) {
      const { settings } = kernel;
      store = await createObjectStore({
        backend: opts.backend ?? settings.objectStoreBackend,
        redisUrl: opts.redisUrl ?? settings.objectStoreRedisUrl,
        redisUrlSetting: opts.redisUrl ? "the redisUrl option of svc:object-store" : "OBJECT_STORE_REDIS_URL",
        ttl: opts.ttl ?? settings.objectStoreTtl,
        callTimeoutMs: settings.redisTimeout * 1000,
        logger: kernel.log,
      });
      kernel.provide(OBJECT_STORE, store);
      kernel.log.info(`Object store: ${store.backend.kind} backend, TTL ${store.ttl}s`);
    },
    async close() {
      await store?.close();
      store = undefined;
    },
  });
}

export default objectStorePlugin;

export { MemoryBackend } from "./memory-backend.js";
export { RedisBackend, connectRedisBackend, REDIS_NAMESPACE, type RedisConnectOptions } from "./redis-backend.js";
export { ObjectStore, DEFAULT_TTL_SECONDS, toJson } from "./object-store.js";
export {
  createObjectStore,
  initializeOrGetInitializedStore,
  closeInitializedStores,
  ValueError,
  OBJECT_STORE_BACKENDS,
  type ObjectStoreBackendName,
  type StoreOptions,
} from "./initialize.js";
export { Explorer, ExplorerError, EXPLORER_DEFAULTS, type ExplorerOptions } from "./explorer.js";
export { replaceInObject, queryObject } from "./transform.js";
export { parseReference, isReference, type ParsedReference } from "./reference.js";
export { parsePath, navigate, type PathSegment } from "./paths.js";
export { render, typeName, type RenderLimits } from "./render.js";
export {
  explorable,
  referenceable,
  explorableAndReferenceable,
  admitReference,
  resolveArgument,
  type MemoryOptions,
  type ToolDecorator,
} from "./decorators.js";
export { ToolError, errorResult, isErrorResult, descriptionOf, type ToolDefinition, type Parameters, type ParameterSchema } from "./tool-definition.js";
export type { ObjectStoreBackend } from "svc/plugin";
export { objectStoreSettings } from "./settings.js";
