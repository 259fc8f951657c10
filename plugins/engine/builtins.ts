/**
 * @module The built-in registry: every component, nested object and data class the engine ships,
 * under Haystack's dotted type strings and short aliases.
 */
import { BranchJoiner } from "./components/branch-joiner.js";
import { sampleComponents } from "./components/sample-components.js";
import { EngineRegistry } from "./registry.js";

export function createRegistry(): EngineRegistry {
  const registry = new EngineRegistry();
  registry.components.register(BranchJoiner, ...sampleComponents);
  return registry;
}
