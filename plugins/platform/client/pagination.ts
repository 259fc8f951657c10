/**
 * @module Cursor pages. The platform answers `{ data, has_more, total }`; the cursor of the next
 * page is the last item's value of the resource's cursor field (`pipeline_id`, `logged_at`, …),
 * passed back as `after`.
 */

export interface Page<T = unknown> {
  data: T[];
  has_more: boolean;
  total: number | null;
  next_cursor: string | null;
}

export function toPage<T>(body: unknown, cursorField: string): Page<T> {
  const b = (body ?? {}) as { data?: unknown; has_more?: unknown; total?: unknown };
  const data = (Array.isArray(b.data) ? b.data : []) as T[];
  const hasMore = b.has_more === true;
  const last = data[data.length - 1] as Record<string, unknown> | undefined;
  const cursor = hasMore && last && typeof last === "object" ? last[cursorField] : undefined;
  return {
    data,
    has_more: hasMore,
    total: typeof b.total === "number" ? b.total : data.length,
    next_cursor: cursor === undefined || cursor === null ? null : String(cursor),
  };
}
