import { LIMITS } from '@/lib/portal';
import type { Sandbox } from '../sandbox';

/** page_size (or the collection's default) and cursor of a paged read's parsed query. */
export const pageQuery = (query: Record<string, unknown>, defaultSize: number = LIMITS.paging.default) => ({
  pageSize: (query.page_size as number | undefined) ?? defaultSize,
  cursor: query.cursor as string | undefined,
});

interface PageArgs<T> {
  sb: Sandbox;
  /** Items in ascending keyset order. */
  items: readonly T[];
  keyOf: (item: T, index: number) => number;
  scope: string;
  pageSize: number;
  cursor: string | undefined;
  /** Collections that page forward only always return previous_cursor null. */
  backward: boolean;
}

/**
 * Keyset paging over an ascending sequence: items created while a client pages are neither missed
 * nor repeated, and a cursor only works for the collection, filters and page_size it was issued for.
 */
export function keysetPage<T>({ sb, items, keyOf, scope, pageSize, cursor, backward }: PageArgs<T>) {
  let start = 0;
  let end = Math.min(items.length, pageSize);
  if (cursor) {
    const c = sb.codec.decode(cursor, scope, pageSize);
    if (c.dir === 'next') {
      start = firstIndexAfter(items, keyOf, c.at);
      end = Math.min(items.length, start + pageSize);
    } else {
      end = firstIndexAfter(items, keyOf, c.at - 1); // items with key < at
      start = Math.max(0, end - pageSize);
    }
  }
  const pageItems = items.slice(start, end);
  const last = pageItems.length > 0 ? keyOf(items[end - 1]!, end - 1) : 0;
  const first = pageItems.length > 0 ? keyOf(items[start]!, start) : 0;
  return {
    object: 'list' as const,
    items: pageItems,
    next_cursor: end < items.length ? sb.codec.encode({ scope, at: last, dir: 'next', page_size: pageSize }) : null,
    previous_cursor:
      backward && start > 0 ? sb.codec.encode({ scope, at: first, dir: 'prev', page_size: pageSize }) : null,
  };
}

/** Binary search: index of the first item whose key is greater than `at`. */
function firstIndexAfter<T>(items: readonly T[], keyOf: (item: T, index: number) => number, at: number) {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keyOf(items[mid]!, mid) <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
