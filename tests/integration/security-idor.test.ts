import { beforeAll, describe, expect, it } from 'vitest';
import { FilesPageView } from '@/lib/bff/files';
import { ItemsPageView } from '@/lib/bff/items';
import { PreparationReply } from '@/lib/bff/autofill';
import { BffClient, invitedClient, signedIn, type Reply } from './support/bff';
import { newIdempotencyKey } from './support/bff-businesses';
import { HEADER_VARIANTS } from './support/header-variants';
import {
  HTTP_METHODS,
  catalogCalls,
  errorOf,
  expectRefused,
  callPath,
  fillPath,
  isApplicationRoute,
  routeCatalog,
  staffWithFixtures,
  segmentValues,
  sendCall,
  wasAuthorised,
  type CatalogCall,
  type RouteFixtures,
} from './support/route-catalog';

/*
 * DESIGN.md §3, "a session, and an authorization check per object (a client reaches only its invited
 * application)": every route and method of the app, read from app/**, called as nobody, a reviewer, a
 * client and staff, with real ids in the paths. The expectations come from the table below, not from the
 * route files, so a route that opens itself to the wrong role fails here.
 */

type Grantee = 'reviewer' | 'client';
const APP = '/api/applications/[applicationId]';

/** Reachable without a session (the webhook receiver checks a signature instead). */
/** The confirmation of an invitation link (POST /api/invitations/accept) proves itself with the link's token. */
/** A reminder's unsubscribe address (GET leads to the page, POST unsubscribes) proves itself with its signed token. */
/** The probes say nothing but alive/ready and which check failed (as a code); the metrics want their own token. */
const PUBLIC = new Set([
  'GET /api/auth/session',
  'POST /api/auth/sign-in',
  'POST /api/auth/sign-out',
  'GET /invite/[token]',
  'POST /api/invitations/accept',
  'POST /api/webhooks/portal',
  'GET /api/health',
  'GET /api/ready',
  'GET /api/metrics',
  // One-click unsubscribe (RFC 8058): a mail provider posts it with no session; the signed token is the proof.
  'GET /api/unsubscribe/[token]',
  'POST /api/unsubscribe/[token]',
]);

/**
 * Routes naming their application in the query rather than the path (the live event stream): called here
 * without one, so every role that may call them stops at the query's validation (bff-live-events covers
 * who may stream what).
 */
const APPLICATION_BY_QUERY = new Set(['GET /api/events']);

/** Routes of the invited client alone (its place in the form): staff are refused them too. */
const CLIENT_ONLY = new Set([`PUT ${APP}/place`]);

/**
 * Who besides staff may call what. Anything not listed is for staff only — so a new route is staff-only
 * until someone decides otherwise here. Reviewers read applications and review Autofill; a client works on
 * its own application: answers, items, files, submit, and Autofill preparation, start and runs.
 */
const GRANTS: Record<string, readonly Grantee[]> = {
  [`GET ${APP}`]: ['reviewer', 'client'],
  [`GET ${APP}/contract`]: ['reviewer', 'client'],
  [`GET ${APP}/form`]: ['reviewer', 'client'],
  [`GET ${APP}/answers`]: ['reviewer', 'client'],
  [`PATCH ${APP}/answers`]: ['client'],
  [`GET ${APP}/answers/history`]: ['reviewer', 'client'],
  [`GET ${APP}/items/[blockKey]`]: ['reviewer', 'client'],
  [`POST ${APP}/items/[blockKey]`]: ['client'],
  [`PATCH ${APP}/items/[blockKey]/[itemId]`]: ['client'],
  [`DELETE ${APP}/items/[blockKey]/[itemId]`]: ['client'],
  [`GET ${APP}/files`]: ['reviewer', 'client'],
  [`POST ${APP}/files`]: ['client'],
  [`DELETE ${APP}/files/[fileId]`]: ['client'],
  [`GET ${APP}/files/[fileId]/download`]: ['reviewer', 'client'],
  [`POST ${APP}/submit`]: ['client'],
  [`PUT ${APP}/place`]: ['client'],
  // Review before submit (DESIGN.md §9): everyone reads the review (the client without staff notes); the client
  // sends for review and replies; only staff make, resolve and return change requests.
  [`GET ${APP}/review`]: ['reviewer', 'client'],
  [`POST ${APP}/review/send`]: ['client'],
  [`POST ${APP}/review/replies`]: ['client'],
  // Review mode: reviewers may see staff's marks; only staff mark (a client neither sees nor marks them).
  [`GET ${APP}/review/marks`]: ['reviewer'],
  // The application as a PDF: staff, and the invited client for its own (the funder's ZIP is staff's alone).
  [`GET ${APP}/pdf`]: ['client'],
  [`GET ${APP}/autofill/preparation`]: ['reviewer', 'client'],
  [`PATCH ${APP}/autofill/preparation`]: ['client'],
  [`POST ${APP}/autofill/preparation/files`]: ['client'],
  [`DELETE ${APP}/autofill/preparation/files/[evidenceId]`]: ['client'],
  [`POST ${APP}/autofill/start`]: ['client'],
  [`GET ${APP}/autofill/runs`]: ['reviewer', 'client'],
  [`GET ${APP}/autofill/runs/[runId]`]: ['reviewer', 'client'],
  [`POST ${APP}/autofill/runs/[runId]/retry`]: ['client'],
  [`GET ${APP}/autofill/runs/[runId]/suggestions`]: ['reviewer'],
  [`GET ${APP}/autofill/runs/[runId]/unused-text`]: ['reviewer', 'client'],
  [`POST ${APP}/autofill/suggestions/[suggestionId]/accept`]: ['reviewer'],
  [`POST ${APP}/autofill/suggestions/[suggestionId]/dismiss`]: ['reviewer'],
  'GET /api/events': ['reviewer', 'client'],
  // The reviewer's home: applications with suggestions waiting (DESIGN.md §7).
  'GET /api/workspace/review-inbox': ['reviewer'],
  // Funding projects (DESIGN.md §6): reviewers read them, their criteria, runs and matches.
  'GET /api/projects': ['reviewer'],
  'GET /api/projects/[projectId]': ['reviewer'],
  'GET /api/projects/[projectId]/criteria': ['reviewer'],
  'GET /api/projects/[projectId]/criteria/contract': ['reviewer'],
  'GET /api/projects/[projectId]/criteria/form': ['reviewer'],
  'GET /api/projects/[projectId]/criteria/answers': ['reviewer'],
  'GET /api/projects/[projectId]/runs': ['reviewer'],
  'GET /api/projects/[projectId]/runs/[runId]': ['reviewer'],
  'GET /api/projects/[projectId]/matches': ['reviewer'],
  // Mail (DESIGN.md §8): the Outbox holds every client's messages, and only staff invite; listed to say so.
  'GET /api/outbox': [],
  'POST /api/invitations/[invitationId]/resend': [],
  'GET /api/invitations/[invitationId]/reminders': [],
  'PUT /api/invitations/[invitationId]/reminders': [],
  'POST /api/invitations/[invitationId]/reminders/now': [],
  'GET /api/projects/[projectId]/matches/csv': ['reviewer'],
};

const may = (who: Grantee, call: CatalogCall) => GRANTS[call.key]?.includes(who) ?? false;

const CATALOG = routeCatalog();
/** Reads first and deletes last, so an authorised delete cannot turn a later read of the same object into a 404. */
const CALLS = catalogCalls(CATALOG).sort((x, y) => rank(x) - rank(y));
function rank(c: CatalogCall) {
  return c.method === 'GET' ? 0 : c.method === 'DELETE' ? 2 : 1;
}
const GUARDED = CALLS.filter((c) => !PUBLIC.has(c.key));

let f: RouteFixtures;
let staff: BffClient;

beforeAll(async () => void ({ staff, f } = await staffWithFixtures()), 120_000);

const pathFor = (call: CatalogCall, app = f.a) => callPath(call, segmentValues(call.route, f, app));

async function expectLive(client: BffClient, who: string) {
  const r = await client.get<{ session: unknown }>('/api/auth/session');
  expect(r.body.session, `${who}'s session is live`).not.toBeNull();
}

describe('the route catalog', () => {
  it('is read from the route files and holds the known routes', () => {
    expect(CATALOG.length).toBeGreaterThan(30);
    const keys = new Set(CALLS.map((c) => c.key));
    for (const known of [
      'GET /api/applications/[applicationId]',
      'PATCH /api/applications/[applicationId]/answers',
      'POST /api/applications/[applicationId]/files',
      'GET /api/applications/[applicationId]/files/[fileId]/download',
      'POST /api/applications/[applicationId]/autofill/suggestions/[suggestionId]/accept',
      'GET /api/businesses',
      'POST /api/businesses',
      'POST /api/businesses/[businessId]/uploads/[uploadId]',
      'POST /api/deals/[dealId]/stage-transitions',
      'PATCH /api/deal-applications/[dealApplicationId]/answers',
      'POST /api/invitations/[invitationId]/revoke',
      'POST /api/invitations/[invitationId]/resend',
      'GET /api/outbox',
      'GET /api/portal',
      'POST /api/auth/sign-in',
      'GET /invite/[token]',
    ]) {
      expect(keys, known).toContain(known);
    }
    for (const r of CATALOG) expect(r.methods.length, `${r.file} exports no HTTP method`).toBeGreaterThan(0);
  });

  it('has a live route for every entry of the tables, so none of them is stale', () => {
    const keys = new Set(CALLS.map((c) => c.key));
    for (const k of [...PUBLIC, ...Object.keys(GRANTS)]) expect(keys, `${k} is in the table but not in app/`).toContain(k);
  });

  it('matches what the server answers: a method a route file does not export is 405', async () => {
    const anonymous = new BffClient();
    for (const route of CATALOG) {
      const path = fillPath(route, segmentValues(route, f, f.a));
      for (const method of HTTP_METHODS.filter((m) => m !== 'HEAD' && m !== 'OPTIONS' && !route.methods.includes(m))) {
        const r = await anonymous.call(method, path, { body: method === 'GET' || method === 'DELETE' ? undefined : {} });
        expect(r.status, `${method} ${route.pattern}`).toBe(405);
      }
    }
  });
});

describe('who may call what', () => {
  it('refuses every guarded route to a caller without a session (401), and lets the public ones answer', { timeout: 180_000 }, async () => {
    const anonymous = new BffClient();
    expect(GUARDED.length).toBeGreaterThan(40);
    for (const call of GUARDED) {
      for (const [variant, headers] of HEADER_VARIANTS) {
        expectRefused(await sendCall(anonymous, call, pathFor(call), { ...headers }), 401, 'unauthenticated', `${call.key} signed out, ${variant}`);
      }
    }
    for (const call of CALLS.filter((c) => PUBLIC.has(c.key))) {
      const r = await sendCall(anonymous, call, pathFor(call));
      expect(r.status, `${call.key} signed out: ${r.text.slice(0, 200)}`).not.toBe(401);
      expect(r.status).toBeLessThan(500);
    }
  });

  it('lets a reviewer read applications and review Autofill, and refuses everything else (403)', async () => {
    const { client: reviewer } = await signedIn('reviewer');
    let allowed = 0;
    for (const call of GUARDED) {
      const r = await sendCall(reviewer, call, pathFor(call, f.b));
      const where = `${call.key} as reviewer`;
      if (may('reviewer', call)) {
        allowed++;
        expect(wasAuthorised(r), `${where} should be allowed: ${r.status} ${r.text.slice(0, 300)}`).toBe(true);
      } else {
        expectRefused(r, 403, 'forbidden', where);
      }
    }
    expect(allowed).toBeGreaterThanOrEqual(10);
    await expectLive(reviewer, 'the reviewer');
  });

  it('lets a client work on its own application only: its routes per the table, 403 for the rest', async () => {
    const { client } = await invitedClient(staff, f.a.applicationId);
    let allowed = 0;
    for (const call of GUARDED) {
      const r = await sendCall(client, call, pathFor(call, f.a));
      const where = `${call.key} as the client, on its own application`;
      if ((isApplicationRoute(call.route) || APPLICATION_BY_QUERY.has(call.key)) && may('client', call)) {
        allowed++;
        expect(wasAuthorised(r), `${where} should be allowed: ${r.status} ${r.text.slice(0, 300)}`).toBe(true);
      } else {
        // Businesses, deals, deal applications, invitations, audit, the Portal root and staff-only reads.
        expectRefused(r, 403, 'forbidden', where);
      }
    }
    expect(allowed).toBeGreaterThanOrEqual(15);
    await expectLive(client, 'the client');
  });

  it('answers a client with 404 on every route of another application (IDOR), as if it did not exist', { timeout: 180_000 }, async () => {
    const { client } = await invitedClient(staff, f.a.applicationId);
    const appCalls = GUARDED.filter((c) => isApplicationRoute(c.route));
    expect(appCalls.length).toBeGreaterThan(20);
    for (const call of appCalls) {
      for (const [variant, headers] of HEADER_VARIANTS) {
        const r = await sendCall(client, call, pathFor(call, f.b), { 'If-Match': '"x"', 'Idempotency-Key': newIdempotencyKey('idor'), ...headers });
        const where = `${call.key} as A's client, on B, ${variant}`;
        if (may('client', call)) expectRefused(r, 404, 'not_found', where);
        else expectRefused(r, 403, 'forbidden', where);
        expect(r.text, where).not.toContain(f.b.applicationId);
      }
    }
    await expectLive(client, 'the client');
  });

  it('keeps a client out of another application’s objects named below its own application’s path', async () => {
    const { client } = await invitedClient(staff, f.a.applicationId);
    const a = `/api/applications/${f.a.applicationId}`;
    const b = f.b;
    const items = await client.get(`${a}/items/owners`);
    const itemsEtag = ItemsPageView.parse(items.body).etag;
    const prep = PreparationReply.parse((await client.get(`${a}/autofill/preparation`)).body);
    const answersRevision = ItemsPageView.parse(items.body).answers_revision;

    const attempts: Array<[string, Reply]> = [
      ['read B’s run', await client.get(`${a}/autofill/runs/${b.runId}`)],
      ['retry B’s run', await client.post(`${a}/autofill/runs/${b.runId}/retry`, { idempotencyKey: newIdempotencyKey('retry') })],
      ['download B’s file', await client.get(`${a}/files/${b.fileId}/download`)],
      ['delete B’s file', await client.delete(`${a}/files/${b.fileId}`)],
      ['update B’s item', await client.patch(`${a}/items/owners/${b.itemId}`, { ifMatch: itemsEtag, body: { answers_revision: answersRevision, answers: [{ schema_key: 'owner_full_name', field_key: 'value', value: 'Mallory' }] } })],
      ['delete B’s item', await client.delete(`${a}/items/owners/${b.itemId}`, { ifMatch: itemsEtag })],
      ['delete B’s evidence', await client.delete(`${a}/autofill/preparation/files/${b.evidenceId}`, { ifMatch: prep.etag! })],
    ];
    for (const [what, r] of attempts) {
      expect(r.status, `${what}: ${r.text.slice(0, 300)}`).toBe(404);
      expect(errorOf(r)?.code, what).toBe('not_found');
    }

    // And B's objects are all still there.
    const bBase = `/api/applications/${b.applicationId}`;
    const files = FilesPageView.parse((await staff.get(`${bBase}/files`)).body);
    expect(files.items.map((x) => x.id)).toContain(b.fileId);
    const bItems = ItemsPageView.parse((await staff.get(`${bBase}/items/owners`)).body);
    expect(bItems.items.map((x) => x.item_id)).toContain(b.itemId);
    const bPrep = PreparationReply.parse((await staff.get(`${bBase}/autofill/preparation`)).body);
    expect(bPrep.preparation.evidence_sources.map((x) => x.id)).toContain(b.evidenceId);
  });

  it('does not let a reviewer act on one application’s suggestion through another application’s path', async () => {
    const { client: reviewer } = await signedIn('reviewer');
    for (const verb of ['accept', 'dismiss']) {
      const r = await reviewer.post(`/api/applications/${f.a.applicationId}/autofill/suggestions/${f.b.suggestionId}/${verb}`);
      expect(r.status, `${verb}: ${r.text.slice(0, 300)}`).toBe(404);
    }
  });

  it('lets staff call every guarded route (so the ids are real and the refusals above are about the caller)', async () => {
    for (const call of GUARDED) {
      const r = await sendCall(staff, call, pathFor(call, f.b));
      if (CLIENT_ONLY.has(call.key)) {
        expectRefused(r, 403, 'forbidden', `${call.key} as staff`);
        continue;
      }
      expect(wasAuthorised(r), `${call.key} as staff: ${r.status} ${r.text.slice(0, 300)}`).toBe(true);
      expect(r.status, `${call.key} as staff: ${r.text.slice(0, 300)}`).toBeLessThan(500);
    }
    await expectLive(staff, 'staff');
  });
});
