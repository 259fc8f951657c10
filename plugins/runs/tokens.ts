/**
 * @module The DI token of the run store, for plugins that keep their long-running work in it
 * (OpenAI Responses background mode, A2A tasks): `kernel.resolve(RUN_STORE)` after svc:runs.
 */
import { token } from "svc/plugin";
import type { RunStore } from "./run-store.js";

export const RUN_STORE = token<RunStore>("run-store", "svc:runs");
