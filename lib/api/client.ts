import { apiFetch } from './api-fetch';
import type { BodyOf, Endpoint, ParamsOf, QueryOf, ReplyOf } from './endpoint';

/**
 * The browser's calls of the BFF, made from the route table (lib/api/endpoints.ts): the path with each
 * parameter encoded once, the query, the body and the reply all have the endpoint's types, so a renamed
 * route or a changed reply fails to type-check here rather than at run time.
 */

type QueryValue = string | number | boolean | null | undefined;

/** A body is only read: a caller may hand over readonly arrays and objects. */
type Frozen<T> = T extends readonly (infer U)[] ? readonly Frozen<U>[] : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;

/** What a call of `E` needs: its path parameters, and its query and body when it has them. */
export type CallInput<E extends Endpoint> = (keyof ParamsOf<E> extends never ? { params?: undefined } : { params: ParamsOf<E> }) &
  (QueryOf<E> extends object ? { query?: QueryOf<E> } : { query?: undefined }) &
  (BodyOf<E> extends undefined ? { body?: undefined } : { body: Frozen<BodyOf<E>> }) & {
    headers?: Record<string, string>;
    signal?: AbortSignal;
  };

/** Calls without parameters, query or body may leave the input out. */
type Args<E extends Endpoint> = keyof ParamsOf<E> extends never ? (BodyOf<E> extends undefined ? [input?: CallInput<E>] : [input: CallInput<E>]) : [input: CallInput<E>];

/** The URL of a call: the path with its parameters (each encoded once) and the query values that are set. */
export function apiUrl<E extends Endpoint>(e: E, ...[input]: Args<E>): string {
  const params = (input?.params ?? {}) as Record<string, string>;
  let path: string = e.path.replace(/\[(\w+)\]/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  if (path.startsWith('{form}')) path = params.form + path.slice('{form}'.length);
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries((input?.query ?? {}) as Record<string, QueryValue>)) {
    if (value !== null && value !== undefined) query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** Calls the route `e` and answers its reply, typed by the endpoint (the BFF built it from parsed values). */
export function callApi<E extends Endpoint>(e: E, ...[input]: Args<E>): Promise<ReplyOf<E>> {
  const url = apiUrl(e, ...([input] as Args<E>));
  return apiFetch(url, { method: e.method, body: input?.body, headers: input?.headers, signal: input?.signal }) as Promise<ReplyOf<E>>;
}

/**
 * A POST with an Idempotency-Key of its own: the retries the BFF's Portal client makes of it reuse the key,
 * another call (another click) gets a new one.
 */
export function callWithNewKey<E extends Endpoint<'POST'>>(e: E, ...[input]: Args<E>): Promise<ReplyOf<E>> {
  const headers = { ...input?.headers, 'Idempotency-Key': crypto.randomUUID() };
  return callApi(e, ...([{ ...input, headers }] as Args<E>));
}
