import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// Next's own compiler of matcher sources (what `next build` writes into the proxy's manifest).
import { tryToParsePath } from 'next/dist/lib/try-to-parse-path';
import { config } from '@/proxy';
import { api } from '@/lib/api/endpoints';
import { REPO_ROOT, routeCatalog } from '../integration/support/route-catalog';

/*
 * Which requests skip proxy.ts (and so meet none of its limits, its address and its headers but what the route
 * wrapper does for them): uploads only. An upload is a request naming its file in X-Filename to one of the four
 * routes that stream a body to the Portal, with well-formed ids in its path. Every other route meets the proxy
 * whatever the request carries (X-Filename, forwarded headers), and so does an upload path with a malformed id.
 */

type Matcher = { source: string; has?: unknown; missing?: Array<{ type: string; key: string }> };
const matchers = (config.matcher as Matcher[]).map((m) => ({ ...m, regexp: new RegExp(tryToParsePath(m.source).regexStr!) }));

/** Whether the proxy runs for a request to this raw path, with or without X-Filename. */
function proxied(path: string, headers: Record<string, string>) {
  return matchers.some((m) => m.regexp.test(path) && (m.missing ?? []).every((h) => !(h.key in headers)));
}

const UPLOADS = [
  '/api/applications/[applicationId]/files',
  '/api/deal-applications/[dealApplicationId]/files',
  '/api/applications/[applicationId]/autofill/preparation/files',
  '/api/businesses/[businessId]/uploads/[uploadId]',
];

const filled = (pattern: string, id = 'x_abc123') => pattern.replace(/\[[^\]]+\]/g, id);

/** Every route module under server/ (each route file re-exports one of them). */
function routeModules(dir = join(REPO_ROOT, 'server')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'sandbox' ? [] : routeModules(join(dir, e.name))) : e.name.endsWith('-routes.ts') ? [join(dir, e.name)] : [],
  );
}

/** The paths of the endpoints whose handlers say `body: 'stream'` (named as `api.<group>.<METHOD>` in the module that makes them). */
function streamingPaths(): string[] {
  const paths: string[] = [];
  for (const file of routeModules()) {
    const source = readFileSync(file, 'utf8');
    const uses = [...source.matchAll(/\bapi((?:\.\w+)+)\.(GET|POST|PUT|PATCH|DELETE)\b/g)];
    uses.forEach((m, i) => {
      const spec = source.slice(m.index, uses[i + 1]?.index ?? source.length);
      if (!/body: 'stream'/.test(spec)) return;
      const group = m[1]!.slice(1).split('.').reduce<Record<string, unknown>>((o, k) => o[k] as Record<string, unknown>, api as unknown as Record<string, unknown>);
      paths.push((group[m[2]!] as { path: string }).path);
    });
  }
  return paths;
}
const named = { 'x-filename': 'a.pdf' };

describe('the proxy matcher', () => {
  it('lets exactly the routes that stream an upload skip it, and only when they name their file', () => {
    const streaming = streamingPaths()
      // The webhook receiver reads its (small) body whole: it meets the proxy's limits like any route.
      .filter((p) => p !== '/api/webhooks/portal');
    // Routes made from one description (kind routes) say 'stream' in the module that makes them, not the file.
    expect([...streaming, '/api/applications/[applicationId]/files', '/api/deal-applications/[dealApplicationId]/files'].sort()).toEqual([...UPLOADS].sort());
    for (const route of routeCatalog()) {
      const path = filled(route.pattern);
      expect(proxied(path, {}), `${path} without X-Filename`).toBe(true);
      expect(proxied(path, named), `${path} with X-Filename`).toBe(!UPLOADS.includes(route.pattern));
    }
  });

  it('sends an upload path with a malformed or odd id, a trailing slash or more segments through it', () => {
    for (const pattern of UPLOADS) {
      for (const id of ['%ZZ', '%C0%AE', 'a%20b', 'a.b', '..']) expect(proxied(filled(pattern, id), named), `${pattern} with ${id}`).toBe(true);
      expect(proxied(`${filled(pattern)}/`, named)).toBe(true);
      expect(proxied(`${filled(pattern)}/more`, named)).toBe(true);
    }
  });

  it('meets every page and unknown path whatever the request names', () => {
    for (const path of ['/', '/sign-in', '/businesses/biz_a', '/invite/abc', '/api/whatever', '/api/webhooks/portal', '/api/auth/sign-in']) {
      expect(proxied(path, named), path).toBe(true);
    }
    expect(proxied('/_next/static/chunks/a.js', {})).toBe(false);
  });
});
