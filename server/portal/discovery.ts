import 'server-only';
import { z } from 'zod';
import { log } from '@/server/log';
import { heldCapabilities, holdCapabilities } from './capability-state';
import { portalRequest, type PortalQuery } from './client';
import { CONSTRUCTED_PATHS } from './constructed-paths';
import { PortalCapabilities } from './openapi-index';
import { routes, type PortalPath } from './routes';
import { portalBaseUrl } from './url-guard';

/*
 * Discover, don't assume: the spec guarantees /openapi.json, limited to what the key may use, and leaves every
 * other path, filter and page size "not shown". The BFF reads the document at start and every REFRESH_MS, and uses
 * an operation or a query parameter only where it is listed; elsewhere it filters on its own side, follows URLs
 * from reads, or hides the feature.
 */

const REFRESH_MS = 10 * 60_000;
/** After a failed read, what was known stays in use (or the spec's guarantees alone) and the read is tried again this soon. */
const RETRY_MS = 30_000;

/** Only what is read from it: the document is walked, not trusted to follow any one OpenAPI version exactly. */
const OpenApiDocument = z.looseObject({ paths: z.record(z.string(), z.unknown()) });

let loading: Promise<PortalCapabilities> | null = null;
let reportedMissing = '';

async function load(): Promise<PortalCapabilities> {
  const base = portalBaseUrl();
  try {
    const res = await portalRequest({ path: routes.openapi(), schema: OpenApiDocument, background: true });
    const capabilities = PortalCapabilities.fromDocument(res.data, base);
    holdCapabilities(capabilities, true, REFRESH_MS);
    reportMissing(capabilities);
    return capabilities;
  } catch (e) {
    const held = heldCapabilities();
    log.warn('portal openapi.json could not be read', { error: e instanceof Error ? e.message : String(e), retry_in_ms: RETRY_MS });
    const capabilities = held.fromDocument && held.capabilities ? held.capabilities : PortalCapabilities.specOnly(base);
    holdCapabilities(capabilities, held.fromDocument, RETRY_MS);
    return capabilities;
  }
}

/**
 * What the Portal offers. The first call waits for the document; later ones answer with what is known at once and
 * read it again in the background when it is older than REFRESH_MS (or RETRY_MS after a failed read).
 */
export function portalCapabilities(): Promise<PortalCapabilities> {
  const held = heldCapabilities();
  if (held.capabilities === null || Date.now() >= held.nextReadAt) {
    loading ??= load().finally(() => {
      loading = null;
    });
  }
  return held.capabilities ? Promise.resolve(held.capabilities) : loading!;
}

/** The paths routes.ts constructs that the document does not list (with the methods missing), for a readiness check. */
export function missingConstructedPaths(capabilities: PortalCapabilities): Array<{ name: string; method: string; template: string }> {
  if (capabilities.source !== 'document') return [];
  return Object.entries(CONSTRUCTED_PATHS).flatMap(([name, p]) =>
    p.methods.filter((m) => !capabilities.has(m, p.template)).map((method) => ({ name, method, template: p.template })),
  );
}

function reportMissing(capabilities: PortalCapabilities) {
  const missing = missingConstructedPaths(capabilities);
  const key = missing.map((m) => `${m.method} ${m.template}`).join(', ');
  if (key === reportedMissing) return;
  reportedMissing = key;
  if (missing.length === 0) log.info('portal openapi.json lists every path the app constructs');
  else log.warn('portal openapi.json does not list paths the app constructs', { missing: missing.map((m) => `${m.method} ${m.template}`) });
}

let started = false;

/** Reads the document at start and keeps it fresh; the features then ask portalCapabilities(). */
export function startPortalDiscovery(): void {
  if (started) return;
  started = true;
  void portalCapabilities();
  setInterval(() => void portalCapabilities(), REFRESH_MS / 2).unref();
}

/**
 * A read's query split in two: what the operation takes upstream (paging always; a filter only where the document
 * lists it) and the filters to apply here to what comes back (`keep`). Paging a filtered read here gives pages
 * with fewer items than asked, and maybe none, while a next_cursor remains.
 */
export async function splitQuery<Q extends Record<string, string | number | boolean | null | undefined>>(
  method: string,
  target: PortalPath | string | URL,
  query: Q,
): Promise<{ query: PortalQuery; keep: (item: object) => boolean; filtered: boolean }> {
  const upstream: Record<string, string | number | boolean | null | undefined> = {};
  const filters: Array<[string, string | number | boolean]> = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (name === 'page_size' || name === 'cursor') upstream[name] = value;
    else filters.push([name, value]);
  }
  // Paging alone needs no look at the document (the client fits page_size itself).
  const capabilities = filters.length > 0 ? await portalCapabilities() : null;
  const local: Array<[string, unknown]> = [];
  for (const [name, value] of filters) {
    if (capabilities!.accepts(method, target, name)) upstream[name] = value;
    else local.push([name, value]);
  }
  const keep = (item: object) => local.every(([name, value]) => (item as Record<string, unknown>)[name] === value);
  return { query: upstream, keep, filtered: local.length > 0 };
}
