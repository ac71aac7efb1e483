import { describe, expect, it } from 'vitest';
import { BffClient, signedIn } from './support/bff';
import { clientSession } from './support/bff-businesses';

/*
 * GET /businesses/<id>/application, the "Open application" link of the businesses list: the page guard
 * decides who may follow it, and the route answers like a link that moves on (303), never with JSON.
 */

const link = (businessId: string) => `/businesses/${businessId}/application`;
const page = { headers: { Accept: 'text/html' } };

describe('the business’s application link', () => {
  it('sends staff on to the business’s intake form (303)', async () => {
    const { client } = await signedIn('staff');
    const r = await client.get(link('biz_harbourcafe'), page);
    expect(r.status).toBe(303);
    expect(new URL(r.headers.get('location')!, client.base).pathname).toBe('/applications/ciappl_harbourcafe');
  });

  it('sends the signed out, reviewers and clients to sign in, coming back to the businesses (303)', async () => {
    const client = await clientSession();
    // The client's session must be live, so its redirect is about its role and not a broken cookie.
    expect((await client.get('/api/applications/ciappl_harbourcafe')).status).toBe(200);
    const callers: Array<[string, BffClient]> = [
      ['signed out', new BffClient()],
      ['a reviewer', (await signedIn('reviewer')).client],
      ['a client', client],
    ];
    for (const [who, caller] of callers) {
      for (const businessId of ['biz_harbourcafe', 'not-a-business']) {
        const r = await caller.get(link(businessId), page);
        expect(r.status, `${who}, ${businessId}`).toBe(303);
        const to = new URL(r.headers.get('location')!, caller.base);
        expect(`${to.pathname}${to.search}`, `${who}, ${businessId}`).toBe('/sign-in?next=/businesses');
      }
    }
  });

  it('is not found (404) for staff when the id is malformed or names no business', async () => {
    const { client } = await signedIn('staff');
    for (const businessId of ['not-a-business', 'biz_UPPER', 'biz_nosuchbusiness']) {
      const r = await client.get(link(businessId), page);
      expect(r.status, businessId).toBe(404);
      expect(r.headers.get('location'), businessId).toBeNull();
    }
  });
});
