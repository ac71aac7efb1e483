import { ApiError } from './api-error';
import { parseJson, refusal } from './error-body';

export interface ApiFetchOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * The browser's one way to call the BFF: same-origin JSON, `X-CSRF: 1` on every write (the BFF refuses
 * writes without it), and one error type carrying the BFF's code, message, field details and request id.
 *
 * The success body is returned unparsed: callApi (lib/api/client.ts) types it by the route's endpoint. The
 * BFF built it from replies it parsed with the lib/bff schemas, and parsing here would put zod in every
 * page's JavaScript.
 */
export async function apiFetch(path: string, o: ApiFetchOptions = {}): Promise<unknown> {
  const method = o.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json', ...o.headers };
  if (method !== 'GET') headers['X-CSRF'] = '1';
  if (o.body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
      credentials: 'same-origin',
      signal: o.signal,
    });
  } catch (e) {
    if (o.signal?.aborted) throw e;
    throw new ApiError(0, 'network_error', 'The app could not be reached. Check your connection and try again.');
  }
  const text = await res.text();
  const json = parseJson(text);
  if (!res.ok) throw refusal(res.status, json);
  // Not parsed against a schema, but never taken for data when it is not JSON at all (a proxy's HTML page).
  if (json === null && text.trim() !== '' && text.trim() !== 'null') {
    throw new ApiError(res.status, 'unexpected_reply', `The app answered HTTP ${res.status} with something other than JSON.`);
  }
  return json;
}
