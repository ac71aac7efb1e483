import 'server-only';
import { currentRequest } from '@/server/context/request-context';
import type { Db } from '@/server/db/types';
import { currentTraceparent } from '@/server/ops/tracing';
import { recordAuditGrouped } from './audit-batch';

/** What an audited write touched. */
export interface AuditObject {
  type: string;
  id: string;
  applicationId?: string | null;
}

/**
 * The audit row of the write the current request made: the actor is the request's session and the upstream
 * Request-Id the one its Portal calls named (server/context), so no caller passes either by hand.
 */
export async function recordRequestAudit(
  db: Db,
  operation: string,
  object: AuditObject,
  outcome: 'success' | 'failure',
  status: number,
): Promise<void> {
  const context = currentRequest();
  const s = context?.session;
  if (!s) throw new Error('recordRequestAudit: no signed-in request is being handled');
  // The trace of the request (W3C traceparent), so an audit row leads to its spans and the Portal's.
  const traceparent = currentTraceparent();
  await recordAuditGrouped(db, {
    actorKind: s.kind === 'user' ? 'user' : 'invitation',
    actorId: s.kind === 'user' ? s.userId : s.invitationId,
    actorLabel: s.kind === 'user' ? s.userEmail : `invitation ${s.invitationId}`,
    operation,
    objectType: object.type,
    objectId: object.id,
    applicationId: object.applicationId ?? null,
    upstreamRequestId: context.upstream.requestId,
    outcome,
    status,
    ...(traceparent ? { detail: { traceparent } } : {}),
  });
}
