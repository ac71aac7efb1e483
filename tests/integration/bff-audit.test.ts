import { describe, expect, it } from 'vitest';
import { AnswersPageView, AnswersWriteResult } from '@/lib/bff/applications';
import { AuditPageView, type AuditItemView } from '@/lib/bff/audit';
import { BffErrorBody } from '@/lib/bff/errors';
import { InvitationCreated } from '@/lib/bff/invitations';
import { BffClient, signedIn, stackApplication } from './support/bff';

const freshApplication = (name = 'Audit Test Ltd') => stackApplication(name);

/** Writes one plain text answer through the BFF, with the revision and ETag of a fresh read. */
async function writeText(client: BffClient, app: string, value: string, stale?: { etag: string; answers_revision: number }) {
  const page = AnswersPageView.parse((await client.get(`/api/applications/${app}/answers?page_size=500`)).body);
  const text = page.items.find((i) => i.value_type === 'string' && i.allowed_values.length === 0 && i.field_label.length > 0)!;
  const at = stale ?? page;
  return client.patch(`/api/applications/${app}/answers`, {
    ifMatch: at.etag,
    body: { answers_revision: at.answers_revision, answers: [{ block_key: text.block_key, schema_key: text.schema_key, field_key: text.field_key, value }] },
  });
}

const auditOf = (app: string, query = '') => `/api/applications/${app}/audit${query}`;

async function readAudit(staff: BffClient, app: string, query = '') {
  const r = await staff.get(auditOf(app, query));
  expect(r.status, r.text).toBe(200);
  expect(r.headers.get('cache-control')).toBe('private, no-store');
  return AuditPageView.parse(r.body);
}

describe('audit log', () => {
  it('lists the writes made through the BFF on an application, newest first, with upstream request ids', async () => {
    const app = await freshApplication();
    const { client: staff, email } = await signedIn('staff');

    const first = await writeText(staff, app, 'Audit Street Ltd');
    expect(first.status).toBe(200);
    const firstWrite = AnswersWriteResult.parse(first.body);
    const created = await staff.post(`/api/applications/${app}/invitations`, { body: { client_name: 'Audra' } });
    expect(created.status).toBe(201);
    const invitation = InvitationCreated.parse(created.body);

    const client = new BffClient();
    await client.get(new URL(invitation.link).pathname);
    expect((await writeText(client, app, 'Written by the client')).status).toBe(200);
    // A stale write fails upstream (412) and is recorded as a failure, with the upstream request id.
    const stale = await writeText(staff, app, 'Too late', { etag: firstWrite.etag, answers_revision: firstWrite.answers_revision });
    expect(stale.status).toBe(412);
    expect((await staff.post(`/api/invitations/${invitation.invitation.id}/revoke`)).status).toBe(200);

    const page = await readAudit(staff, app);
    expect(page.next_before).toBeNull();
    const summary = (i: AuditItemView) => [i.operation, i.actor_kind, i.outcome, i.status];
    expect(page.items.map(summary)).toEqual([
      ['invitation.revoke', 'user', 'success', 200],
      ['answers.update', 'user', 'failure', 412],
      ['answers.update', 'invitation', 'success', 200],
      ['invitation.create', 'user', 'success', 201],
      ['answers.update', 'user', 'success', 200],
    ]);
    const [revoke, failed, byClient, create, byStaff] = page.items as [AuditItemView, AuditItemView, AuditItemView, AuditItemView, AuditItemView];
    expect(revoke).toMatchObject({ object_type: 'invitation', object_id: invitation.invitation.id, upstream_request_id: null, actor_label: email });
    expect(create).toMatchObject({ object_type: 'invitation', object_id: invitation.invitation.id, actor_label: email });
    expect(byClient.actor_label).toBe(`invitation ${invitation.invitation.id}`);
    for (const i of [failed, byClient, create, byStaff]) expect(i.upstream_request_id).toMatch(/^req_/);
    expect(byStaff.upstream_request_id).toBe(first.headers.get('x-upstream-request-id'));
    expect(failed.upstream_request_id).toBe(BffErrorBody.parse(stale.body).error.request_id);
    const ids = page.items.map((i) => i.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    for (const i of page.items) expect(Number.isNaN(Date.parse(i.at))).toBe(false);

    // Nothing of another application's log.
    expect((await readAudit(staff, await freshApplication())).items).toEqual([]);
  });

  it('pages with limit and before', async () => {
    const app = await freshApplication();
    const { client: staff } = await signedIn('staff');
    for (let i = 0; i < 5; i++) expect((await writeText(staff, app, `Value ${i}`)).status).toBe(200);
    const all = await readAudit(staff, app);
    expect(all.items).toHaveLength(5);

    const seen: number[] = [];
    let before: number | null = null;
    let pages = 0;
    do {
      const page: AuditPageView = await readAudit(staff, app, `?limit=2${before ? `&before=${before}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((i) => i.id));
      before = page.next_before;
      if (before !== null) expect(before).toBe(page.items[page.items.length - 1]!.id);
      pages += 1;
    } while (before !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual(all.items.map((i) => i.id));
  });

  it('checks its query parameters', async () => {
    const { client: staff } = await signedIn('staff');
    for (const q of ['?limit=0', '?limit=201', '?limit=abc', '?before=0', '?before=x', '?page_size=2']) {
      const r = await staff.get(auditOf('ciappl_harbourcafe', q));
      expect(r.status, q).toBe(400);
      expect(BffErrorBody.parse(r.body).error.code).toBe('invalid_request');
    }
    expect((await staff.get(auditOf('ciappl_harbourcafe', '?limit=200'))).status).toBe(200);
  });

  it('is for staff only', async () => {
    const app = await freshApplication();
    const { client: staff } = await signedIn('staff');
    const created = InvitationCreated.parse((await staff.post(`/api/applications/${app}/invitations`, { body: {} })).body);
    const client = new BffClient();
    await client.get(new URL(created.link).pathname);
    const { client: reviewer } = await signedIn('reviewer');
    for (const who of [reviewer, client]) {
      const r = await who.get(auditOf(app));
      expect(r.status).toBe(403);
      expect(BffErrorBody.parse(r.body).error.code).toBe('forbidden');
    }
    expect((await new BffClient().get(auditOf(app))).status).toBe(401);
  });
});
