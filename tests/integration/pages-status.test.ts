import { beforeAll, describe, expect, it } from 'vitest';
import { BffErrorBody } from '@/lib/bff/errors';
import { BffClient, signedIn, type Reply } from './support/bff';
import { anotherInstance } from './support/another-instance';
import { clientSession, createBusiness, createDeal } from './support/bff-businesses';
import { pagePatterns } from './support/route-catalog';
import { HEADER_VARIANTS } from './support/header-variants';

/*
 * Every page answers with the status of what it shows:
 * 404 with the app's own not-found page for what does not exist or is not this person's, 303 to sign in or home
 * for a person the page is not for, 500 with the app's error page when the Portal fails; never a 200 that carries
 * the not-found, the redirect or the error inside its stream (which is what a page behind a loading state gave).
 * And /api answers any path it has no route for in its JSON error shape.
 */

const html = { headers: { Accept: 'text/html' } };
const NOT_FOUND = 'This page was not found';

/** Real ids of the seeded demo Portal, and ids of the right shape that name nothing. */
const REAL = { applicationId: 'ciappl_harbourcafe', businessId: 'biz_harbourcafe', token: 'not-a-real-token-0123456789abcdef' } as Record<string, string>;
const NOTHING: Record<string, string> = {
  applicationId: 'ciappl_nosuchapp0',
  businessId: 'biz_nosuchbusiness0',
  dealId: 'deal_nosuchdeal0',
  dealApplicationId: 'dapp_nosuchapp0',
  projectId: 'proj_nosuchproject0',
  // An unsubscribe link of a well-formed invitation id whose signature is not ours.
  token: 'inv_000000000000000000000000.bm90LW91cnM',
};

const fill = (pattern: string, values: Record<string, string>) =>
  pattern.replace(/\[([^\]]+)\]/g, (_m, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`no value for [${name}] of ${pattern}: add one here`);
    return v;
  });

/** Pages anyone may open; /invite/[token]/confirm sends the signed out on to the link; /unsubscribe/[token] is a reminder's link. */
const PUBLIC = new Set(['/', '/sign-in', '/invite/invalid', '/invite/[token]/confirm', '/unsubscribe/[token]']);
/** Pages of an invited client only (the others are sent on to the form). */
const CLIENT_ONLY = new Set(['/applications/[applicationId]/welcome', '/applications/[applicationId]/submitted']);
/** Pages staff and others share (everything else is staff's alone). */
const NOT_STAFF_ONLY = new Set([...PUBLIC, ...CLIENT_ONLY, '/applications/[applicationId]', '/applications/[applicationId]/autofill', '/applications/[applicationId]/review']);

function expectSeeOther(r: Reply, to: string, where: string) {
  expect(r.status, `${where}: ${r.text.slice(0, 200)}`).toBe(303);
  const location = new URL(r.headers.get('location')!, 'http://x.invalid');
  expect(`${location.pathname}${location.search}`, where).toBe(to);
}

function expectNotFound(r: Reply, where: string) {
  expect(r.status, `${where}: ${r.text.slice(0, 200)}`).toBe(404);
  expect(r.headers.get('content-type'), where).toMatch(/^text\/html/);
  // The app's own page (in the first HTML or the data the browser renders it from), not Next's bare one.
  expect(r.text, where).toContain(NOT_FOUND);
  expect(r.text, where).not.toContain('This page could not be found');
}

let staff: BffClient;
let ids: Record<string, string>;
beforeAll(async () => {
  staff = (await signedIn('staff')).client;
  const { deal } = await createDeal(staff, { business_id: (await createBusiness(staff)).created.business.id });
  ids = { ...REAL, dealId: deal.id, dealApplicationId: deal.application!.id, projectId: 'proj_meridiancnc' };
}, 60_000);

describe('a page whose object does not exist', () => {
  it('answers 404 with the app’s not-found page, for a well-formed id and a malformed one', async () => {
    const dynamic = pagePatterns().filter((p) => p.includes('[') && !p.startsWith('/invite/') && !CLIENT_ONLY.has(p));
    expect(dynamic.length).toBeGreaterThanOrEqual(8);
    for (const pattern of dynamic) {
      for (const values of [NOTHING, Object.fromEntries(Object.keys(NOTHING).map((k) => [k, 'does-not-exist']))]) {
        const path = fill(pattern, values);
        expectNotFound(await staff.get(path, html), path);
      }
    }
    for (const path of ['/deals?business_id=biz_nosuchbusiness0', '/deals?business_id=nope', '/no/such/page']) expectNotFound(await staff.get(path, html), path);
  });

  it('answers a client on another application 404, as if it did not exist', async () => {
    const client = await clientSession('ciappl_brightpath');
    for (const pattern of ['/applications/[applicationId]', '/applications/[applicationId]/autofill', '/applications/[applicationId]/review', '/applications/[applicationId]/welcome', '/applications/[applicationId]/submitted']) {
      const path = fill(pattern, { applicationId: 'ciappl_harbourcafe' });
      expectNotFound(await client.get(path, html), `${path} as another application's client`);
    }
  });
});

describe('a page that is not for this person', () => {
  it('sends the signed out to sign in and back with 303, whatever the request carries', async () => {
    const anonymous = new BffClient();
    for (const pattern of pagePatterns().filter((p) => !PUBLIC.has(p))) {
      const path = fill(pattern, ids);
      for (const [variant, headers] of HEADER_VARIANTS) {
        const r = await anonymous.get(`${path}?section=x`, { headers: { Accept: 'text/html', ...headers } });
        // The application link of the businesses list comes back to the list it is on.
        const back = pattern === '/businesses/[businessId]/application' ? '/businesses' : `${path}?section=x`;
        expectSeeOther(r, `/sign-in?next=${encodeURIComponent(back).replaceAll('%2F', '/')}`, `${path} signed out, ${variant}`);
      }
    }
  });

  it('sends a reviewer from a staff page home with 303', async () => {
    const { client: reviewer } = await signedIn('reviewer');
    for (const pattern of pagePatterns().filter((p) => !NOT_STAFF_ONLY.has(p))) {
      const path = fill(pattern, ids);
      const to = pattern === '/businesses/[businessId]/application' ? '/sign-in?next=/businesses' : '/';
      expectSeeOther(await reviewer.get(path, html), to, `${path} as a reviewer`);
    }
  });

  it('sends a signed-in person from the sign-in page where `next` says, with 303', async () => {
    expectSeeOther(await staff.get('/sign-in?next=/deals', html), '/deals', 'the sign-in page, signed in');
  });
});

describe('a page while the Portal fails', () => {
  // The same database and sessions, but a Portal that never answers.
  const cut = anotherInstance({ name: 'portal-down', with: { PORTAL_BASE_URL: 'http://127.0.0.1:9/v1/', PORTAL_TIMEOUT_MS: '1000' } });

  it('answers 500 with the app’s error page (its retry), never a 200 page that fails afterwards', async () => {
    const onCut = new BffClient(cut().url);
    onCut.cookies = staff.cookies;
    for (const pattern of [
      '/applications/[applicationId]',
      '/applications/[applicationId]/autofill',
      '/applications/[applicationId]/review',
      '/businesses/[businessId]',
      '/businesses/new',
      '/deals/[dealId]',
      '/deal-applications/[dealApplicationId]',
      '/projects/[projectId]',
    ]) {
      const path = fill(pattern, ids);
      const r = await onCut.get(path, html);
      expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(500);
      expect(r.headers.get('content-type'), path).toMatch(/^text\/html/);
    }
    // What needs no Portal read still opens (the workspace's pages are left alone: they would start a reconcile).
    expect((await onCut.get('/deals/new', html)).status).toBe(200);
  });
});

describe('an /api path no route answers', () => {
  it('is a 404 in the JSON error shape, for every method and whatever the client accepts', async () => {
    const anonymous = new BffClient();
    for (const path of ['/api', '/api/whatever', '/api/applications/ciappl_harbourcafe/nothing', '/api/a/b/c/d']) {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
        for (const accept of ['application/json', 'text/html', '*/*']) {
          const r = await anonymous.call(method, path, { headers: { Accept: accept }, body: method === 'GET' || method === 'DELETE' ? undefined : {}, noCsrf: true });
          const where = `${method} ${path} (Accept: ${accept})`;
          expect(r.status, `${where}: ${r.text.slice(0, 200)}`).toBe(404);
          expect(r.headers.get('content-type'), where).toMatch(/^application\/json/);
          expect(BffErrorBody.parse(r.body).error, where).toMatchObject({ code: 'not_found', request_id: null });
          expect(r.headers.get('x-frame-options'), where).toBe('DENY');
        }
      }
    }
  });
});
