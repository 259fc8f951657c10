/**
 * @module Polka's route lookups, remembered by method and path. A lookup tests the pattern of every
 * route in turn (about a microsecond with the default plugins' routes), and nearly every request
 * repeats a path seen before (`/{name}/run` of a few pipelines). Each request gets its own copy of
 * the params, which polka decodes in place. Bounded: a client cycling through paths only makes the
 * cache start over.
 */
import type { Polka } from "polka";

type Found = ReturnType<Polka["find"]>;

const MAX_PATHS = 1024;

/** Makes `router.find` remember its answers; returns what forgets them (call it when routes change). */
export function cacheRouteLookups(router: Polka): () => void {
  const find = router.find.bind(router);
  const byMethod = new Map<string, Map<string, Found>>();
  router.find = (method, path) => {
    let paths = byMethod.get(method);
    if (paths === undefined) byMethod.set(method, (paths = new Map()));
    let found = paths.get(path);
    if (found === undefined) {
      if (paths.size >= MAX_PATHS) paths.clear();
      paths.set(path, (found = find(method, path)));
    }
    return { params: { ...found.params }, handlers: found.handlers };
  };
  return () => byMethod.clear();
}
