/**
 * What a Portal offers, read from its /openapi.json (the spec guarantees that document, limited to what the key
 * may use): which operations exist and which query parameters each takes. Pure: discovery.ts loads it.
 */

export interface PortalOperation {
  method: string;
  /** The path below the base URL, `{name}` for a parameter, e.g. `businesses/{id}/status/`. */
  template: string;
  /** Names of the query parameters the document lists for it. */
  query: ReadonlySet<string>;
  /** The largest page_size the document allows, when it says. */
  pageSizeMax: number | null;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'] as const;

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const segmentsOf = (path: string) => path.split('/').filter(Boolean);
const isParam = (segment: string) => /^\{[^}]+\}$/.test(segment);

function resolveRef(doc: Record<string, unknown>, value: unknown): unknown {
  if (!isRecord(value) || typeof value.$ref !== 'string' || !value.$ref.startsWith('#/')) return value;
  let at: unknown = doc;
  for (const part of value.$ref.slice(2).split('/')) at = isRecord(at) ? at[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return at;
}

function queryParameters(doc: Record<string, unknown>, ...lists: unknown[]): { names: Set<string>; pageSizeMax: number | null } {
  const names = new Set<string>();
  let pageSizeMax: number | null = null;
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const p = resolveRef(doc, raw);
      if (!isRecord(p) || p.in !== 'query' || typeof p.name !== 'string') continue;
      names.add(p.name);
      const schema = resolveRef(doc, p.schema);
      if (p.name === 'page_size' && isRecord(schema) && typeof schema.maximum === 'number' && schema.maximum >= 1) pageSizeMax = Math.floor(schema.maximum);
    }
  }
  return { names, pageSizeMax };
}

/** The path part of a server URL (absolute or relative), without a trailing slash. */
function serverPath(doc: Record<string, unknown>): string {
  const servers = doc.servers;
  const first = Array.isArray(servers) && isRecord(servers[0]) && typeof servers[0].url === 'string' ? servers[0].url : '';
  try {
    return new URL(first, 'http://server.invalid').pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

export class PortalCapabilities {
  private constructor(
    /** 'document': read from the Portal's /openapi.json; 'spec': only what the spec guarantees (the document could not be read). */
    readonly source: 'document' | 'spec',
    readonly operations: readonly PortalOperation[],
    /** The base URL's path (`/v1/`): what a target's path is taken relative to. */
    private readonly basePath: string,
  ) {}

  /** From an OpenAPI document; paths are taken relative to its server URL, or to the base path when they include it. */
  static fromDocument(doc: unknown, baseUrl: URL): PortalCapabilities {
    const basePath = baseUrl.pathname.endsWith('/') ? baseUrl.pathname : `${baseUrl.pathname}/`;
    const operations: PortalOperation[] = [];
    if (isRecord(doc) && isRecord(doc.paths)) {
      const prefix = serverPath(doc);
      for (const [path, item] of Object.entries(doc.paths)) {
        if (!isRecord(item)) continue;
        const full = `${prefix}/${path.replace(/^\/+/, '')}`;
        // Below the base path when the document's paths (with its server URL) say where; else taken as relative to it.
        const relative = full.startsWith(basePath) ? full.slice(basePath.length) : path.replace(/^\/+/, '');
        for (const method of METHODS) {
          const op = item[method];
          if (!isRecord(op)) continue;
          const { names, pageSizeMax } = queryParameters(doc, item.parameters, op.parameters);
          operations.push({ method: method.toUpperCase(), template: relative, query: names, pageSizeMax });
        }
      }
    }
    return new PortalCapabilities('document', operations, basePath);
  }

  /** The three operations the spec fixes (4.1), for when the document cannot be read. */
  static specOnly(baseUrl: URL): PortalCapabilities {
    const basePath = baseUrl.pathname.endsWith('/') ? baseUrl.pathname : `${baseUrl.pathname}/`;
    const none = new Set<string>();
    return new PortalCapabilities(
      'spec',
      [
        { method: 'GET', template: '', query: none, pageSizeMax: null },
        { method: 'GET', template: 'openapi.json', query: none, pageSizeMax: null },
        { method: 'GET', template: 'businesses/', query: new Set(['page_size', 'cursor']), pageSizeMax: null },
      ],
      basePath,
    );
  }

  /**
   * The operation a request would reach: `target` is a path below the base URL (`businesses/biz_1/status/`, or a
   * template such as `businesses/{id}/status/`) or an absolute URL returned by a read. A literal segment beats a
   * parameter where both match; a trailing slash does not matter.
   */
  find(method: string, target: string | URL): PortalOperation | null {
    const path = this.relativePath(target);
    if (path === null) return null;
    const parts = segmentsOf(path);
    let best: PortalOperation | null = null;
    let bestLiterals = -1;
    for (const op of this.operations) {
      if (op.method !== method.toUpperCase()) continue;
      const segs = segmentsOf(op.template);
      if (segs.length !== parts.length) continue;
      let literals = 0;
      let ok = true;
      for (let i = 0; i < segs.length && ok; i++) {
        if (isParam(segs[i]!)) continue;
        if (isParam(parts[i]!) || segs[i] !== parts[i]) ok = false;
        else literals += 1;
      }
      if (ok && literals > bestLiterals) {
        best = op;
        bestLiterals = literals;
      }
    }
    return best;
  }

  has(method: string, target: string | URL): boolean {
    return this.find(method, target) !== null;
  }

  /** Whether the operation exists and lists this query parameter. */
  accepts(method: string, target: string | URL, parameter: string): boolean {
    return this.find(method, target)?.query.has(parameter) ?? false;
  }

  private relativePath(target: string | URL): string | null {
    if (typeof target === 'string' && !/^[a-z][a-z0-9+.-]*:/i.test(target)) return target.replace(/^\/+/, '');
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return null;
    }
    // Path parameters appear as `{name}` in templates only: a URL's own braces are percent-encoded.
    return url.pathname.startsWith(this.basePath) ? url.pathname.slice(this.basePath.length) : null;
  }
}
