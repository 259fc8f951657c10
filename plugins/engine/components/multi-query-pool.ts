/**
 * @module The query pool the MultiQuery retrievers share: one task per query, at most
 * `maxWorkers` at a time, results in query order. When one query fails its siblings in flight are
 * cancelled (their context's signal aborts, as Haystack's `_gather_tasks_with_cancel` cancels the
 * other tasks) and the failure is raised; queries not yet started are not started.
 */
import type { ComponentContext } from "../component.js";

export async function runQueries<T>(queries: readonly string[], maxWorkers: number, ctx: ComponentContext, one: (query: string, ctx: ComponentContext) => Promise<T>): Promise<T[]> {
  const siblings = new AbortController();
  const stopSiblings = () => siblings.abort(ctx.signal.reason);
  ctx.signal.addEventListener("abort", stopSiblings, { once: true });
  const inner: ComponentContext = { ...ctx, signal: siblings.signal };
  const results: T[] = new Array(queries.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < queries.length && !siblings.signal.aborted) {
      const i = next++;
      try {
        results[i] = await one(queries[i]!, inner);
      } catch (error) {
        failure ??= { error };
        siblings.abort(error);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(maxWorkers, queries.length) }, worker));
  } finally {
    ctx.signal.removeEventListener("abort", stopSiblings);
  }
  if (ctx.signal.aborted) throw ctx.signal.reason;
  if (failure) throw failure.error;
  return results;
}

/** Haystack's `close()` of a component holding others: each one's `close`, where it has one. */
export async function closeAll(components: readonly unknown[]): Promise<void> {
  for (const c of components) await (c as { close?: () => unknown }).close?.();
}
