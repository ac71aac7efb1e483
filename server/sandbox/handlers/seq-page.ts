import { keysetPage, pageQuery } from '../http/paging';
import type { Sandbox } from '../sandbox';

/** A page of the query's size (page_size, cursor) of records in the order they were made: businesses, deals. */
export function seqPage<R extends { seq: number }>(sb: Sandbox, records: R[], scope: string, query: Record<string, unknown>) {
  return keysetPage({
    sb,
    items: [...records].sort((a, b) => a.seq - b.seq),
    keyOf: (r) => r.seq,
    scope,
    ...pageQuery(query),
    backward: true,
  });
}
