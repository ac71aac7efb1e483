import 'server-only';
import type { z } from 'zod';
import type { Endpoint, ReplyOf } from '@/lib/api/endpoint';
import { StageTransitionInput } from '@/lib/bff/businesses';
import { withConflictReply } from '@/server/http/conflict-reply';
import { etagHeader, requireIdempotencyKey, requireIfMatch } from '@/server/http/headers';
import { route } from '@/server/http/route';
import type { Db } from '@/server/db/types';
import { portalRequest, type PortalPath } from '@/server/portal';
import { readWorkflowStages, type StagePage } from './stages';

/** What a reply shows, and the application the audit log files the write under when the object names one. */
export interface Shown<B = unknown> {
  body: B;
  applicationId?: string | null;
}

/** Something that moves through a pipeline's stages (a business, a deal): how it is read and moved. */
export interface WorkflowObject<Id extends string, R, T, S extends Endpoint, X extends Endpoint> {
  /** Its two routes (lib/api/endpoints.ts): the stages, and a move. */
  endpoints: { stages: S; stageTransitions: X };
  /** The path segment naming it, and the schema of the route's path parameters. */
  idParam: Id;
  params: z.ZodType<{ [K in Id]: string }>;
  read: (id: string) => Promise<{ data: R; etag: string | null }>;
  workflowOf: (r: R) => { stages_url: string; pipeline: { id: string; name: string }; stage: { id: string } };
  stagePage: StagePage;
  /** The object as a 412 shows it (`current`). */
  current: (r: R, etag: string) => Shown;
  transition: {
    path: (id: string) => PortalPath;
    schema: z.ZodType<T>;
    reply: (result: T, etag: string) => Shown<ReplyOf<X>>;
    /** Records the move in the workspace's read model. */
    record: (db: Db, id: string, result: T) => Promise<void>;
  };
  /** The audit log's names, kept as they have always been recorded. */
  audit: { operation: string; type: string };
}

/**
 * GET …/stages (the targets of a move, in order) and POST …/stage-transitions (the move, with If-Match and
 * an Idempotency-Key; a 412 comes back with the object as it is now), for staff, made from a description.
 */
export function workflowRoutes<Id extends string, R, T, S extends Endpoint, X extends Endpoint>(o: WorkflowObject<Id, R, T, S, X>) {
  const stages = route(o.endpoints.stages, { roles: ['staff'], params: o.params }, async ({ params }) => {
    const object = await o.read(params[o.idParam]);
    const read = await readWorkflowStages(o.workflowOf(object.data), o.stagePage);
    return { body: read.view };
  });

  const stageTransitions = route(
    o.endpoints.stageTransitions,
    {
      roles: ['staff'],
      params: o.params,
      body: StageTransitionInput,
      audit: { operation: o.audit.operation, object: ({ params }) => ({ type: o.audit.type, id: params[o.idParam] }) },
    },
    async ({ params, body, req, db, auditObject }) => {
      const id = params[o.idParam];
      const ifMatch = requireIfMatch(req);
      const idempotencyKey = requireIdempotencyKey(req);
      const filed = <B>(shown: Shown<B>) => {
        if (shown.applicationId !== undefined) auditObject({ applicationId: shown.applicationId });
        return shown.body;
      };
      return withConflictReply(
        async () => {
          const res = await portalRequest({ method: 'POST', path: o.transition.path(id), schema: o.transition.schema, body, ifMatch, idempotencyKey });
          await o.transition.record(db, id, res.data);
          const etag = res.etag ?? '';
          return { body: filed(o.transition.reply(res.data, etag)), headers: etagHeader(etag) };
        },
        // Someone moved or changed it first: show where it is now.
        async () => {
          const now = await o.read(id);
          return { current: filed(o.current(now.data, now.etag ?? '')), etag: now.etag };
        },
      );
    },
  );

  return { stages: { GET: stages }, stageTransitions: { POST: stageTransitions } };
}
