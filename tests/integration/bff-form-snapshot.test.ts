import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AnswersPageView, AnswersWriteResult, ContractView } from '@/lib/bff/applications';
import { BffErrorBody } from '@/lib/bff/errors';
import { FilesPageView, FileUploadResult } from '@/lib/bff/files';
import { FormSnapshotView } from '@/lib/bff/form-snapshot';
import { ItemWriteResult, ItemsPageView, type RepeatableItemView } from '@/lib/bff/items';
import type { RunningSandbox } from '@/server/sandbox/server';
import { freshApplication } from './support/applications';
import { BffClient, bffStack, clientSessionFor, signedIn, type Reply } from './support/bff';
import { createDeal, expectNoPortalUrl, expectStaffOnly } from './support/bff-businesses';
import { KEYS, SandboxClient } from './support/sandbox';
import { callsSince as loggedCallsSince, upstreamCalls as loggedCalls, type UpstreamCall } from './support/upstream-log';

/*
 * GET /api/applications/[applicationId]/form (and the deal application's): everything the form page opens
 * with in one request. Checked against the separate routes, for who may read it, and for what it costs
 * upstream — counted from the BFF's own log, which has one "portal request" line per upstream call.
 */

const BRIGHTPATH = 'ciappl_brightpath';
const portal = () => new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full);

async function form(client: BffClient, appId: string) {
  const r = await client.get(`/api/applications/${appId}/form`);
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  return { reply: r, snapshot: FormSnapshotView.parse(r.body) };
}

/** Every page of a paged BFF route, for comparison. */
async function allPages<T>(client: BffClient, path: string, pageSize: number, parse: (body: unknown) => { items: T[]; next_cursor: string | null }) {
  const items: T[] = [];
  const replies: Reply[] = [];
  let cursor: string | null = null;
  do {
    const q = new URLSearchParams({ page_size: String(pageSize), ...(cursor ? { cursor } : {}) });
    const r = await client.get(`${path}?${q}`);
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    const page = parse(r.body);
    items.push(...page.items);
    replies.push(r);
    cursor = page.next_cursor;
  } while (cursor);
  return { items, replies };
}

/** A PDF through the BFF files route, the way the upload control sends it. */
async function uploadPdf(client: BffClient, appId: string) {
  const bytes = new Uint8Array(randomBytes(1024));
  bytes.set(new TextEncoder().encode('%PDF-1.4\n'));
  const target = new URLSearchParams({ block_key: 'bank_statements', schema_key: 'bank_statements', field_key: 'files' });
  const res = await fetch(`${client.base}/api/applications/${appId}/files?${target}`, {
    method: 'POST',
    headers: { Cookie: client.cookieHeader(), 'X-CSRF': '1', Origin: client.base, 'Content-Type': 'application/pdf', 'X-Filename': 'statement.pdf' },
    body: bytes,
  });
  const text = await res.text();
  expect(res.status, text).toBe(201);
  return FileUploadResult.parse(JSON.parse(text)).file;
}

/** The upstream calls the BFF logged for one application (its id is in every path below it). */
const upstreamCalls = (appId: string) => loggedCalls(`/${appId}/`);
/** Those logged since `before` calls, once the log has settled. */
const callsSince = (appId: string, before: number) => loggedCallsSince(`/${appId}/`, before);

const byKind = (calls: UpstreamCall[]) => {
  const kind = (p: string) => p.replace(/^\/v1\/client-intake-applications\/[^/]+\//, '').split('/')[0] || 'application';
  const counts: Record<string, number> = {};
  for (const c of calls) counts[kind(c.path)] = (counts[kind(c.path)] ?? 0) + 1;
  return counts;
};

const itemKey = (i: RepeatableItemView) => i.item_id;

describe('GET /api/applications/[applicationId]/form', () => {
  it('gives staff the partially filled Brightpath application as the separate routes give it, without a Portal URL', async () => {
    const { client: staff } = await signedIn('staff');
    const uploaded = await uploadPdf(staff, BRIGHTPATH);
    const base = `/api/applications/${BRIGHTPATH}`;

    const { reply, snapshot } = await form(staff, BRIGHTPATH);
    expect(reply.headers.get('cache-control')).toBe('private, no-store');
    expect(reply.headers.get('etag')).toBe(snapshot.answers.etag);
    expectNoPortalUrl(reply);
    expect(snapshot.application).toMatchObject({ id: BRIGHTPATH, kind: 'client_intake', business: { id: 'biz_brightpath' } });

    // Answers: every page of the answers route, same revision and ETag (the one the browser quotes in If-Match).
    const answers = await allPages(staff, `${base}/answers`, 500, (b) => AnswersPageView.parse(b));
    const lastAnswers = AnswersPageView.parse(answers.replies.at(-1)!.body);
    expect(snapshot.answers.items).toEqual(answers.items);
    expect(snapshot.answers.answers_revision).toBe(lastAnswers.answers_revision);
    expect(snapshot.answers.etag).toBe(lastAnswers.etag);
    expect(snapshot.answers.items.length).toBeGreaterThan(30);

    // Contract: the same as the contract route (no write in between, so the same answers_revision too).
    const contract = await staff.get<{ contract: unknown }>(`${base}/contract`);
    expect(contract.status).toBe(200);
    expect(snapshot.contract).toEqual(ContractView.parse(contract.body.contract));

    // Items: every item of every listable group, nested owner addresses included.
    const groups = snapshot.contract.repeatable_groups.filter((g) => g.item_operations.includes('list')).map((g) => g.block_key);
    expect(groups).toEqual(['owners', 'owner_addresses', 'assets']);
    const routeItems: RepeatableItemView[] = [];
    for (const g of groups) routeItems.push(...(await allPages(staff, `${base}/items/${g}`, 500, (b) => ItemsPageView.parse(b))).items);
    expect(snapshot.items.map(itemKey).sort()).toEqual(routeItems.map(itemKey).sort());
    expect(snapshot.items).toEqual(expect.arrayContaining(routeItems));
    const owners = snapshot.items.filter((i) => i.block_key === 'owners');
    const addresses = snapshot.items.filter((i) => i.block_key === 'owner_addresses');
    expect(owners.length).toBe(2);
    expect(addresses.length).toBeGreaterThan(0);
    for (const a of addresses) expect(owners.map(itemKey)).toContain(a.parent_item_id);

    // Files: the file list route's, the upload among them.
    const files = await allPages(staff, `${base}/files`, 100, (b) => FilesPageView.parse(b));
    expect(snapshot.files).toEqual(files.items);
    expect(snapshot.files.map((f) => f.id)).toContain(uploaded.id);

    for (const r of [contract, ...answers.replies, ...files.replies]) expectNoPortalUrl(r);
  });

  it('gives a client its own application and 404 for another; a reviewer reads it; nobody signed out', async () => {
    const client = await clientSessionFor(BRIGHTPATH);
    const own = await form(client, BRIGHTPATH);
    expect(own.snapshot.application.id).toBe(BRIGHTPATH);
    expectNoPortalUrl(own.reply);

    const other = await client.get('/api/applications/ciappl_harbourcafe/form');
    expect(other.status).toBe(404);
    // The BFF's own refusal: no upstream request was made for it.
    expect(BffErrorBody.parse(other.body).error).toMatchObject({ code: 'not_found', request_id: null });

    const { client: reviewer } = await signedIn('reviewer');
    expect((await form(reviewer, BRIGHTPATH)).snapshot.application.id).toBe(BRIGHTPATH);
    expect((await new BffClient().get(`/api/applications/${BRIGHTPATH}/form`)).status).toBe(401);
    expect((await reviewer.get('/api/applications/not-an-id/form')).status).toBe(400);
    const missing = await reviewer.get('/api/applications/ciappl_nosuchapp0/form');
    expect(missing.status).toBe(404);
    expect(BffErrorBody.parse(missing.body).error.request_id).toMatch(/^req_/);
  });

  it('costs 7 upstream calls cold and reuses the contract: the full contract body is read once', async () => {
    // A new application, so no cache of the BFF knows it yet and no other test adds calls for it.
    const appId = await freshApplication(portal(), 'Form Snapshot Calls Ltd');
    const { client: staff } = await signedIn('staff');

    // Cold: application, then contract (200), then answers (1 page) ‖ items of the 3 listable groups
    // (owners, owner_addresses, assets: one page each) ‖ files (1 page) = 1 + 1 + 1 + 3 + 1 = 7.
    const first = await form(staff, appId);
    const cold = await callsSince(appId, 0);
    expect(cold.every((c) => c.method === 'GET')).toBe(true);
    expect(byKind(cold)).toEqual({ application: 1, contract: 1, answers: 1, 'repeatable-items': 3, files: 1 });
    expect(cold.find((c) => c.path.endsWith('/contract/'))!.status).toBe(200);

    // Warm, within the 30 s window: the same reads but the contract, all in one round = 6 calls.
    await form(staff, appId);
    const warm = await callsSince(appId, cold.length);
    expect(byKind(warm)).toEqual({ application: 1, answers: 1, 'repeatable-items': 3, files: 1 });

    // The contract route always revalidates: a 304, the kept copy is returned (links are known), with the
    // answers_revision of the application read, since the contract's ETag names contract_version only.
    const seen = cold.length + warm.length;
    const contract = await staff.get<{ contract: unknown }>(`/api/applications/${appId}/contract`);
    expect(contract.status).toBe(200);
    expect(ContractView.parse(contract.body.contract)).toEqual(first.snapshot.contract);
    expect(await callsSince(appId, seen)).toEqual([
      { method: 'GET', path: `/v1/client-intake-applications/${appId}/contract/`, status: 304 },
      { method: 'GET', path: `/v1/client-intake-applications/${appId}/`, status: 200 },
    ]);

    // In all: the full contract body went over the wire once (the log settled just above).
    const all = upstreamCalls(appId).filter((c) => c.path.endsWith('/contract/'));
    expect(all.map((c) => c.status)).toEqual([200, 304]);

    // After a write the contract's answers_revision moved (not its ETag: contract_version did not); the
    // snapshot reuses its copy within the window yet reports the answers read's revision.
    const field = first.snapshot.answers.items.find((i) => i.value_type === 'string' && i.allowed_values.length === 0)!;
    const write = await staff.patch(`/api/applications/${appId}/answers`, {
      ifMatch: first.snapshot.answers.etag,
      body: { answers_revision: first.snapshot.answers.answers_revision, answers: [{ block_key: field.block_key, schema_key: field.schema_key, field_key: field.field_key, value: 'Snapshot Ltd' }] },
    });
    expect(write.status, write.text).toBe(200);
    const written = AnswersWriteResult.parse(write.body);
    // Counted once the write's own calls are in the log, so none of them is taken for the read's.
    const before = (await callsSince(appId, 0)).length;
    const after = await form(staff, appId);
    expect(byKind(await callsSince(appId, before))).toEqual({ application: 1, answers: 1, 'repeatable-items': 3, files: 1 });
    expect(after.snapshot.answers).toMatchObject({ answers_revision: written.answers_revision, etag: written.etag });
    expect(after.snapshot.contract.answers_revision).toBe(written.answers_revision);
    expect(after.reply.headers.get('etag')).toBe(written.etag);
    expect(after.snapshot.answers.items.find((i) => i.schema_key === field.schema_key && i.field_key === field.field_key)?.value).toBe('Snapshot Ltd');

    // The contract route, revalidated to a 304 after the write, still tells the current answers_revision.
    const revalidated = await staff.get<{ contract: unknown }>(`/api/applications/${appId}/contract`);
    expect(ContractView.parse(revalidated.body.contract).answers_revision).toBe(written.answers_revision);
    expect((await callsSince(appId, 0)).filter((c) => c.path.endsWith('/contract/')).map((c) => c.status)).toEqual([200, 304, 304]);
  });
});

describe('GET /api/deal-applications/[dealApplicationId]/form', () => {
  it('gives staff the deal application (kind deal) with its items, as the separate routes give it', async () => {
    const { client: staff } = await signedIn('staff');
    const { deal } = await createDeal(staff, { recipient_id: 'rcpt_summitcredit' });
    const id = deal.application!.id;
    const base = `/api/deal-applications/${id}`;
    const item = await staff.post(`${base}/items/directors`, { body: {} });
    expect(item.status, item.text).toBe(201);
    const itemId = ItemWriteResult.parse(item.body).item.item_id;

    const r = await staff.get(`${base}/form`);
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expectNoPortalUrl(r);
    const snapshot = FormSnapshotView.parse(r.body);
    expect(snapshot.application).toMatchObject({ id, kind: 'deal', business: null });
    expect(r.headers.get('etag')).toBe(snapshot.answers.etag);
    expect(snapshot.items.map(itemKey)).toContain(itemId);
    expect(snapshot.files).toEqual([]);

    const answers = await allPages(staff, `${base}/answers`, 500, (b) => AnswersPageView.parse(b));
    expect(snapshot.answers.items).toEqual(answers.items);
    expect(snapshot.answers.etag).toBe(AnswersPageView.parse(answers.replies.at(-1)!.body).etag);
    const contract = await staff.get<{ contract: unknown }>(`${base}/contract`);
    expect(snapshot.contract).toEqual(ContractView.parse(contract.body.contract));
    const directors = await allPages(staff, `${base}/items/directors`, 500, (b) => ItemsPageView.parse(b));
    expect(snapshot.items.filter((i) => i.block_key === 'directors')).toEqual(directors.items);
  });

  it('is for staff only, like the other deal application routes', async () => {
    await expectStaffOnly([{ method: 'GET', path: '/api/deal-applications/dapp_sunriseoven/form' }]);
  });
});

describe('the form page hands its whole form over to the browser', () => {
  /** The token of the whole form in the page's opening (inside the page's flight data, its quotes escaped). */
  const restToken = (html: string) => /rest\\*":\\*"([\w-]{16,64})/.exec(html)?.[1];

  it('the read that names the page’s token costs no upstream call, once, for that session only', async () => {
    const appId = await freshApplication(portal(), 'Form Handover Ltd');
    const { client: staff } = await signedIn('staff');
    const page = await staff.get(`/applications/${appId}`, { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    const token = restToken(page.text);
    expect(token).toBeDefined();
    // The page's own reads are in the log before anything is counted.
    const afterPage = (await callsSince(appId, 0)).length;
    expect(afterPage).toBeGreaterThan(0);

    const handed = await staff.get(`/api/applications/${appId}/form?rest=${token}`);
    expect(handed.status, handed.text.slice(0, 300)).toBe(200);
    // An ordinary read after it logs its reads; since the page, the log holds those and nothing of the handed read.
    const plain = await form(staff, appId);
    const since = (await callsSince(appId, afterPage)).filter((c) => !c.path.endsWith('/contract/'));
    expect(byKind(since)).toEqual({ application: 1, answers: 1, 'repeatable-items': 3, files: 1 });
    expect(FormSnapshotView.parse(handed.body)).toEqual(plain.snapshot);
    expect(handed.headers.get('etag')).toBe(plain.snapshot.answers.etag);

    // Spent: the same token again is an ordinary read.
    const before = (await callsSince(appId, 0)).length;
    const again = await staff.get(`/api/applications/${appId}/form?rest=${token}`);
    expect(again.status).toBe(200);
    expect((await callsSince(appId, before)).length).toBeGreaterThan(0);
  });

  it('another session naming the token reads upstream and gets nothing held for someone else', async () => {
    const appId = await freshApplication(portal(), 'Form Handover Other Ltd');
    const { client: staff } = await signedIn('staff');
    const { client: other } = await signedIn('staff');
    const token = restToken((await staff.get(`/applications/${appId}`, { headers: { Accept: 'text/html' } })).text)!;
    const before = (await callsSince(appId, 0)).length;
    const read = await other.get(`/api/applications/${appId}/form?rest=${token}`);
    expect(read.status).toBe(200);
    const mid = before + (await callsSince(appId, before)).length;
    expect(mid).toBeGreaterThan(before);
    // A token is good once, whoever names it: a leaked one is spent without giving anything away.
    expect((await staff.get(`/api/applications/${appId}/form?rest=${token}`)).status).toBe(200);
    expect((await callsSince(appId, mid)).length).toBeGreaterThan(0);
  });

  it('sends the 1,214-field form’s page as one section and an index: under 150 KiB, a fifth of the whole form at most', async () => {
    const { client: staff } = await signedIn('staff');
    const large = 'ciappl_atlaslogistics';
    const page = await staff.get(`/applications/${large}?section=p02`, { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    const whole = (await form(staff, large)).reply.text;
    expect(Buffer.byteLength(page.text)).toBeLessThan(150 * 1024);
    expect(Buffer.byteLength(page.text)).toBeLessThan(Buffer.byteLength(whole) / 5);
    // The open section's questions are in it, another section's are not.
    expect(page.text).toContain('p02q01');
    expect(page.text).not.toContain('p03q01');
  });

  it('refuses a malformed token with 400 in the error shape', async () => {
    const { client: staff } = await signedIn('staff');
    const r = await staff.get(`/api/applications/${BRIGHTPATH}/form?rest=${encodeURIComponent('../../x')}`);
    expect(r.status).toBe(400);
    expect(BffErrorBody.parse(r.body).error.code).toBeDefined();
  });
});
