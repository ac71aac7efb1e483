import 'server-only';
import type { Endpoint, ReplyOf } from '@/lib/api/endpoint';
import { AppError } from '@/server/http/app-error';
import { reviewStateOf } from '@/server/review/review-state';
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
  return route<E, P, Q, B>(endpoint, { ...spec, application: ({ params }) => params[kind.idParam] }, async (ctx) => {
    const id = ctx.params[kind.idParam];
    // While staff review it, the client's form is read-only: answers, items and files alike.
    if (kind.reviewed && ctx.session?.kind === 'client' && ctx.req.method !== 'GET' && (await reviewStateOf(ctx.db, id)).state === 'in_review') {
      const message = 'Your application is with the team for review: answers cannot be changed until they reply.';
      throw new AppError('conflict', message, [{ code: 'in_review', message }]);
    }
    return handle({ ...ctx, id, links: () => kind.links.get(id) });
  });
}
