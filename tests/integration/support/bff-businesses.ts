import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { BusinessCreatedView } from '@/lib/bff/businesses';
import { DealView } from '@/lib/bff/deals';
import type { AuditRow } from '@/server/audit';
import { createClientSession, sealSessionId, sessionCookieName } from '@/server/auth';
import { createInvitation } from '@/server/invitations';
import { SENTINEL_API_KEY, SENTINEL_SESSION_SECRET } from '../../support/bff-stack';
import { BffClient, bffDb, bffStack, newUser, signedIn, type CallOptions, type Reply } from './bff';

/** Helpers of the staff routes' tests (businesses, deals, deal applications). */

export const newIdempotencyKey = (label = 'action') => `${label}-${randomBytes(8).toString('hex')}`;

/** The sandbox's host: no reply body may carry it (bar a business's invitation_url). */
export const portalHost = () => new URL(bffStack().sandboxBaseUrl).host;

export function expectNoPortalUrl(r: Reply) {
  expect(r.text.includes(portalHost()), `a Portal URL in ${r.text.slice(0, 300)}`).toBe(false);
  expect(r.text.includes(SENTINEL_API_KEY)).toBe(false);
}

/**
 * A client session for an intake application: an invitation row, then its link opened the way a client's
 * browser opens it. Where /invite/<token> does not answer with a session, the session is made the way
 * redemption makes one (a server-side record and the sealed cookie the browser would hold).
 */
export async function clientSession(applicationId = 'ciappl_harbourcafe'): Promise<BffClient> {
  const db = await bffDb();
  const staff = await newUser('staff');
  const { invitation, token } = await createInvitation(db, { applicationId, createdBy: staff.user.id });
  const client = new BffClient();
  const opened = await client.get(`/invite/${token}`);
  if (opened.status === 303 && client.cookies.size > 0) return client;
  const { sid } = await createClientSession(db, invitation);
  const seal = await sealSessionId(sid, { password: SENTINEL_SESSION_SECRET, appOrigin: client.base, maxAgeSeconds: 3600 });
  client.cookies.set(sessionCookieName(false), seal);
  return client;
}

export interface RouteCall {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
}

const send = (client: BffClient, c: RouteCall, o: CallOptions = {}) =>
  client.call(c.method, c.path, { ...o, body: c.body ?? (c.method === 'GET' || c.method === 'DELETE' ? undefined : {}) });

/** Every route refuses the signed-out (401), reviewers (403) and clients (403), before touching the Portal. */
export async function expectStaffOnly(calls: RouteCall[]) {
  const reviewer = (await signedIn('reviewer')).client;
  const client = await clientSession();
  // The client session must be live, so its 403s are about the role and not a broken cookie.
  expect((await client.get('/api/applications/ciappl_harbourcafe')).status).toBe(200);
  const anonymous = new BffClient();
  const headers = { 'If-Match': '"x"', 'Idempotency-Key': newIdempotencyKey() };
  for (const c of calls) {
    const where = `${c.method} ${c.path}`;
    expect((await send(anonymous, c, { headers })).status, `${where} signed out`).toBe(401);
    const asReviewer = await send(reviewer, c, { headers });
    expect(asReviewer.status, `${where} as reviewer`).toBe(403);
    expect((asReviewer.body as { error: { code: string } }).error.code).toBe('forbidden');
    const asClient = await send(client, c, { headers });
    expect(asClient.status, `${where} as client`).toBe(403);
    expect((asClient.body as { error: { code: string } }).error.code).toBe('forbidden');
  }
}

type AuditRowSeen = Pick<AuditRow, 'operation' | 'object_type' | 'object_id' | 'application_id' | 'upstream_request_id' | 'outcome' | 'status' | 'actor_label'>;

const AUDIT_COLUMNS = 'operation, object_type, object_id, application_id, upstream_request_id, outcome, status, actor_label';

/** The audit rows of one operation on one object, oldest first. */
export async function auditRows(operation: string, objectId: string) {
  const db = await bffDb();
  return db.query<AuditRowSeen>(`SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE operation = $1 AND object_id = $2 ORDER BY id`, [operation, objectId]);
}

/** The audit rows of one operation within one application, oldest first. */
export async function auditRowsOfApplication(operation: string, applicationId: string) {
  const db = await bffDb();
  return db.query<AuditRowSeen>(`SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE operation = $1 AND application_id = $2 ORDER BY id`, [
    operation,
    applicationId,
  ]);
}

/** A new business through the BFF, so a test writes without touching state other files rely on. */
export async function createBusiness(client: BffClient, body: Record<string, unknown> = {}) {
  const r = await client.post('/api/businesses', {
    body: { name: `BFF Test ${randomBytes(4).toString('hex')} Ltd`, ...body },
    idempotencyKey: newIdempotencyKey('business'),
  });
  expect(r.status, r.text).toBe(201);
  return { reply: r, created: BusinessCreatedView.parse(r.body) };
}

/** A new deal (for a new business unless one is given) through the BFF. */
export async function createDeal(client: BffClient, body: { business_id?: string; recipient_id?: string } = {}) {
  const businessId = body.business_id ?? (await createBusiness(client)).created.business.id;
  const r = await client.post<{ deal: unknown }>('/api/deals', {
    body: { name: `Deal ${randomBytes(3).toString('hex')}`, ...body, business_id: businessId },
    idempotencyKey: newIdempotencyKey('deal'),
  });
  expect(r.status, r.text).toBe(201);
  return { reply: r, deal: DealView.parse(r.body.deal) };
}
