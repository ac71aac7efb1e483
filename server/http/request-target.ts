/*
 * No 'server-only' import: proxy.ts runs this before any route or page, and the proxy bundle is not a
 * React server bundle. Nothing here touches a secret.
 */

/** Why a request target is refused, naming the part (`path` or the query parameter) at fault. */
export interface MalformedTarget {
  parameter: string;
  message: string;
  /** The detail's code; `malformed_encoding` unless said. */
  code?: string;
}

/** What Next.js holds in memory of a body its proxy sees, and cuts beyond (experimental.proxyClientMaxBodySize). */
export const PROXY_BODY_LIMIT = 10 * 1024 * 1024;

/**
 * A body the proxy would have to hold whole and might cut: larger than its limit, or of unknown length.
 * Only the upload routes take such a body, when it names its file in X-Filename (they skip the proxy, see its
 * matcher, so they stream); any other request with one is refused rather than passed on cut short.
 */
export function unheldBody(headers: Headers): MalformedTarget | null {
  const length = headers.get('content-length');
  const chunked = (headers.get('transfer-encoding') ?? '').toLowerCase().includes('chunked');
  if ((length !== null && Number(length) > PROXY_BODY_LIMIT) || (length === null && chunked)) {
    return {
      parameter: 'X-Filename',
      code: 'upload_not_named',
      message: 'A body over 10 MB or of unknown length is taken only by an upload route, with its file named in X-Filename.',
    };
  }
  return null;
}

/** The path and query of a request as the client sent them (Request.url keeps percent-escapes as they came). */
export function rawTarget(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  return start === -1 ? '/' : url.slice(start);
}

/** The JSON refusal of a malformed target or an unheld body, in the API's error shape. */
export function targetRefusalBody(bad: MalformedTarget) {
  return {
    error: {
      code: 'invalid_request',
      message: bad.message,
      request_id: null,
      details: [{ code: bad.code ?? 'malformed_encoding', message: bad.message, parameter: bad.parameter }],
    },
  };
}

// C0 controls (NUL first) and DEL have no business in a path or a query, encoded or not.
const CONTROL = /[\u0000-\u001f\u007f]/;

function decodes(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/**
 * Checks the raw path and query of a request before Next.js decodes them for a route or a page: a bad
 * percent-escape (`%ZZ`), one that is not UTF-8 (`%C0%AE`, an overlong `.`), or a control character
 * would otherwise throw inside the framework (a plain-text 500) or reach a handler half-decoded.
 */
export function malformedTarget(url: string): MalformedTarget | null {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  for (const segment of path.split('/')) {
    const decoded = decodes(segment);
    if (decoded === null) return { parameter: 'path', message: 'The address holds a malformed percent-encoding (not UTF-8).' };
    if (CONTROL.test(decoded)) return { parameter: 'path', message: 'The address holds a control character.' };
  }
  if (q === -1) return null;
  for (const pair of url.slice(q + 1).split('&')) {
    const eq = pair.indexOf('=');
    const name = decodes((eq === -1 ? pair : pair.slice(0, eq)).replace(/\+/g, ' '));
    const value = eq === -1 ? '' : decodes(pair.slice(eq + 1).replace(/\+/g, ' '));
    const parameter = name !== null && !CONTROL.test(name) && name.length <= 100 ? name : 'query';
    if (name === null || value === null) return { parameter, message: 'A query parameter holds a malformed percent-encoding (not UTF-8).' };
    if (CONTROL.test(name) || CONTROL.test(value)) return { parameter, message: 'A query parameter holds a control character.' };
  }
  return null;
}
