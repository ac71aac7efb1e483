import 'server-only';
import type { Endpoint, ReplyOf } from '@/lib/api/endpoint';
import { route, type RouteContext, type RouteResult, type RouteSpec } from '@/server/http/route';
import type { AnyApplicationKind } from './kind';
import type { ApplicationLinks } from './kind-links';
import type { KindParams } from './kind-params';

export interface KindRouteContext<P, Q, B, L> extends RouteContext<P, Q, B> {
  /** The application the path names. */
  id: string;
  /** Its links, read once per application and kept (only routes that reach below the application ask). */
  links: () => Promise<L>;
}

/**
 * A route below one application of a kind: route() with the kind's client check (a client session reaches
 * only its invited application) and the application's id and links at hand.
 */
export function kindRoute<E extends Endpoint, Id extends string, L extends ApplicationLinks, P extends KindParams<Id>, Q = undefined, B = undefined>(
  kind: AnyApplicationKind<Id, L>,
  endpoint: E,
  spec: Omit<RouteSpec<P, Q, B>, 'application'>,
  handle: (ctx: KindRouteContext<P, Q, B, L>) => Promise<RouteResult<ReplyOf<E>>>,
) {
  return route<E, P, Q, B>(endpoint, { ...spec, application: ({ params }) => params[kind.idParam] }, (ctx) => {
    const id = ctx.params[kind.idParam];
    return handle({ ...ctx, id, links: () => kind.links.get(id) });
  });
}
