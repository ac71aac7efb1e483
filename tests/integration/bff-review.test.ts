import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AnswersWriteResult, ApplicationView } from '@/lib/bff/applications';
import { BffErrorBody } from '@/lib/bff/errors';
import { FormSnapshotView } from '@/lib/bff/form-snapshot';
import type { ChangeRequestCreateBody, ReviewView } from '@/lib/bff/review';
import type { RunningSandbox } from '@/server/sandbox/server';
import { fillFromExamples, freshApplication, w } from './support/applications';
import { bffDb, bffStack, clientSessionFor, signedIn, type BffClient } from './support/bff';
import { KEYS, SandboxClient } from './support/sandbox';
import { openEventStream } from './support/sse';

/*
 * Review before submit through HTTP against the stack (DESIGN.md §9): the client sends for review, staff
 * request a change on one answer, the client replies and fixes it, sends it back, staff submit. Every action
 * quotes the review's ETag; a stale one is a 412 with the review as it is now.
 */

const portal = () => new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full);
const url = (appId: string, tail = '') => `/api/applications/${appId}/review${tail}`;
const errorOf = (r: { body: unknown }) => BffErrorBody.parse(r.body).error;
const legalName: ChangeRequestCreateBody['target'] = { kind: 'answer', schema_key: 'legal_name', field_key: 'value' };

async function review(client: BffClient, appId: string): Promise<ReviewView> {
  const r = await client.get<{ review: ReviewView }>(url(appId));
  expect(r.status, r.text).toBe(200);
  expect(r.headers.get('etag')).toBe(r.body.review.etag);
  return r.body.review;
}

async function act(client: BffClient, appId: string, tail: string, etag: string, body?: unknown, status = 200): Promise<ReviewView> {
  const r = await client.post<{ review: ReviewView }>(url(appId, tail), { ifMatch: etag, body });
  expect(r.status, `${tail}: ${r.text}`).toBe(status);
  return r.body.review;
}

async function saveLegalName(client: BffClient, appId: string, value: string) {
  const form = FormSnapshotView.parse((await client.get(`/api/applications/${appId}/form`)).body);
  return client.patch(`/api/applications/${appId}/answers`, {
    ifMatch: form.answers.etag,
    body: { answers_revision: form.answers.answers_revision, answers: [w('legal_name', value)] },
  });
}

describe('review before submit', () => {
  it('goes draft → in review → changes requested → in review → submitted, with the change made and mailed', async () => {
    const appId = await freshApplication(portal(), 'Review Flow Ltd');
    const { client: staff } = await signedIn('staff');
    const address = `review-${randomUUID()}@example.com`;
    expect((await staff.post(`/api/applications/${appId}/invitations`, { body: { client_email: address, client_name: 'Rita Client' } })).status).toBe(201);
    const client = await clientSessionFor(appId);

    const draft = await review(client, appId);
    expect(draft).toMatchObject({ state: 'draft', revision: 0, client_submits: false, requests: [], open_count: 0 });

    // The same completeness check as submit: what is missing comes back as a 422 naming each answer.
    const missing = await client.post(url(appId, '/send'), { ifMatch: draft.etag });
    expect(missing.status, missing.text).toBe(422);
    expect(errorOf(missing).details).toContainEqual(expect.objectContaining({ code: 'required', schema_key: 'legal_name', field_key: 'value' }));
    expect((await review(client, appId)).state).toBe('draft');

    await fillFromExamples(portal(), appId);
    const sent = await act(client, appId, '/send', draft.etag);
    expect(sent).toMatchObject({ state: 'in_review', revision: 1 });
    // The client has done their part: their scheduled reminders stop, saying why.
    const steps = await (await bffDb()).query<{ status: string; outcome: string | null }>(
      `SELECT s.status, s.outcome FROM reminder_steps s JOIN invitations i ON i.id = s.invitation_id WHERE i.application_id = $1`,
      [appId],
    );
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.every((st) => st.status === 'skipped' && st.outcome === 'The client sent the application for review.')).toBe(true);
    // Staff home lists it under In review.
    const home = (await staff.get('/', { headers: { Accept: 'text/html' } })).text.replace(/<!-- -->/g, '');
    const inReview = home.slice(home.indexOf('In review ('), home.indexOf('Changes requested ('));
    expect(inReview).toContain(`href="/applications/${appId}"`);

    // In review the client's form is read-only, and the send it repeated is stale.
    const locked = await saveLegalName(client, appId, 'Too Late Ltd');
    expect(locked.status).toBe(409);
    expect(errorOf(locked).details).toEqual([expect.objectContaining({ code: 'in_review' })]);
    const stale = await client.post(url(appId, '/send'), { ifMatch: draft.etag });
    expect(stale.status).toBe(412);
    expect(stale.headers.get('etag')).toBe(sent.etag);
    expect((stale.body as { current: { review: ReviewView } }).current.review.state).toBe('in_review');

    // Staff ask for one change, with a note the client never sees.
    const asked = await act(staff, appId, '/requests', sent.etag, { target: legalName, comment: 'Use the name on the <b>certificate</b>.', staff_note: 'Companies House says Ltd' }, 201);
    expect(asked.open_count).toBe(1);
    const [request] = asked.requests;
    expect(request).toMatchObject({ target: 'answer', label: 'Legal business name', comment: 'Use the name on the <b>certificate</b>.', staff_note: 'Companies House says Ltd', status: 'open' });
    expect(request!.field_name).toMatch(/^a\.[a-z_]+\.legal_name\.value$/);
    expect((await staff.post(url(appId, '/requests'), { ifMatch: sent.etag, body: { target: legalName, comment: 'again' } })).status).toBe(412);

    const returned = await act(staff, appId, '/return', asked.etag);
    expect(returned.state).toBe('changes_requested');
    const db = await bffDb();
    const mails = await db.query<{ template: string; subject: string; text_body: string }>('SELECT template, subject, text_body FROM outbox WHERE recipient = $1 ORDER BY created_at', [address]);
    expect(mails.map((m) => m.template)).toEqual(['invitation', 'changes_requested']);
    expect(mails[1]!.subject).toBe('Your application for Review Flow Ltd: changes requested');
    expect(mails[1]!.text_body).toContain('Legal business name: Use the name on the <b>certificate</b>.');
    expect(mails[1]!.text_body).not.toContain('Companies House');

    // The client sees the request without the note, replies, and fixes the answer: that resolves it.
    const seen = await review(client, appId);
    expect(seen.requests[0]).toMatchObject({ id: request!.id, staff_note: null, status: 'open' });
    const replied = await act(client, appId, '/replies', seen.etag, { request_id: request!.id, text: 'Fixed, see the new name.' });
    expect(replied.requests[0]!.replies).toEqual([expect.objectContaining({ by: 'client', name: null, text: 'Fixed, see the new name.' })]);
    const before = (await staff.get<{ application: ApplicationView }>(`/api/applications/${appId}`)).body;
    expect(before).toBeTruthy();
    const fixed = await saveLegalName(client, appId, 'Review Flow Limited');
    expect(fixed.status, fixed.text).toBe(200);
    AnswersWriteResult.parse(fixed.body);
    const resolved = await review(client, appId);
    expect(resolved.open_count).toBe(0);
    expect(resolved.requests[0]).toMatchObject({ status: 'resolved', resolved_how: 'changed', changed: { to: 'Review Flow Limited' } });
    expect(resolved.requests[0]!.changed!.from).not.toBe('Review Flow Limited');

    const back = await act(client, appId, '/send', resolved.etag);
    expect(back.state).toBe('in_review');

    // A request staff resolve themselves, then Submit to the Portal through the submit route.
    const second = await act(staff, appId, '/requests', back.etag, { target: { kind: 'answer', schema_key: 'trading_name', field_key: 'value' }, comment: 'Is this right?' }, 201);
    const open = second.requests.find((r) => r.status === 'open')!;
    const done = await act(staff, appId, '/resolve', second.etag, { request_id: open.id });
    expect(done.requests.find((r) => r.id === open.id)).toMatchObject({ status: 'resolved', resolved_how: 'staff' });
    const app = (await staff.get<{ application: ApplicationView }>(`/api/applications/${appId}`)).body.application;
    const submitted = await staff.post(`/api/applications/${appId}/submit`, { ifMatch: app.etag, idempotencyKey: randomUUID() });
    expect(submitted.status, submitted.text).toBe(200);
    expect((await review(staff, appId)).state).toBe('submitted');

    const timeline = await staff.get(`/applications/${appId}/timeline`, { headers: { Accept: 'text/html' } });
    const text = timeline.text.replace(/<!-- -->/g, '');
    for (const line of [
      'The client sent the application for review',
      'requested changes (1 to make)',
      'The client resolved the change request on “Legal business name” by changing it',
      'ended the review by submitting the application',
    ]) {
      expect(text).toContain(line);
    }
  });

  it('keeps requests to staff: the client cannot make or resolve one, nor reach another application’s', async () => {
    const appId = await freshApplication(portal(), 'Review Rights Ltd');
    const otherId = await freshApplication(portal(), 'Review Other Ltd');
    const { client: staff } = await signedIn('staff');
    const client = await clientSessionFor(appId);
    await fillFromExamples(portal(), appId);
    await fillFromExamples(portal(), otherId);
    // A staff page open on the application hears of the client's send (a live event, then it reads the review).
    const stream = await openEventStream(staff, `application_id=${appId}`);
    const sent = await act(client, appId, '/send', (await review(client, appId)).etag);
    try {
      const heard = await stream.next((m) => m.type === 'application.review_changed', 20_000);
      expect(heard).toMatchObject({ application_id: appId, answers_revision: null });
    } finally {
      stream.close();
    }
    const otherClient = await clientSessionFor(otherId);
    const otherSent = await act(otherClient, otherId, '/send', (await review(otherClient, otherId)).etag);
    const other = await act(staff, otherId, '/requests', otherSent.etag, { target: legalName, comment: 'Theirs' }, 201);
    const mine = await act(staff, appId, '/requests', sent.etag, { target: legalName, comment: 'Mine' }, 201);

    const resolve = await client.post(url(appId, '/resolve'), { ifMatch: mine.etag, body: { request_id: mine.requests[0]!.id } });
    expect(resolve.status).toBe(403);
    expect((await client.post(url(appId, '/requests'), { ifMatch: mine.etag, body: { target: legalName, comment: 'x' } })).status).toBe(403);
    expect((await client.post(url(appId, '/return'), { ifMatch: mine.etag })).status).toBe(403);
    expect((await client.get(url(otherId))).status).toBe(404);
    // Another application's request through this application's path is as missing as an unknown one.
    const foreign = await client.post(url(appId, '/replies'), { ifMatch: mine.etag, body: { request_id: other.requests[0]!.id, text: 'hi' } });
    expect(foreign.status).toBe(404);
    expect((await client.post(url(otherId, '/replies'), { ifMatch: other.etag, body: { request_id: other.requests[0]!.id, text: 'hi' } })).status).toBe(404);
    expect((await review(staff, otherId)).requests[0]!.replies).toEqual([]);
    // A review action without If-Match is refused before anything happens.
    expect((await client.post(url(appId, '/send'))).status).toBe(428);
  });

  it('refuses comments that are empty, too long, or carry NUL or text-direction controls, and unknown targets', async () => {
    const appId = await freshApplication(portal(), 'Review Comments Ltd');
    const { client: staff } = await signedIn('staff');
    const client = await clientSessionFor(appId);
    await fillFromExamples(portal(), appId);
    const sent = await act(client, appId, '/send', (await review(client, appId)).etag);
    const post = (body: unknown) => staff.post(url(appId, '/requests'), { ifMatch: sent.etag, body });
    for (const comment of ['   ', 'x'.repeat(1001), 'bad\u0000byte', 'reads \u202ebackwards']) {
      const r = await post({ target: legalName, comment });
      expect(r.status, JSON.stringify(comment)).toBe(422);
      expect(errorOf(r).details[0]!.parameter).toBe('comment');
    }
    expect((await post({ target: { kind: 'answer', schema_key: 'no_such_question', field_key: 'value' }, comment: 'x' })).status).toBe(422);
    expect((await post({ target: legalName, comment: 'x', extra: true })).status).toBe(422);
    // 1000 characters with line breaks are fine; nothing was made by the refusals.
    const ok = await act(staff, appId, '/requests', sent.etag, { target: legalName, comment: `line one\n${'y'.repeat(991)}` }, 201);
    expect(ok.requests).toHaveLength(1);
  });
});
