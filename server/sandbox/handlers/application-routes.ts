import type { Permission } from '@/lib/portal';
import type { Ctx, Reply, RouteDef } from '../http/context';
import type { ApplicationRec } from '../store/types';
import { applicationOf, assertOpen, type ApplicationKindSpec } from './application-kinds';

/** An operation below one application; `path` is below `{segment}/{id}/`. */
interface ApplicationRouteDef extends Omit<RouteDef, 'path' | 'access' | 'tag' | 'handle'> {
  path: string;
  /** Sufficient permissions; by default the kind's read permissions for GET and its write permissions otherwise. */
  access?: Permission[];
  /** A write to the application itself: refused with 409 once it is submitted, before anything else is checked. */
  open?: boolean;
  handle(ctx: Ctx, app: ApplicationRec): Promise<Reply> | Reply;
}

/**
 * Operations below one application of a kind, under one OpenAPI tag. Each handler gets the application:
 * the id must name one of this kind (404 otherwise, so a deal application is not found at an intake path).
 */
export function belowApplication(spec: ApplicationKindSpec, tag: string, defs: ApplicationRouteDef[]): RouteDef[] {
  return defs.map(({ path, access, open, handle, ...def }) => ({
    ...def,
    path: `${spec.segment}/:id/${path}`,
    access: access ?? (def.method === 'GET' ? spec.read : spec.write),
    tag,
    handle: (ctx) => {
      const app = applicationOf(ctx.sb, spec, ctx.params.id!);
      if (open) assertOpen(app);
      return handle(ctx, app);
    },
  }));
}
