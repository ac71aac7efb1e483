import { describe, expect, it } from 'vitest';
import { InvitationCreated } from '@/lib/bff/invitations';
import { BffClient, bffDb, signedIn } from './support/bff';
import { createBusiness } from './support/bff-businesses';

/**
 * The invited client's welcome (migration 005): the first opening of a link goes to the welcome page, every
 * later one to the form, which reopens the section the client was last in (kept by PUT …/place).
 */

/** Where opening a link sends the browser (bff-invitations.test.ts checks the rest of that reply). */
async function open(client: BffClient, path: string) {
  const r = await client.get(path, { headers: { Accept: 'text/html' } });
  expect(r.status).toBe(303);
  return r.headers.get('location');
}

async function freshApplication(staff: BffClient) {
  return (await createBusiness(staff)).created.application.id;
}

async function invite(staff: BffClient, app: string, extra: Record<string, unknown> = {}) {
  const r = await staff.post(`/api/applications/${app}/invitations`, { body: { client_name: 'Wren Client', ...extra } });
  expect(r.status, r.text).toBe(201);
  return new URL(InvitationCreated.parse(r.body).link).pathname;
}

describe('the client welcome', () => {
  it('welcomes once per invitation link, then goes straight to the form', async () => {
    const { client: staff } = await signedIn('staff');
    const app = await freshApplication(staff);
    const link = await invite(staff, app);

    const browser = new BffClient();
    expect(await open(browser, link)).toBe(`/applications/${app}/welcome`);
    const page = await browser.get(`/applications/${app}/welcome`, { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1 id="welcome-title">Welcome<!-- -->, Wren Client</h1>');
    expect(page.text).toMatch(/Test staff at Northwind Capital \(demo\) asked you to complete this application for BFF Test \w+ Ltd\./);
    expect(page.text).toContain('Documents to have ready');

    // Again, from another browser too: the invitation was welcomed.
    expect(await open(browser, link)).toBe(`/applications/${app}`);
    expect(await open(new BffClient(), link)).toBe(`/applications/${app}`);
    // A new link for the same application is a new invitation: welcomed once more.
    expect(await open(new BffClient(), await invite(staff, app))).toBe(`/applications/${app}/welcome`);
  });

  it('keeps the section the client was last in, for the client only', async () => {
    const { client: staff } = await signedIn('staff');
    const app = await freshApplication(staff);
    const link = await invite(staff, app);
    const browser = new BffClient();
    await open(browser, link);

    const put = await browser.call('PUT', `/api/applications/${app}/place`, { body: { section_key: 'financials' } });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({ section_key: 'financials' });
    // The form page opens there (the browser tests follow it into the form).
    const form = await browser.get(`/applications/${app}`, { headers: { Accept: 'text/html' } });
    expect(form.status).toBe(200);
    expect(form.text).toContain('href="?section=financials" aria-current="step"');

    // Malformed, or from someone without a place: refused.
    expect((await browser.call('PUT', `/api/applications/${app}/place`, { body: { section_key: '' } })).status).toBe(422);
    expect((await staff.call('PUT', `/api/applications/${app}/place`, { body: { section_key: 'financials' } })).status).toBe(403);
    expect((await browser.call('PUT', '/api/applications/ciappl_harbourcafe/place', { body: { section_key: 'financials' } })).status).toBe(404);
  });

  it('learns the client’s time zone from their browser for reminders, unless staff named one', async () => {
    const { client: staff } = await signedIn('staff');
    const zoneOf = async (app: string) =>
      (await (await bffDb()).one<{ time_zone: string | null }>('SELECT time_zone FROM invitations WHERE application_id = $1', [app]))!.time_zone;
    const place = (browser: BffClient, app: string, time_zone: string) => browser.call('PUT', `/api/applications/${app}/place`, { body: { section_key: 'financials', time_zone } });

    const app = await freshApplication(staff);
    const browser = new BffClient();
    // Mailed, so it has reminders; staff named no zone.
    await open(browser, await invite(staff, app, { client_email: `wren-${Date.now()}@example.test` }));
    expect(await zoneOf(app)).toBeNull();
    // A zone the runtime does not know keeps the place and teaches nothing.
    expect((await place(browser, app, 'Mars/Olympus')).status).toBe(200);
    expect(await zoneOf(app)).toBeNull();
    expect((await place(browser, app, 'Asia/Tokyo')).status).toBe(200);
    expect(await zoneOf(app)).toBe('Asia/Tokyo');
    // The first report stands: a later visit from elsewhere does not move the schedule.
    expect((await place(browser, app, 'Europe/Paris')).status).toBe(200);
    expect(await zoneOf(app)).toBe('Asia/Tokyo');
    expect((await place(browser, app, 'Bad zone!')).status).toBe(422);

    const named = await freshApplication(staff);
    const other = new BffClient();
    await open(other, await invite(staff, named, { client_email: `wren-named-${Date.now()}@example.test`, time_zone: 'America/New_York' }));
    expect((await place(other, named, 'Asia/Tokyo')).status).toBe(200);
    expect(await zoneOf(named)).toBe('America/New_York');
  });
});
