import { describe, expect, it } from 'vitest';
import { BffErrorBody } from '@/lib/bff/errors';
import { FormSnapshotView } from '@/lib/bff/form-snapshot';
import type { ReviewAnswerView, ReviewMarksView } from '@/lib/bff/review-marks';
import type { ReviewView } from '@/lib/bff/review';
import type { RunningSandbox } from '@/server/sandbox/server';
import { fillFromExamples, freshApplication, readContract, uploadFile, w } from './support/applications';
import { clientSessionFor, signedIn, bffStack, type BffClient } from './support/bff';
import { KEYS, SandboxClient } from './support/sandbox';
import { openEventStream } from './support/sse';

/*
 * Review mode through HTTP against the stack (DESIGN.md §9): staff mark answers "Looks right" one by one,
 * each quoting that answer's ETag; a stale one is a 412 with the marks as they are now; a value changed
 * after its mark is no longer reviewed; clients neither see nor give marks.
 */

const portal = () => new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full);
const marksUrl = (appId: string) => `/api/applications/${appId}/review/marks`;
const errorOf = (r: { body: unknown }) => BffErrorBody.parse(r.body).error;

async function marks(client: BffClient, appId: string): Promise<ReviewMarksView> {
  const r = await client.get<{ marks: ReviewMarksView }>(marksUrl(appId));
  expect(r.status, r.text).toBe(200);
  return r.body.marks;
}

const answerOf = (view: ReviewMarksView, schemaKey: string) => view.sections.flatMap((s) => s.answers).find((a) => a.schema_key === schemaKey && a.item_id === null)!;
const bodyOf = (a: ReviewAnswerView, looksRight = true) => ({ schema_key: a.schema_key, field_key: a.field_key, item_id: a.item_id, file_id: a.file_id, looks_right: looksRight });

async function mark(client: BffClient, appId: string, a: ReviewAnswerView, looksRight = true, status = 200) {
  const r = await client.post<{ marks: ReviewMarksView }>(marksUrl(appId), { ifMatch: a.etag, body: bodyOf(a, looksRight) });
  expect(r.status, r.text).toBe(status);
  return r;
}

async function sendForReview(appId: string) {
  const client = await clientSessionFor(appId);
  const now = (await client.get<{ review: ReviewView }>(`/api/applications/${appId}/review`)).body.review;
  const sent = await client.post(`/api/applications/${appId}/review/send`, { ifMatch: now.etag });
  expect(sent.status, sent.text).toBe(200);
  return client;
}

describe('review mode marks', () => {
  it('marks answers looks right, counts them, refuses a stale mark with the marks now, and clears a mark when the value changes', async () => {
    const appId = await freshApplication(portal(), 'Marks Flow Ltd');
    const { client: staff } = await signedIn('staff');
    const { client: other } = await signedIn('staff');
    await fillFromExamples(portal(), appId);

    // Before the client sends it, there is nothing to mark yet.
    const early = await marks(staff, appId);
    expect(early.state).toBe('draft');
    expect(early.total).toBeGreaterThan(1);
    expect(early.reviewed).toBe(0);
    expect((await staff.post(marksUrl(appId), { ifMatch: answerOf(early, 'legal_name').etag, body: bodyOf(answerOf(early, 'legal_name')) })).status).toBe(409);

    await sendForReview(appId);
    const first = await marks(staff, appId);
    expect(first.state).toBe('in_review');
    expect(first.sections.reduce((n, s) => n + s.total, 0)).toBe(first.total);
    const legal = answerOf(first, 'legal_name');
    expect(legal).toMatchObject({ label: 'Legal business name', mark: null, changed_since_mark: false });

    // Another staff page hears the mark live.
    const stream = await openEventStream(other, `application_id=${appId}`);
    let marked: ReviewMarksView;
    try {
      marked = (await mark(staff, appId, legal)).body.marks;
      await stream.next((m) => m.type === 'application.review_changed', 20_000);
    } finally {
      stream.close();
    }
    expect(marked.reviewed).toBe(1);
    expect(answerOf(marked, 'legal_name').mark).toMatchObject({ by: expect.any(String) });
    expect(answerOf(await marks(other, appId), 'legal_name').mark).not.toBeNull();

    // The second staff member's page still shows the answer unmarked: their mark is stale, and the 412 brings the marks now.
    const stale = await other.post<{ current: { marks: ReviewMarksView } }>(marksUrl(appId), { ifMatch: legal.etag, body: bodyOf(legal, false) });
    expect(stale.status).toBe(412);
    expect(errorOf(stale).code).toBe('precondition_failed');
    expect(answerOf(stale.body.current.marks, 'legal_name').mark).not.toBeNull();

    // Marking every answer brings the progress to M of M; taking one back lowers it.
    let view = marked;
    for (const a of view.sections.flatMap((s) => s.answers).filter((x) => !x.mark)) view = (await mark(staff, appId, a)).body.marks;
    expect(view.reviewed).toBe(view.total);
    expect(view.sections.every((s) => s.reviewed === s.total)).toBe(true);
    const another = view.sections.flatMap((s) => s.answers).find((a) => a.schema_key !== 'legal_name')!;
    view = (await mark(staff, appId, another, false)).body.marks;
    expect(view.reviewed).toBe(view.total - 1);

    // A value changed after its mark (here by staff; the client's fix or a change outside the app alike) is no longer reviewed.
    const form = FormSnapshotView.parse((await staff.get(`/api/applications/${appId}/form`)).body);
    const saved = await staff.patch(`/api/applications/${appId}/answers`, {
      ifMatch: form.answers.etag,
      body: { answers_revision: form.answers.answers_revision, answers: [w('legal_name', 'Marks Flow Limited')] },
    });
    expect(saved.status, saved.text).toBe(200);
    const after = await marks(staff, appId);
    expect(answerOf(after, 'legal_name')).toMatchObject({ mark: null, changed_since_mark: true, value_text: 'Marks Flow Limited' });
    expect(after.reviewed).toBe(view.reviewed - 1);
    // The page's ETag of the answer quoted the old value: marking with it is stale; with the new one it holds again.
    expect((await staff.post(marksUrl(appId), { ifMatch: answerOf(view, 'legal_name').etag, body: bodyOf(legal) })).status).toBe(412);
    const again = (await mark(staff, appId, answerOf(after, 'legal_name'))).body.marks;
    expect(answerOf(again, 'legal_name')).toMatchObject({ changed_since_mark: false, mark: expect.anything() });
  });

  it('refuses clients (neither reading nor marking), reviewers marking, a missing If-Match and unknown answers', async () => {
    const appId = await freshApplication(portal(), 'Marks Rights Ltd');
    const { client: staff } = await signedIn('staff');
    const { client: reviewer } = await signedIn('reviewer');
    await fillFromExamples(portal(), appId);
    const client = await sendForReview(appId);
    const view = await marks(staff, appId);
    const legal = answerOf(view, 'legal_name');

    expect((await client.get(marksUrl(appId))).status).toBe(403);
    expect((await client.post(marksUrl(appId), { ifMatch: legal.etag, body: bodyOf(legal) })).status).toBe(403);
    expect((await marks(reviewer, appId)).total).toBe(view.total);
    expect((await reviewer.post(marksUrl(appId), { ifMatch: legal.etag, body: bodyOf(legal) })).status).toBe(403);
    expect((await staff.post(marksUrl(appId), { body: bodyOf(legal) })).status).toBe(428);
    expect((await staff.post(marksUrl(appId), { ifMatch: legal.etag, body: { ...bodyOf(legal), extra: 1 } })).status).toBe(422);
    // An answer that is not one to review (no such question) is as stale as one emptied since.
    expect((await staff.post(marksUrl(appId), { ifMatch: legal.etag, body: { ...bodyOf(legal), schema_key: 'no_such_question' } })).status).toBe(412);
    expect((await marks(staff, appId)).reviewed).toBe(0);
  });

  it('lists each attached file and each item to review, and a change asked of one item or one file links the client to its control', async () => {
    const appId = await freshApplication(portal(), 'Marks Targets Ltd');
    const { client: staff } = await signedIn('staff');
    await fillFromExamples(portal(), appId);
    const question = (await readContract(portal(), appId)).questions.find((q) => q.answer_shape === 'file' && !q.is_repeatable)!;
    await uploadFile(portal(), appId, { block_key: question.block_key, schema_key: question.schema_key, field_key: question.fields[0]!.field_key }, '%PDF-1.4 statement', {
      filename: 'statement.pdf',
    });
    const client = await sendForReview(appId);
    const view = await marks(staff, appId);
    const file = view.sections.flatMap((s) => s.answers).find((a) => a.file_id !== null)!;
    const item = view.sections.flatMap((s) => s.items)[0]!;
    expect(file).toMatchObject({ value_text: 'statement.pdf', file_id: expect.stringMatching(/^afile_/) });
    expect(file.label).toContain(`: ${file.value_text}`);
    expect(item).toMatchObject({ label: expect.stringMatching(/, item 1$/), item_id: expect.stringMatching(/^ritem_/) });
    // A file is marked on its own.
    const marked = (await mark(staff, appId, file)).body.marks;
    expect(marked.sections.flatMap((s) => s.answers).find((a) => a.key === file.key)!.mark).not.toBeNull();
    expect(marked.reviewed).toBe(1);

    const reviewUrl = `/api/applications/${appId}/review`;
    const etag = (await staff.get<{ review: ReviewView }>(reviewUrl)).body.review.etag;
    const onFile = await staff.post<{ review: ReviewView }>(`${reviewUrl}/requests`, {
      ifMatch: etag,
      body: { target: { kind: 'file', schema_key: file.schema_key, field_key: file.field_key, file_id: file.file_id, item_id: file.item_id }, comment: 'Three months old.' },
    });
    expect(onFile.status, onFile.text).toBe(201);
    const onItem = await staff.post<{ review: ReviewView }>(`${reviewUrl}/requests`, {
      ifMatch: onFile.body.review.etag,
      body: { target: { kind: 'item', block_key: item.block_key, item_id: item.item_id }, comment: 'Is this owner still a director?' },
    });
    expect(onItem.status, onItem.text).toBe(201);
    const returned = await staff.post(`${reviewUrl}/return`, { ifMatch: onItem.body.review.etag });
    expect(returned.status, returned.text).toBe(200);

    const seen = (await client.get<{ review: ReviewView }>(reviewUrl)).body.review;
    expect(seen.open_count).toBe(2);
    const fileRequest = seen.requests.find((r) => r.target === 'file')!;
    const itemRequest = seen.requests.find((r) => r.target === 'item')!;
    // The file's link focuses its question's control; the item's, the item's first field.
    expect(fileRequest).toMatchObject({ file_id: file.file_id, field_name: file.field_name, label: expect.stringMatching(/\(one file\)$/) });
    expect(itemRequest.item_id).toBe(item.item_id);
    expect(itemRequest.field_name).toContain(item.item_id);
  });
});
