/** @module The engine registry's DI token, in its own file so integration helpers can import it without the plugin. */
import { token } from "svc/plugin";
import type { EngineRegistry } from "./registry.js";

/** The engine's component, object and function registry. */
export const ENGINE_REGISTRY = token<EngineRegistry>("engine.registry", "svc:engine");
