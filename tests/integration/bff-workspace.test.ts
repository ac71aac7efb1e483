import { describe, expect, it } from 'vitest';
import { BusinessView, StagesView } from '@/lib/bff/businesses';
import { ReviewInboxView, StaffHomeView, WorkspaceBusinessPage } from '@/lib/bff/workspace';
import { BffClient, bffStack, signedIn } from './support/bff';
import { createBusiness, createDeal, newIdempotencyKey } from './support/bff-businesses';
import { KEYS } from './support/sandbox';
import { poller } from '../support/poller';

const until = poller({ timeoutMs: 15_000, everyMs: 100 });

async function table(client: BffClient, query: Record<string, string> = {}) {
  const r = await client.get(`/api/workspace/businesses?${new URLSearchParams(query)}`);
  expect(r.status, r.text).toBe(200);
  return WorkspaceBusinessPage.parse(r.body);
}

/** A pass asked for with "Refresh now", waited for until it has completed. */
async function reconcileNow(client: BffClient) {
  const before = Date.now();
  const asked = await client.post('/api/workspace/reconcile', { body: {} });
  expect(asked.status, asked.text).toBe(202);
  return until(
    async () => (await client.get<{ last_pass: { completed_at: string | null; upstream_calls: number | null } }>('/api/workspace/reconcile')).body.last_pass,
    (p) => !!p.completed_at && Date.parse(p.completed_at) >= before,
    'a reconcile pass',
    60_000,
  );
}

/** The sandbox's own API with the demo key: changes the BFF did not make. */
async function portal(method: string, path: string, o: { body?: unknown; ifMatch?: string } = {}) {
  const headers: Record<string, string> = { Authorization: `Bearer ${KEYS.full}`, 'Idempotency-Key': newIdempotencyKey('direct') };
  if (o.body !== undefined) headers['Content-Type'] = 'application/json';
  if (o.ifMatch) headers['If-Match'] = o.ifMatch;
  const res = await fetch(`${bffStack().sandboxBaseUrl}${path}`, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
  return { status: res.status, etag: res.headers.get('etag'), body: (await res.json()) as Record<string, unknown> };
}

describe('workspace read model', () => {
  it('is filled by "Refresh now" from the Portal: stage, contact, application status and progress', async () => {
    const { client } = await signedIn('staff');
    const pass = await reconcileNow(client);
    expect(pass.upstream_calls).toBeGreaterThan(0);
    const page = await table(client, { q: 'harbour' });
    const harbour = page.items.find((b) => b.application?.id === 'ciappl_harbourcafe');
    expect(harbour, JSON.stringify(page.items)).toBeDefined();
    expect(harbour!.stage).not.toBeNull();
    expect(harbour!.pipeline).not.toBeNull();
    expect(harbour!.application!.progress_percent).toEqual(expect.any(Number));
    expect(page.freshness.reconciled_at).not.toBeNull();
    expect(page.stages.length).toBeGreaterThan(0);
  });

  it('records the BFF’s own writes at once: a new business is found by its contact, its deal knows its business', async () => {
    const { client } = await signedIn('staff');
    const contact = `Quill ${Date.now().toString(36)}`;
    const { created } = await createBusiness(client, { contact: { full_name: contact, email: `${contact.replace(' ', '.').toLowerCase()}@example.test` } });
    const found = await table(client, { q: contact.toUpperCase() });
    expect(found.items.map((b) => b.id)).toEqual([created.business.id]);
    expect(found.items[0]!.contact_name).toBe(contact);
    // Stage and status arrive with the background read that follows the write.
    await until(async () => (await table(client, { q: contact })).items[0]?.stage, (s) => !!s, 'the new business’s stage');
    const { deal } = await createDeal(client, { business_id: created.business.id });
    const { dealsOfBusiness } = await import('@/server/read-model/queries');
    const { bffDb } = await import('./support/bff');
    expect((await dealsOfBusiness(await bffDb(), created.business.id)).map((d) => d.id)).toEqual([deal.id]);
  });

  it('follows a stage move made directly in the Portal through its webhook', async () => {
    const { client } = await signedIn('staff');
    const { created } = await createBusiness(client);
    const id = created.business.id;
    await until(async () => (await table(client, { q: created.business.name! })).items[0]?.stage, (s) => !!s, 'the first read');
    const business = BusinessView.parse((await client.get<{ business: unknown }>(`/api/businesses/${id}`)).body.business);
    const stages = StagesView.parse((await client.get(`/api/businesses/${id}/stages`)).body);
    const target = stages.items.find((s) => s.id !== business.workflow.stage.id)!;
    const moved = await portal('POST', `businesses/${id}/stage-transitions/`, { body: { stage_id: target.id }, ifMatch: business.etag });
    expect(moved.status).toBe(200);
    const row = await until(async () => (await table(client, { q: created.business.name! })).items[0], (b) => b?.stage?.id === target.id, 'the webhook’s stage');
    expect(row!.stage!.name).toBe(target.name);
    const filtered = await table(client, { stage: target.id, q: created.business.name! });
    expect(filtered.total).toBe(1);
  });

  it('searches, filters, sorts and pages in the database, with the query checked', async () => {
    const { client } = await signedIn('staff');
    const byName = await table(client, { sort: 'name', dir: 'asc', page_size: '5' });
    const names = byName.items.map((b) => (b.name ?? '').toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(byName.page_size).toBe(5);
    const second = await table(client, { sort: 'name', dir: 'asc', page_size: '5', page: '2' });
    expect(second.items.map((b) => b.id)).not.toContain(byName.items[0]?.id);
    const newest = await table(client);
    expect(newest.sort).toBe('activity');
    expect(newest.dir).toBe('desc');
    const times = newest.items.map((b) => b.last_activity_at ?? '');
    expect(times).toEqual([...times].sort().reverse());
    const complete = await table(client, { progress: 'complete' });
    expect(complete.items.every((b) => b.application?.progress_percent === 100)).toBe(true);
    const bad = await client.get('/api/workspace/businesses?sort=colour');
    expect(bad.status).toBe(400);
    const unknown = await client.get('/api/workspace/businesses?owner=me');
    expect(unknown.status).toBe(400);
    expect(await table(client, { q: '%_\\' })).toMatchObject({ total: 0 });
  });

  it('serves staff home to staff and the review inbox to reviewers, each with its freshness', async () => {
    const { client: staff } = await signedIn('staff');
    const home = StaffHomeView.parse((await staff.get('/api/workspace/home')).body);
    expect(home.total_businesses).toBe(home.stage_counts.reduce((n, c) => n + c.count, 0));
    expect(home.waiting_days).toBe(7);
    const { client: reviewer } = await signedIn('reviewer');
    const inbox = ReviewInboxView.parse((await reviewer.get('/api/workspace/review-inbox')).body);
    const oldest = inbox.items.map((i) => i.oldest_pending_at ?? '');
    expect(oldest).toEqual([...oldest].sort());
    expect((await reviewer.get('/api/workspace/businesses')).status).toBe(403);
    expect((await reviewer.get('/api/workspace/home')).status).toBe(403);
    expect((await reviewer.post('/api/workspace/reconcile', { body: {} })).status).toBe(403);
  });
});
