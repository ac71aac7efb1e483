import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EvidenceUploadReply,
  PreparationConflictReply,
  PreparationReply,
  RunReply,
  RunsPageView,
  SuggestionAcceptReply,
  SuggestionDismissReply,
  SuggestionsPageView,
  type PreparationView,
  type RunView,
  type SuggestionView,
} from '@/lib/bff/autofill';
import { AnswersPageView } from '@/lib/bff/applications';
import { HistoryPageView } from '@/lib/bff/history';
import { BffErrorBody } from '@/lib/bff/errors';
import type { RunningSandbox } from '@/server/sandbox/server';
import { seedDocuments } from '@/server/sandbox/seed/documents';
import { freshApplication, mustWriteAnswers, w } from './support/applications';
import { BffClient, bffStack, signedIn, type Reply } from './support/bff';
import { auditRowsOfApplication, clientSession, expectNoPortalUrl, newIdempotencyKey } from './support/bff-businesses';
import { KEYS, SandboxClient } from './support/sandbox';
import { poller } from '../support/poller';
import { SEED_LEGAL_NAME_SUGGESTION, expectSeedDocumentsRead } from '../support/seed-documents';

/*
 * The BFF's Autofill routes through HTTP against the real stack: every reply is parsed with lib/bff/autofill
 * and checked for the sandbox's host. Each test makes its own business with the demo key; the sandbox clock
 * runs fast for this file (and is put back to normal speed at the end).
 */

const portal = () => new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full);
const newApp = (name = 'BFF Autofill Test Ltd') => freshApplication(portal(), name);

async function setClockSpeed(speed: number) {
  const r = await fetch(`${bffStack().sandboxOrigin}/_sandbox/clock`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ speed }),
  });
  if (r.status !== 200) throw new Error(`clock → ${r.status}: ${await r.text()}`);
}
beforeAll(() => setClockSpeed(200));
afterAll(() => setClockSpeed(1));

const base = (appId: string) => `/api/applications/${appId}/autofill`;
const errorOf = (r: Reply) => BffErrorBody.parse(r.body).error;

/** Every reply a test saw, so none of them may carry the sandbox's host or the API key. */
const seen: Reply[] = [];
const track = <T extends Reply>(r: T): T => {
  seen.push(r);
  return r;
};
afterAll(() => {
  for (const r of seen) {
    expectNoPortalUrl(r);
    expect(r.text, r.text.slice(0, 300)).not.toMatch(/"(\w+_)?url"\s*:/);
  }
});

const until = poller({ timeoutMs: 10_000, everyMs: 25 });

async function readPrep(client: BffClient, appId: string): Promise<PreparationReply> {
  const r = track(await client.get(`${base(appId)}/preparation`));
  if (r.status !== 200) throw new Error(`GET preparation → ${r.status}: ${r.text}`);
  const reply = PreparationReply.parse(r.body);
  expect(r.headers.get('etag')).toBe(reply.etag);
  return reply;
}

async function patchPrep(client: BffClient, appId: string, body: unknown) {
  const { etag } = await readPrep(client, appId);
  const r = track(await client.patch(`${base(appId)}/preparation`, { ifMatch: etag!, body }));
  if (r.status !== 200) throw new Error(`PATCH preparation → ${r.status}: ${r.text}`);
  return PreparationReply.parse(r.body);
}

/** POSTs an evidence file the way the app's upload control does: raw bytes, Content-Type, X-Filename (percent-encoded). */
async function upload(client: BffClient, appId: string, bytes: Uint8Array | string, contentType: string, filename: string | null, csrf = true) {
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': contentType };
  if (filename !== null) headers['X-Filename'] = encodeURIComponent(filename);
  if (csrf) {
    headers['X-CSRF'] = '1';
    headers.Origin = client.base;
  }
  if (client.cookies.size) headers.Cookie = client.cookieHeader();
  const res = await fetch(`${client.base}${base(appId)}/preparation/files`, { method: 'POST', headers, body: bytes as BodyInit });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return track({ status: res.status, headers: res.headers, body, text });
}

async function mustUpload(client: BffClient, appId: string, bytes: Uint8Array | string, contentType: string, filename: string) {
  const r = await upload(client, appId, bytes, contentType, filename);
  if (r.status !== 201) throw new Error(`evidence upload → ${r.status}: ${r.text}`);
  return EvidenceUploadReply.parse(r.body);
}

const settled = (p: PreparationView) => p.files.every((f) => f.status === 'success' || f.status === 'failed');
const waitForFiles = async (client: BffClient, appId: string) =>
  (await until(() => readPrep(client, appId), (r) => settled(r.preparation), 'evidence files to be read')).preparation;

async function start(client: BffClient, appId: string, body: Record<string, unknown> = {}, key = newIdempotencyKey('start')) {
  const { preparation } = await readPrep(client, appId);
  return track(await client.post(`${base(appId)}/start`, { body: { expected_preparation_revision: preparation.revision, ...body }, idempotencyKey: key }));
}

async function mustStart(client: BffClient, appId: string, body: Record<string, unknown> = {}) {
  const r = await start(client, appId, body);
  if (r.status !== 201) throw new Error(`start → ${r.status}: ${r.text}`);
  return RunReply.parse(r.body).run;
}

async function readRun(client: BffClient, appId: string, runId: string) {
  const r = track(await client.get(`${base(appId)}/runs/${runId}`));
  if (r.status !== 200) throw new Error(`GET run → ${r.status}: ${r.text}`);
  return RunReply.parse(r.body).run;
}

const finished = (r: RunView) => r.status === 'completed' || r.status === 'failed';
const waitForRun = (client: BffClient, appId: string, runId: string) => until(() => readRun(client, appId, runId), finished, `run ${runId} to finish`);

async function allSuggestions(client: BffClient, appId: string, runId: string, status?: string) {
  const items: SuggestionView[] = [];
  let cursor: string | null = null;
  do {
    const q = new URLSearchParams({ page_size: '10' });
    if (status) q.set('status', status);
    if (cursor) q.set('cursor', cursor);
    const r = track(await client.get(`${base(appId)}/runs/${runId}/suggestions?${q}`));
    if (r.status !== 200) throw new Error(`GET suggestions → ${r.status}: ${r.text}`);
    const page = SuggestionsPageView.parse(r.body);
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}

const accept = async (client: BffClient, appId: string, id: string) => track(await client.post(`${base(appId)}/suggestions/${id}/accept`));
const dismiss = async (client: BffClient, appId: string, id: string) => track(await client.post(`${base(appId)}/suggestions/${id}/dismiss`));

/** An application whose preparation holds `text`, with a completed (or failed) run. */
async function appWithRun(client: BffClient, text: string) {
  const appId = await newApp();
  await patchPrep(client, appId, { text_input: text });
  const run = await waitForRun(client, appId, (await mustStart(client, appId)).id);
  return { appId, run };
}

describe('a whole Autofill round through the BFF', () => {
  it('text and seed documents → read → start → completed → suggestions → accept, dismiss, stale', async () => {
    const { client } = await signedIn('staff');
    const appId = await newApp('Harbour Street Café');

    const first = await readPrep(client, appId);
    expect(first.preparation).toEqual({
      revision: 1,
      text_input: null,
      ai_mode: 'fast',
      file_count: 0,
      files: [],
      evidence_sources: [],
      selected_evidence_source_count: 0,
      can_start: false,
    });
    const patched = track(
      await client.patch(`${base(appId)}/preparation`, {
        ifMatch: first.etag!,
        body: { text_input: 'Contact name: Luca Fontana\nPreferred contact: phone' },
      }),
    );
    expect(patched.status).toBe(200);
    expect(patched.headers.get('cache-control')).toBe('private, no-store');
    const afterText = PreparationReply.parse(patched.body);
    expect(afterText.preparation).toMatchObject({ revision: 2, can_start: true, selected_evidence_source_count: 1 });
    expect(afterText.preparation.evidence_sources).toEqual([
      expect.objectContaining({ id: 'afev_text', kind: 'text', name: null, status: 'success', failure_reason: null, selected: true }),
    ]);
    expect(afterText.etag).not.toBe(first.etag);

    for (const d of seedDocuments()) {
      const up = await mustUpload(client, appId, new Uint8Array(d.bytes), d.contentType, d.name);
      expect(up.uploaded_file).toMatchObject({ kind: 'file', name: d.name, content_type: d.contentType, size: d.bytes.byteLength });
      expect(up.preparation.files.map((f) => f.name)).toContain(d.name);
      expect(up.etag).toMatch(/^"/);
    }
    expectSeedDocumentsRead(await waitForFiles(client, appId));

    // Start: the same Idempotency-Key replays the first run rather than starting another.
    const prep = await readPrep(client, appId);
    const key = newIdempotencyKey('start');
    const body = { expected_preparation_revision: prep.preparation.revision };
    const started = track(await client.post(`${base(appId)}/start`, { body, idempotencyKey: key }));
    expect(started.status).toBe(201);
    const run = RunReply.parse(started.body).run;
    expect(run).toMatchObject({ status: 'pending', attempt_sequence: 1, can_retry: false, failure: null, progress: { step: 'queued', completed_units: 0 } });
    expect(Object.keys(run).sort()).toEqual(
      ['id', 'status', 'progress', 'suggestion_count', 'warning_count', 'can_retry', 'attempt_sequence', 'failure', 'created_at', 'updated_at'].sort(),
    );
    const replay = track(await client.post(`${base(appId)}/start`, { body, idempotencyKey: key }));
    expect(replay.status).toBe(201);
    expect(RunReply.parse(replay.body).run.id).toBe(run.id);

    const done = await waitForRun(client, appId, run.id);
    expect(done).toMatchObject({ id: run.id, status: 'completed', suggestion_count: 35, warning_count: 3, progress: { step: 'completed', completed_units: 12, total_units: 12 } });
    const runs = RunsPageView.parse(track(await client.get(`${base(appId)}/runs?page_size=5`)).body);
    expect(runs.items.map((r) => r.id)).toEqual([run.id]);

    const suggestions = await allSuggestions(client, appId, run.id);
    expect(suggestions).toHaveLength(35);
    for (const s of suggestions) {
      expect(s).toMatchObject({ run_id: run.id, status: 'pending', suggestion_kind: 'answer', target_scope: null, current_value: null });
      expect(s).not.toHaveProperty('run');
    }
    const byTarget = new Map(suggestions.map((s) => [s.target_attribute, s]));
    const legal = byTarget.get('legal_name/legal_name/value')!;
    expect(legal).toMatchObject(SEED_LEGAL_NAME_SUGGESTION);
    expect(byTarget.get('preferred_contact/preferred_contact/value')).toMatchObject({
      source: { kind: 'text', evidence_source_id: 'afev_text', file_name: null },
      concerns: [{ code: 'conflicting_evidence', message: expect.any(String) }],
    });

    // Accept: the answer is written, and the answers read through the BFF carry the new revision.
    const accepted = await accept(client, appId, legal.id);
    expect(accepted.status).toBe(200);
    const result = SuggestionAcceptReply.parse(accepted.body);
    expect(result.suggestion).toMatchObject({ id: legal.id, status: 'accepted' });
    const answers = AnswersPageView.parse(track(await client.get(`/api/applications/${appId}/answers?page_size=500`)).body);
    expect(answers.answers_revision).toBe(result.answers_revision);
    expect(answers.items.find((a) => a.block_key === 'legal_name' && a.field_key === 'value')?.value).toBe('Harbour Street Hospitality Ltd');
    // History names the suggestion and the reviewer who accepted it, from the suggestion's current value.
    const history = HistoryPageView.parse(track(await client.get(`/api/applications/${appId}/answers/history?schema_key=legal_name&field_key=value`)).body);
    expect(history.entries.map((e) => ({ old: e.old, new: e.new_value, by: e.by, revision: e.answers_revision }))).toEqual([
      { old: { known: true, value: null }, new: 'Harbour Street Hospitality Ltd', by: { kind: 'autofill', name: 'Test staff' }, revision: result.answers_revision },
    ]);
    const again = await accept(client, appId, legal.id);
    expect(again.status).toBe(409);
    expect(errorOf(again).details.map((d) => d.code)).toEqual(['suggestion_not_pending']);

    // Dismiss the low-confidence guess.
    const guess = byTarget.get('signature_date/signature_date/value')!;
    const dismissed = await dismiss(client, appId, guess.id);
    expect(dismissed.status).toBe(200);
    expect(SuggestionDismissReply.parse(dismissed.body).suggestion).toMatchObject({ id: guess.id, status: 'dismissed' });

    // A direct answer write makes its suggestion stale: listed as stale, and accepting it is a conflict.
    const trading = byTarget.get('trading_name/trading_name/value')!;
    await mustWriteAnswers(portal(), appId, [w('trading_name', 'Harbour Street Coffee')]);
    expect((await allSuggestions(client, appId, run.id, 'stale')).map((s) => s.id)).toEqual([trading.id]);
    const refused = await accept(client, appId, trading.id);
    expect(refused.status).toBe(409);
    expect(errorOf(refused)).toMatchObject({ code: 'conflict', details: [expect.objectContaining({ code: 'stale_suggestion', block_key: 'trading_name' })] });
    expect(errorOf(refused).request_id).toMatch(/\w/);
    expect((await allSuggestions(client, appId, run.id, 'accepted')).map((s) => s.id)).toEqual([legal.id]);

    // Every write is in the audit log, with its outcome and the Portal's request id.
    const audit = async (op: string) => (await auditRowsOfApplication(op, appId)).map((r) => [r.outcome, r.status, r.object_type, r.object_id]);
    expect(await audit('autofill.preparation_update')).toEqual([['success', 200, 'autofill_preparation', appId]]);
    expect(await audit('autofill.evidence_upload')).toEqual(Array(3).fill(['success', 201, 'autofill_preparation', appId]));
    expect(await audit('autofill.start')).toEqual(Array(2).fill(['success', 201, 'autofill_preparation', appId]));
    expect(await audit('autofill.suggestion_accept')).toEqual([
      ['success', 200, 'autofill_suggestion', legal.id],
      ['failure', 409, 'autofill_suggestion', legal.id],
      ['failure', 409, 'autofill_suggestion', trading.id],
    ]);
    expect(await audit('autofill.suggestion_dismiss')).toEqual([['success', 200, 'autofill_suggestion', guess.id]]);
    for (const row of await auditRowsOfApplication('autofill.start', appId)) expect(row.upstream_request_id).toMatch(/\w/);
  });
});

describe('failed runs', () => {
  it('a run that fails ([[fail]]) can be retried with an Idempotency-Key, and then completes', async () => {
    const { client } = await signedIn('staff');
    const { appId, run } = await appWithRun(client, 'Employees: 12\n[[fail]]');
    expect(run).toMatchObject({ status: 'failed', can_retry: true, attempt_sequence: 1, suggestion_count: 0 });
    expect(run.failure).toEqual({ code: 'engine_failure', message: expect.stringContaining('[[fail]]') });

    const noKey = track(await client.post(`${base(appId)}/runs/${run.id}/retry`));
    expect(noKey.status).toBe(428);
    expect(errorOf(noKey).details[0]).toMatchObject({ parameter: 'Idempotency-Key' });

    await patchPrep(client, appId, { text_input: 'Employees: 12' });
    const key = newIdempotencyKey('retry');
    const retried = track(await client.post(`${base(appId)}/runs/${run.id}/retry`, { idempotencyKey: key }));
    expect(retried.status).toBe(200);
    expect(RunReply.parse(retried.body).run).toMatchObject({ id: run.id, status: 'pending', attempt_sequence: 2, can_retry: false, failure: null });
    const done = await waitForRun(client, appId, run.id);
    expect(done).toMatchObject({ status: 'completed', attempt_sequence: 2, suggestion_count: 1 });

    const notRetryable = track(await client.post(`${base(appId)}/runs/${run.id}/retry`, { idempotencyKey: newIdempotencyKey('retry') }));
    expect(notRetryable.status).toBe(409);
    expect(errorOf(notRetryable).details.map((d) => d.code)).toEqual(['not_retryable']);
    expect((await auditRowsOfApplication('autofill.retry', appId)).map((r) => [r.outcome, r.status, r.object_id])).toEqual([
      ['failure', 428, run.id],
      ['success', 200, run.id],
      ['failure', 409, run.id],
    ]);
  });

  it('retries a run the BFF has not seen yet (read below autofill_runs_url), and 404s an unknown one', async () => {
    const { client } = await signedIn('staff');
    const appId = await newApp();
    // Started with the demo key directly: this BFF process has never seen the run.
    const direct = portal();
    const prep = await readPrep(client, appId);
    const patched = await client.patch(`${base(appId)}/preparation`, { ifMatch: prep.etag!, body: { text_input: '[[fail]]' } });
    const revision = PreparationReply.parse(patched.body).preparation.revision;
    const startedDirectly = await direct.post(`client-intake-applications/${appId}/autofill-preparation/start/`, {
      body: { expected_preparation_revision: revision },
      idempotencyKey: newIdempotencyKey('direct'),
    });
    expect(startedDirectly.status).toBe(201);
    const runId = (startedDirectly.body as { id: string }).id;
    // Waited for directly too, so the BFF learns nothing about the run before the retry.
    await until(
      async () => (await direct.get<{ status: string }>(`client-intake-applications/${appId}/autofill-runs/${runId}/`)).body.status,
      (status) => status === 'failed',
      'the direct run to fail',
    );
    const retried = track(await client.post(`${base(appId)}/runs/${runId}/retry`, { idempotencyKey: newIdempotencyKey('retry') }));
    expect(retried.status).toBe(200);
    const missing = track(await client.get(`${base(appId)}/runs/afrun_nope`));
    expect(missing.status).toBe(404);
    expect(track(await client.get(`${base(appId)}/runs/not-a-run`)).status).toBe(400);
  });
});

describe('preconditions and validation', () => {
  it('answers a stale preparation ETag or revision with 412 and the current preparation', async () => {
    const { client } = await signedIn('staff');
    const appId = await newApp();
    const first = await readPrep(client, appId);
    const ok = await patchPrep(client, appId, { text_input: 'Employees: 4' });

    const stale = track(await client.patch(`${base(appId)}/preparation`, { ifMatch: first.etag!, body: { ai_mode: 'thinking' } }));
    expect(stale.status).toBe(412);
    const conflict = PreparationConflictReply.parse(stale.body);
    expect(conflict.error.code).toBe('precondition_failed');
    expect(conflict.current).toEqual(ok);
    expect(stale.headers.get('etag')).toBe(ok.etag);

    const staleStart = track(
      await client.post(`${base(appId)}/start`, { body: { expected_preparation_revision: first.preparation.revision }, idempotencyKey: newIdempotencyKey() }),
    );
    expect(staleStart.status).toBe(412);
    const startConflict = PreparationConflictReply.parse(staleStart.body);
    expect(startConflict.error.details.map((d) => d.code)).toEqual(['stale_revision']);
    expect(startConflict.current.preparation).toMatchObject({ revision: ok.preparation.revision, text_input: 'Employees: 4' });

    // Evidence removal quotes the preparation's ETag as well.
    const up = await mustUpload(client, appId, 'Website: www.example.com', 'text/plain', 'site.txt');
    const fileId = up.uploaded_file!.id!;
    const staleDelete = track(await client.delete(`${base(appId)}/preparation/files/${fileId}`, { ifMatch: ok.etag! }));
    expect(staleDelete.status).toBe(412);
    expect(PreparationConflictReply.parse(staleDelete.body).current.preparation.file_count).toBe(1);
    await waitForFiles(client, appId);
    const fresh = await readPrep(client, appId);
    const removed = track(await client.delete(`${base(appId)}/preparation/files/${fileId}`, { ifMatch: fresh.etag! }));
    expect(removed.status).toBe(200);
    expect(PreparationReply.parse(removed.body).preparation).toMatchObject({ file_count: 0, files: [] });
    const gone = track(await client.delete(`${base(appId)}/preparation/files/${fileId}`, { ifMatch: PreparationReply.parse(removed.body).etag! }));
    expect(gone.status).toBe(404);
    expect((await auditRowsOfApplication('autofill.evidence_delete', appId)).map((r) => [r.outcome, r.status, r.object_id])).toEqual([
      ['failure', 412, fileId],
      ['success', 200, fileId],
      ['failure', 404, fileId],
    ]);
  });

  it('requires If-Match and an Idempotency-Key, validates bodies, and passes the Portal’s 409 on', async () => {
    const { client } = await signedIn('staff');
    const appId = await newApp();
    const { etag } = await readPrep(client, appId);
    const prepPath = `${base(appId)}/preparation`;

    expect(track(await client.patch(prepPath, { body: { ai_mode: 'thinking' } })).status).toBe(428);
    for (const body of [{}, { ai_mode: 'slow' }, { text_input: 'x', extra: 1 }, { text_input: null }]) {
      const r = track(await client.patch(prepPath, { ifMatch: etag!, body }));
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(errorOf(r).code).toBe('validation_failed');
    }
    expect(track(await client.delete(`${prepPath}/files/afev_x`)).status).toBe(428);
    expect(track(await client.delete(`${prepPath}/files/afev.x`, { ifMatch: etag! })).status).toBe(400);

    const noKey = track(await client.post(`${base(appId)}/start`, { body: { expected_preparation_revision: 1 } }));
    expect(noKey.status).toBe(428);
    for (const body of [{}, { expected_preparation_revision: 0 }, { expected_preparation_revision: 1, mode: 'fast' }]) {
      expect(track(await client.post(`${base(appId)}/start`, { body, idempotencyKey: newIdempotencyKey() })).status).toBe(422);
    }
    // Nothing to read yet: the Portal's 409 comes through with its details.
    const empty = await start(client, appId);
    expect(empty.status).toBe(409);
    expect(errorOf(empty).details.map((d) => d.code)).toEqual(['no_usable_evidence']);
    // Its selection is checked by the Portal (422 with the index of each bad id).
    await patchPrep(client, appId, { text_input: 'Employees: 5' });
    const badSelection = await start(client, appId, { selected_evidence_source_ids: ['afev_nope'] });
    expect(badSelection.status).toBe(422);
    expect(errorOf(badSelection).details[0]).toMatchObject({ code: 'unknown_evidence_source', parameter: 'selected_evidence_source_ids.0' });

    expect(track(await client.get(`${base(appId)}/runs?page_size=0`)).status).toBe(400);
    expect(track(await client.get(`${base(appId)}/runs?status=completed`)).status).toBe(400);
  });

  it('checks evidence uploads: type, name, content; unreadable files fail with a reason', async () => {
    const { client } = await signedIn('staff');
    const appId = await newApp();
    const zip = await upload(client, appId, 'PK', 'application/zip', 'a.zip');
    expect(zip.status).toBe(422);
    expect(errorOf(zip).details[0]).toMatchObject({ code: 'unsupported_type', parameter: 'Content-Type' });
    const unnamed = await upload(client, appId, 'x', 'text/plain', null);
    expect(errorOf(unnamed).details[0]!.code).toBe('missing_filename');
    const empty = await upload(client, appId, '', 'text/plain', 'empty.txt');
    expect(errorOf(empty).details[0]!.code).toBe('empty_file');
    const noCsrf = await upload(client, appId, 'x', 'text/plain', 'x.txt', false);
    expect(noCsrf.status).toBe(403);
    expect(errorOf(noCsrf).code).toBe('csrf_failed');
    expect((await readPrep(client, appId)).preparation.file_count).toBe(0);

    const name = 'Relevé – scan.png';
    const png = await mustUpload(client, appId, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]), 'image/png', name);
    expect(png.uploaded_file).toMatchObject({ name, kind: 'file' });
    const prep = await waitForFiles(client, appId);
    expect(prep.evidence_sources).toEqual([
      expect.objectContaining({ name, status: 'failed', failure_code: 'unsupported_type', failure_reason: expect.stringContaining('image/png'), selected: false }),
    ]);
    expect(prep.can_start).toBe(false);
  });
});

describe('roles', () => {
  it('reviewers read and decide suggestions but change nothing else', async () => {
    const staff = (await signedIn('staff')).client;
    const { appId, run } = await appWithRun(staff, 'Employees: 3\nLegal name: Pager Ltd\nWebsite: www.pager.example');
    const reviewer = (await signedIn('reviewer')).client;

    const prep = await readPrep(reviewer, appId);
    expect(RunsPageView.parse(track(await reviewer.get(`${base(appId)}/runs`)).body).items.map((r) => r.id)).toEqual([run.id]);
    expect((await readRun(reviewer, appId, run.id)).status).toBe('completed');
    const suggestions = await allSuggestions(reviewer, appId, run.id);
    expect(suggestions.length).toBe(3);
    // An Idempotency-Key, when sent, goes on: the retry of a click gets the first reply again.
    const key = newIdempotencyKey('accept');
    const acceptOnce = track(await reviewer.post(`${base(appId)}/suggestions/${suggestions[0]!.id}/accept`, { idempotencyKey: key }));
    expect(acceptOnce.status).toBe(200);
    const acceptAgain = track(await reviewer.post(`${base(appId)}/suggestions/${suggestions[0]!.id}/accept`, { idempotencyKey: key }));
    expect(acceptAgain.status).toBe(200);
    expect(SuggestionAcceptReply.parse(acceptAgain.body)).toEqual(SuggestionAcceptReply.parse(acceptOnce.body));
    expect((await dismiss(reviewer, appId, suggestions[1]!.id)).status).toBe(200);

    const denied = [
      await reviewer.patch(`${base(appId)}/preparation`, { ifMatch: prep.etag!, body: { ai_mode: 'thinking' } }),
      await upload(reviewer, appId, 'Employees: 3', 'text/plain', 'x.txt'),
      await reviewer.delete(`${base(appId)}/preparation/files/afev_text`, { ifMatch: prep.etag! }),
      await reviewer.post(`${base(appId)}/start`, { body: { expected_preparation_revision: prep.preparation.revision }, idempotencyKey: newIdempotencyKey() }),
      await reviewer.post(`${base(appId)}/runs/${run.id}/retry`, { idempotencyKey: newIdempotencyKey() }),
    ];
    for (const r of denied) {
      track(r);
      expect(r.status, r.text).toBe(403);
      expect(errorOf(r).code).toBe('forbidden');
    }
    expect((await readPrep(staff, appId)).preparation.ai_mode).toBe('fast');

    const anonymous = new BffClient();
    expect(track(await anonymous.get(`${base(appId)}/preparation`)).status).toBe(401);
    expect(track(await anonymous.post(`${base(appId)}/suggestions/${suggestions[2]!.id}/accept`)).status).toBe(401);
  });

  it('a client prepares and starts Autofill for its own application only, and never sees suggestions', async () => {
    const appId = await newApp();
    const client = await clientSession(appId);
    const prep = await readPrep(client, appId);
    const patched = track(await client.patch(`${base(appId)}/preparation`, { ifMatch: prep.etag!, body: { text_input: 'Legal name: Client Own Ltd' } }));
    expect(patched.status).toBe(200);
    const up = await mustUpload(client, appId, 'Employees: 6\nWebsite: www.client-own.example', 'text/plain', 'about-us.txt');
    expect(up.uploaded_file?.name).toBe('about-us.txt');
    await waitForFiles(client, appId);
    const run = await waitForRun(client, appId, (await mustStart(client, appId)).id);
    expect(run).toMatchObject({ status: 'completed' });
    expect(run.suggestion_count).toBeGreaterThan(0);
    expect(RunsPageView.parse(track(await client.get(`${base(appId)}/runs`)).body).items).toHaveLength(1);

    // Suggestions are for staff and reviewers.
    const staff = (await signedIn('staff')).client;
    const [s] = await allSuggestions(staff, appId, run.id);
    for (const r of [
      await client.get(`${base(appId)}/runs/${run.id}/suggestions`),
      await client.post(`${base(appId)}/suggestions/${s!.id}/accept`),
      await client.post(`${base(appId)}/suggestions/${s!.id}/dismiss`),
    ]) {
      track(r);
      expect(r.status, r.text).toBe(403);
    }
    // The client may retry its own runs; this one completed, so the Portal says it cannot be retried.
    const retry = track(await client.post(`${base(appId)}/runs/${run.id}/retry`, { idempotencyKey: newIdempotencyKey() }));
    expect(retry.status, retry.text).toBe(409);

    // Another application is not there at all for this client.
    const other = await newApp();
    const otherPrep = await readPrep(staff, other);
    for (const r of [
      await client.get(`${base(other)}/preparation`),
      await client.patch(`${base(other)}/preparation`, { ifMatch: otherPrep.etag!, body: { text_input: 'x' } }),
      await upload(client, other, 'Employees: 1', 'text/plain', 'x.txt'),
      await client.post(`${base(other)}/start`, { body: { expected_preparation_revision: 1 }, idempotencyKey: newIdempotencyKey() }),
      await client.get(`${base(other)}/runs`),
      await client.get(`${base(other)}/runs/${run.id}`),
    ]) {
      track(r);
      expect(r.status, r.text).toBe(404);
      expect(errorOf(r).code).toBe('not_found');
    }
    expect((await readPrep(staff, other)).preparation.revision).toBe(1);

    const rows = await auditRowsOfApplication('autofill.start', appId);
    expect(rows.map((r) => [r.outcome, r.actor_label])).toEqual([['success', expect.stringMatching(/^invitation /)]]);
  });
});
