/**
 * @module Who is calling, for the task store. The SDK hands a `TaskStore` only the session id
 * (`tasks/get`, `tasks/list` … have no other context), but tasks belong to the API key that made
 * them, and a session lives on one instance while a task is read from any. So each HTTP request's
 * messages are delivered inside `asCaller(principal, …)`, and the store reads the caller back with
 * `currentCaller()`: an AsyncLocalStorage follows the SDK's handlers through their promises.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Principal } from "svc/plugin";

const callers = new AsyncLocalStorage<Principal | undefined>();

/** Runs `fn` (the delivery of one request's messages) as `principal`; undefined: no auth (or stdio). */
export function asCaller<T>(principal: Principal | undefined, fn: () => T): T {
  return callers.run(principal, fn);
}

/** The principal of the request being served, undefined without auth. */
export function currentCaller(): Principal | undefined {
  return callers.getStore();
}
