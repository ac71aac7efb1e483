import 'server-only';
import { BoundedCache } from '@/lib/bounded-cache';
import { processWide } from '@/server/process-wide';
import { currentPortalCapabilities } from './capability-state';
import type { PortalError } from './errors';

/*
 * page_size is the one query parameter the BFF sends for its own convenience (fewer, larger pages): the spec
 * leaves each collection's range "not shown". So it is fitted to what the Portal's document says, and a Portal that
 * refuses it is asked again without it, then never again on that operation (a walk keeps one page size throughout).
 */

const refused = processWide('portal-page-size-refused', () => new BoundedCache<string, true>(2_000));

/** The operation's template when the document lists it, else the path itself. */
function operationKey(method: string, url: URL): string {
  const op = currentPortalCapabilities()?.find(method, url);
  return `${method} ${op ? op.template : url.pathname}`;
}

/** Fits the URL's page_size to the operation: dropped where it is not taken, capped at the document's maximum. */
export function fitPageSize(method: string, url: URL): void {
  const asked = url.searchParams.get('page_size');
  if (asked === null) return;
  if (refused.get(operationKey(method, url))) {
    url.searchParams.delete('page_size');
    return;
  }
  const caps = currentPortalCapabilities();
  const op = caps?.source === 'document' ? caps.find(method, url) : null;
  if (!op) return;
  if (!op.query.has('page_size')) url.searchParams.delete('page_size');
  else if (op.pageSizeMax !== null && Number(asked) > op.pageSizeMax) url.searchParams.set('page_size', String(op.pageSizeMax));
}

/**
 * A 400 to a read that carried page_size, unless it names another parameter: page_size is dropped from the URL
 * (and remembered for the operation) and true returned, so the caller asks once more without it.
 */
export function dropRefusedPageSize(method: string, url: URL, status: number | null, error: PortalError): boolean {
  if (status !== 400 || method !== 'GET' || !url.searchParams.has('page_size')) return false;
  const named = error.details.map((d) => d.parameter).filter((p): p is string => typeof p === 'string');
  if (named.length > 0 && !named.includes('page_size')) return false;
  refused.set(operationKey(method, url), true);
  url.searchParams.delete('page_size');
  return true;
}
