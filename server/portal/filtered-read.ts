import 'server-only';
import type { z } from 'zod';
import { portalRequest, type PortalResponse } from './client';
import { splitQuery } from './discovery';

type Page = z.ZodType<{ items: object[]; next_cursor: string | null; previous_cursor: string | null }>;

// Only a misbehaving upstream reaches it: the collections read this way are an application's files or a run's suggestions.
const MAX_PAGES = 50;

/**
 * A page of a collection, read with filters the Portal may not take. Where the Portal's document lists every
 * filter, this is one upstream read. Where it does not, the spec's rule ("unsupported query parameters are
 * rejected, not ignored") means they cannot be sent: every page is read and the filters applied here, and the
 * matching items come back as one page (no next_cursor).
 */
export async function readFilteredPage<S extends Page>(options: {
  url: string;
  schema: S;
  query: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
  background?: boolean;
}): Promise<PortalResponse<z.output<S>>> {
  const { url, schema, signal, background } = options;
  const { query, keep, filtered } = await splitQuery('GET', url, options.query);
  if (!filtered) return portalRequest({ url, schema, query, signal, background });
  const { cursor: _cursor, ...rest } = query;
  const items: object[] = [];
  let cursor: string | null = null;
  let last: PortalResponse<z.output<S>> | null = null;
  for (let n = 0; n < MAX_PAGES; n++) {
    const res: PortalResponse<z.output<S>> = await portalRequest({ url, schema, query: { ...rest, page_size: 100, cursor }, signal, background });
    items.push(...res.data.items.filter(keep));
    last = res;
    cursor = res.data.next_cursor;
    if (!cursor) break;
  }
  return { ...last!, data: { ...last!.data, items, next_cursor: null, previous_cursor: null } };
}
