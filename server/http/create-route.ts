import 'server-only';
import type { z } from 'zod';
import type { Endpoint, ReplyOf } from '@/lib/api/endpoint';
import type { Db } from '@/server/db/types';
import { portalRequest, type PortalPath } from '@/server/portal';
import { requireIdempotencyKey } from './headers';
import { auditCreate, route, type AuditObject, type RouteResult } from './route';

/** What makes one kind of object: its audit type, the body the browser sends, and the Portal's create. */
export interface Creation<B, S extends z.ZodType> {
  type: string;
  body: z.ZodType<B>;
  path: () => PortalPath;
  schema: S;
}

export interface Created<B, T> {
  data: T;
  etag: string | null;
  body: B;
  db: Db;
  auditObject: (update: Partial<AuditObject>) => void;
}

/**
 * POST of a new object for staff: the Idempotency-Key the browser sent (required, so a retry cannot create
 * twice) goes with the create to the Portal, the call is audited as `<type>.create`, and `done` records the
 * new object and answers.
 */
export function createRoute<E extends Endpoint, B, S extends z.ZodType>(
  endpoint: E,
  creation: Creation<B, S>,
  done: (created: Created<B, z.output<S>>) => Promise<RouteResult<ReplyOf<E>>>,
) {
  return route(endpoint, { roles: ['staff'], body: creation.body, audit: auditCreate(creation.type) }, async ({ body, req, db, auditObject }) => {
    const idempotencyKey = requireIdempotencyKey(req);
    const res = await portalRequest({ method: 'POST', path: creation.path(), schema: creation.schema, body, idempotencyKey });
    return done({ data: res.data, etag: res.etag, body, db, auditObject });
  });
}
