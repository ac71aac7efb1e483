import 'server-only';
import { AuditQuery, type AuditItemView } from '@/lib/bff/audit';
import { listAudit, type AuditRecord } from '@/server/audit';
import { ApplicationParams } from '@/server/http/path-params';
import { route } from '@/server/http/route';
import { api } from '@/lib/api/endpoints';

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
const application_audit_GET = route(api.application.audit.GET, { roles: ['staff'], params: ApplicationParams, query: AuditQuery }, async ({ params, query, db }) => {
  const page = await listAudit(db, params.applicationId, { limit: query.limit, before: query.before });
  return { body: { items: page.items.map(itemView), next_before: page.nextBefore } };
});

/** The route handlers of audit: each route file under app/api re-exports its methods. */
export const auditRoutes = {
  audit: { GET: application_audit_GET },
};
