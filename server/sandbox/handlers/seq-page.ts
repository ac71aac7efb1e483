import { LIMITS } from '@/lib/portal';
import { keysetPage } from '../http/paging';
import type { Sandbox } from '../sandbox';

/** A page of the query's size (page_size, cursor) of records in the order they were made: businesses, deals. */
export function seqPage<R extends { seq: number }>(sb: Sandbox, records: R[], scope: string, query: Record<string, unknown>) {
  return keysetPage({
    sb,
    items: [...records].sort((a, b) => a.seq - b.seq),
    keyOf: (r) => r.seq,
    scope,
    pageSize: (query.page_size as number | undefined) ?? LIMITS.paging.default,
    cursor: query.cursor as string | undefined,
    backward: true,
  });
}
