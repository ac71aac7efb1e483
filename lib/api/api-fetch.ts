import type { z } from 'zod';
import { BffErrorBody } from '@/lib/bff/errors';
import { ApiError } from './api-error';

export interface ApiFetchOptions<S extends z.ZodType | undefined> {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  /** Parses the success body; without one the body is returned unparsed. */
  schema?: S;
  signal?: AbortSignal;
}

/**
 * The browser's one way to call the BFF: same-origin JSON, `X-CSRF: 1` on every write (the BFF refuses
 * writes without it), and one error type carrying the BFF's code, message, field details and request id.
 */
export async function apiFetch<S extends z.ZodType | undefined = undefined>(
  path: string,
  o: ApiFetchOptions<S> = {},
): Promise<S extends z.ZodType ? z.output<S> : unknown> {
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
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: handled below */
  }
  if (!res.ok) {
    const parsed = BffErrorBody.safeParse(json);
    if (parsed.success) {
      const { code, message, details, request_id } = parsed.data.error;
      throw new ApiError(res.status, code, message, details, request_id, json);
    }
    throw new ApiError(res.status, 'unexpected_reply', `The app answered with HTTP ${res.status}.`);
  }
  return (o.schema ? o.schema.parse(json) : json) as S extends z.ZodType ? z.output<S> : unknown;
}

/**
 * A POST with an Idempotency-Key of its own: the retries the BFF's Portal client makes of it reuse the key,
 * another call (another click) gets a new one.
 */
export function postWithNewKey<T>(path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
  return apiFetch(path, { method: 'POST', body, headers: { 'Idempotency-Key': crypto.randomUUID() }, schema });
}
