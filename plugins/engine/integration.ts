/**
 * @module Engine integrations as plugins, the way Haystack ships `haystack_integrations` packages:
 * a plugin registers component and document-store types (by their Haystack import paths) in the
 * engine's registry at setup and removes them at close, so YAML naming them loads only while the
 * plugin is loaded. `engineIntegration` builds such a plugin from a list of types; a plugin that
 * does more calls `registry.registerIntegration` itself and keeps the returned unregister function.
 */
import { definePlugin, type KernelPlugin, type PluginApi } from "svc/plugin";
import { ENGINE_REGISTRY } from "./engine-token.js";
import type { EngineIntegrationTypes } from "./registry.js";

export interface EngineIntegrationOptions extends EngineIntegrationTypes {
  /** The plugin's name (`svc:pgvector`, `acme:weaviate`). */
  name: string;
  version?: string;
  /** Runs after the types are registered (e.g. to add routes); may return a close function. */
  setup?(kernel: PluginApi): void | (() => void | Promise<void>) | Promise<void | (() => void | Promise<void>)>;
}

/** A plugin that registers the given types with `svc:engine` and unregisters them on close. */
export function engineIntegration(options: EngineIntegrationOptions): KernelPlugin {
  let unregister: (() => void) | undefined;
  let closeExtra: (() => void | Promise<void>) | undefined;
  return definePlugin({
    name: options.name,
    version: options.version,
    needs: [ENGINE_REGISTRY],
    async setup(kernel) {
      unregister = kernel.resolve(ENGINE_REGISTRY).registerIntegration(options);
      const extra = await options.setup?.(kernel);
      if (typeof extra === "function") closeExtra = extra;
    },
    async close() {
      try {
        await closeExtra?.();
      } finally {
        unregister?.();
        unregister = closeExtra = undefined;
      }
    },
  });
}
