import { AuditQuery, type AuditItemView } from '@/lib/bff/audit';
import { listAudit, type AuditRecord } from '@/server/audit';
import { route } from '@/server/http/route';
import { ApplicationParams } from '@/server/http/path-params';

const itemView = (r: AuditRecord): AuditItemView => ({
  id: r.id,
  at: r.at.toISOString(),
  actor_kind: r.actorKind,
  actor_label: r.actorLabel,
  operation: r.operation,
  object_type: r.objectType,
  object_id: r.objectId,
  upstream_request_id: r.upstreamRequestId,
  outcome: r.outcome,
  status: r.status,
});

// GET /api/applications/[applicationId]/audit – the writes made through the BFF on the application, newest first (limit, before)
export const GET = route({ roles: ['staff'], params: ApplicationParams, query: AuditQuery }, async ({ params, query, db }) => {
  const page = await listAudit(db, params.applicationId, { limit: query.limit, before: query.before });
  return { body: { items: page.items.map(itemView), next_before: page.nextBefore } };
});
