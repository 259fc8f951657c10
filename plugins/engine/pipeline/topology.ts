/**
 * @module Ranks for breaking ties between deferred components: a lexicographic topological order
 * of the graph's strongly connected components, so every member of a cycle ranks the same.
 */
import type { Pipeline } from "./pipeline.js";

export function topologicalRanks(pipeline: Pipeline): Map<string, number> {
  const names = pipeline.componentNames;
  const next = new Map(names.map((n) => [n, [...new Set(pipeline.receiversOf(n).map((e) => e.receiver))].sort()]));
  // Tarjan's algorithm: component index of each node.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const sccOf = new Map<string, number>();
  const sccs: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const members: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        sccOf.set(w, sccs.length);
        members.push(w);
      } while (w !== v);
      sccs.push(members.sort());
    }
  };
  for (const n of [...names].sort()) if (!index.has(n)) visit(n);

  // Kahn's algorithm over the condensation, smallest member name first.
  const indegree = sccs.map(() => 0);
  const edges = sccs.map(() => new Set<number>());
  for (const [v, targets] of next) {
    for (const w of targets) {
      const a = sccOf.get(v)!;
      const b = sccOf.get(w)!;
      if (a !== b && !edges[a]!.has(b)) {
        edges[a]!.add(b);
        indegree[b]!++;
      }
    }
  }
  const ready = sccs.map((_, i) => i).filter((i) => indegree[i] === 0);
  const ranks = new Map<string, number>();
  let rank = 0;
  while (ready.length) {
    ready.sort((a, b) => sccs[a]![0]!.localeCompare(sccs[b]![0]!));
    const i = ready.shift()!;
    for (const member of sccs[i]!) ranks.set(member, rank);
    rank++;
    for (const j of edges[i]!) if (--indegree[j]! === 0) ready.push(j);
  }
  return ranks;
}

/** Python's string order (code points), not the locale's: `B` before `a`, `_` before letters. */
export function byCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Haystack's key `(topological_sort[name], name.lower())`, shared by `_tiebreak_waiting_components`
 * and `_find_components_blocking_pipeline`.
 */
export function byRankThenName(ranks: ReadonlyMap<string, number>): (a: { name: string }, b: { name: string }) => number {
  return (a, b) => ranks.get(a.name)! - ranks.get(b.name)! || byCodePoints(a.name.toLowerCase(), b.name.toLowerCase());
}
