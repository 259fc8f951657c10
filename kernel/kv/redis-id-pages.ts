/**
 * @module Paging through records kept by id in Redis, newest first, along a sorted set of their
 * ids (all score 0, so ids sort lexically: time-sortable ids sort by creation). Ids whose record
 * expired are met on the way and removed from the set in the background. Shared by the stores
 * that list by cursor (runs, executions).
 */

/** The sorted-set commands used (a node-redis client or cluster client). */
export interface SortedIdCommands {
  zRange(key: string, min: string, max: string, options: { BY: "LEX"; REV?: boolean; LIMIT: { offset: number; count: number } }): Promise<string[]>;
  zRem(key: string, members: string | string[]): Promise<number>;
}

export interface IdPageQuery<T> {
  /** The sorted set of ids. */
  readonly key: string;
  /** Records created before this id (the previous page's last one). */
  readonly before?: string;
  readonly limit: number;
  /** The records of `ids`, in order; a missing one (expired) is null or undefined. */
  readonly read: (ids: string[]) => Promise<readonly (T | null | undefined)[]>;
  readonly matches: (record: T) => boolean;
  /** Ids read per round trip. */
  readonly batch?: number;
}

export interface IdPage<T> {
  readonly items: T[];
  /** The id to pass as `before` for the next page; null on the last page. */
  readonly next: string | null;
}

const DEFAULT_BATCH = 200;

export async function pageByIds<T extends { readonly id: string }>(redis: SortedIdCommands, query: IdPageQuery<T>): Promise<IdPage<T>> {
  const batch = query.batch ?? DEFAULT_BATCH;
  const found: T[] = [];
  const forget = (ids: string[]) => {
    if (ids.length > 0) redis.zRem(query.key, ids).catch(() => undefined);
  };
  let upper = query.before === undefined ? "+" : `(${query.before}`;
  for (;;) {
    const ids = await redis.zRange(query.key, upper, "-", { BY: "LEX", REV: true, LIMIT: { offset: 0, count: batch } });
    if (ids.length === 0) return { items: found, next: null };
    const records = await query.read(ids);
    const gone: string[] = [];
    for (const [i, id] of ids.entries()) {
      const record = records[i];
      if (!record) {
        gone.push(id);
        continue;
      }
      if (!query.matches(record)) continue;
      if (found.length === query.limit) {
        forget(gone);
        return { items: found, next: found[found.length - 1]!.id };
      }
      found.push(record);
    }
    forget(gone);
    if (ids.length < batch) return { items: found, next: null };
    upper = `(${ids[ids.length - 1]}`;
  }
}
