/**
 * What a BFF route is, as both sides know it: its method and path, and — as types only, nothing at run time
 * — its query, body and reply. The browser calls a route through its endpoint (lib/api/client.ts) and the
 * server's handler is typed by the same endpoint (server/http/route.ts), so a route renamed, moved or
 * answering another shape fails to type-check where it is called. Plain data: no zod reaches the browser.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A path template: `[name]` is one encoded segment; a leading `{form}` is the base of the application-like
 * resource a form works on (an intake application's, a deal application's or a project's criteria path).
 */
type ParamNames<P extends string> = P extends `${string}[${infer Name}]${infer Rest}` ? Name | ParamNames<Rest> : never;

/** Where an application-like resource's routes live; a form is handed one of these. */
export type FormBase = `/api/applications/${string}` | `/api/deal-applications/${string}` | `/api/projects/${string}/criteria`;

export type PathParams<P extends string> = { [K in ParamNames<P>]: string } & (P extends `{form}${string}` ? { form: FormBase } : unknown);

interface Shape {
  query?: object;
  body?: unknown;
  reply: unknown;
}

export interface Endpoint<M extends Method = Method, P extends string = string, S extends Shape = Shape> {
  readonly method: M;
  readonly path: P;
  /** Types only (never set): what the route takes and answers. */
  readonly shape?: S;
}

type ShapeOf<E extends Endpoint> = NonNullable<E['shape']>;
export type ReplyOf<E extends Endpoint> = ShapeOf<E>['reply'];
/** undefined when the route takes no query. */
export type QueryOf<E extends Endpoint> = ShapeOf<E> extends { query: infer Q } ? Q : undefined;
/** undefined when the route takes no body. */
export type BodyOf<E extends Endpoint> = ShapeOf<E> extends { body: infer B } ? B : undefined;
export type ParamsOf<E extends Endpoint> = PathParams<E['path']>;

/** Declares one route: `endpoint<{ reply: DealReply }>()('GET', '/api/deals/[dealId]')`. */
export const endpoint =
  <S extends Shape>() =>
  <M extends Method, P extends string>(method: M, path: P): Endpoint<M, P, S> => ({ method, path });
