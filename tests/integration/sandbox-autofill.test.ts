import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AutofillPreparation,
  EvidenceSourceExact,
  AutofillRun,
  AutofillRunPage,
  AutofillSuggestion,
  AutofillSuggestionPage,
  AutofillSuggestionConcernExact,
  AutofillSuggestionRunRefExact,
  AutofillSuggestionSourceExact,
  FileUploadCredential,
  SuggestionAcceptResult,
  type AutofillSuggestion as Suggestion,
} from '@/lib/portal';
import type { SandboxEvent } from '@/server/sandbox/events';
import { DEMO_KEYS } from '@/server/sandbox/keys';
import { configureAutofill } from '@/server/sandbox/autofill/state';
import { seedDocuments } from '@/server/sandbox/seed/documents';
import { answerValue, appPath, currentRevision, freshApplication, mustWriteAnswers, putFile, w } from './support/applications';
import { KEYS, SandboxClient, expectError, newKey, setupSandbox } from './support/sandbox';
import { startSandbox } from '@/server/sandbox/server';
import { poller } from '../support/poller';
import { SEED_LEGAL_NAME_SUGGESTION, expectSeedDocumentsRead } from '../support/seed-documents';

/*
 * Conformance of the sandbox's Autofill (spec 2.11-2.13, §3, DESIGN.md §5): every reply parsed with the strict
 * lib/portal schemas. Simulated time runs fast (the sandbox clock), and waits poll with a deadline.
 */

const ctx = setupSandbox();
beforeAll(() => ctx.running.sandbox.clock.setSpeed(200));

const prepPath = (appId: string) => `${appPath(appId)}autofill-preparation/`;
const prepEtag = (appId: string, revision: number) => `"afprep-${appId}-${revision}"`;
const until = poller({ timeoutMs: 8_000, everyMs: 10 });

/** The preparation, its open objects held to exactly the sandbox's fields. */
const exactPrep = (body: unknown) => {
  const prep = AutofillPreparation.parse(body);
  for (const e of prep.evidence_sources) EvidenceSourceExact.parse(e);
  if (prep.uploaded_file) EvidenceSourceExact.parse(prep.uploaded_file);
  return prep;
};

async function readPrep(client: SandboxClient, appId: string) {
  const { res } = await client.read(AutofillPreparation, prepPath(appId));
  return { etag: res.headers.get('etag')!, prep: exactPrep(res.body) };
}

async function patchPrep(client: SandboxClient, appId: string, body: unknown) {
  const { etag } = await readPrep(client, appId);
  const res = await client.patch(prepPath(appId), { ifMatch: etag, body });
  if (res.status !== 200) throw new Error(`PATCH preparation → ${res.status}: ${res.text}`);
  return exactPrep(res.body);
}

async function requestEvidenceUpload(client: SandboxClient, appId: string) {
  const res = await client.post(`${prepPath(appId)}files/`, { body: {} });
  if (res.status !== 201) throw new Error(`evidence credential → ${res.status}: ${res.text}`);
  return FileUploadCredential.parse(res.body);
}

/** Requests a credential and PUTs one file; returns the preparation the transfer replies with. */
async function uploadEvidence(client: SandboxClient, appId: string, bytes: Uint8Array | string, contentType: string, filename: string) {
  const credential = await requestEvidenceUpload(client, appId);
  const res = await putFile(credential.upload_url, bytes, { contentType, filename });
  if (res.status !== 201) throw new Error(`evidence PUT → ${res.status}: ${res.text}`);
  return { credential, prep: AutofillPreparation.parse(res.body), etag: res.headers.get('etag') };
}

const settled = (p: AutofillPreparation) => p.files.every((f) => f.status === 'success' || f.status === 'failed');
const waitForFiles = (client: SandboxClient, appId: string) =>
  until(async () => (await readPrep(client, appId)).prep, settled, 'evidence files to be read');

async function start(client: SandboxClient, appId: string, body: Record<string, unknown> = {}, key = newKey('start')) {
  const { prep } = await readPrep(client, appId);
  return client.post(prep.start_url, { body: { expected_preparation_revision: prep.revision, ...body }, idempotencyKey: key });
}

async function mustStart(client: SandboxClient, appId: string, body: Record<string, unknown> = {}) {
  const res = await start(client, appId, body);
  if (res.status !== 201) throw new Error(`start → ${res.status}: ${res.text}`);
  return AutofillRun.parse(res.body);
}

const finished = (r: AutofillRun) => r.status === 'completed' || r.status === 'failed';
const waitForRun = (client: SandboxClient, run: AutofillRun) =>
  until(async () => (await client.read(AutofillRun, run.url)).data, finished, `run ${run.id} to finish`);

async function allSuggestions(client: SandboxClient, run: AutofillRun, query = '') {
  const items: Suggestion[] = [];
  let cursor: string | null = null;
  do {
    const q = new URLSearchParams(query);
    q.set('page_size', '10');
    if (cursor) q.set('cursor', cursor);
    const { data } = await client.read(AutofillSuggestionPage, `${run.suggestions_url}?${q}`);
    items.push(...data.items);
    cursor = data.next_cursor;
  } while (cursor);
  return items;
}

const suggestionPath = (appId: string, id: string, action: 'accept' | 'dismiss') => `${appPath(appId)}autofill-suggestions/${id}/${action}/`;

/** An application with text that fails runs (the sandbox's [[fail]] trigger) or succeeds. */
async function appWithText(client: SandboxClient, text: string) {
  const appId = await freshApplication(client, 'Autofill Test Ltd');
  await patchPrep(client, appId, { text_input: text });
  return appId;
}

describe('preparation', () => {
  it('is created on first read with revision 1, an ETag and nothing to start from', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const { res, data } = await client.read(AutofillPreparation, prepPath(appId));
    expect(data).toEqual({
      object: 'client_intake_application_autofill_preparation',
      application: { id: appId, object: 'client_intake_application' },
      start_url: `${client.baseUrl}${appPath(appId)}autofill-preparation/start/`,
      revision: 1,
      text_input: null,
      ai_mode: 'fast',
      file_count: 0,
      files: [],
      selected_evidence_source_count: 0,
      evidence_sources: [],
      can_start: false,
    });
    expect(res.headers.get('etag')).toBe(prepEtag(appId, 1));
    // Reading again changes nothing; the application read links to it.
    expect((await readPrep(client, appId)).prep.revision).toBe(1);
    const app = await client.get(appPath(appId));
    expect((app.body as { application: { autofill_preparation_url: string } }).application.autofill_preparation_url).toBe(`${client.baseUrl}${prepPath(appId)}`);
    const conditional = await client.get(prepPath(appId), { headers: { 'If-None-Match': prepEtag(appId, 1) } });
    expect(conditional.status).toBe(304);
  });

  it('needs If-Match on updates: 428 without, 412 when stale', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const missing = expectError(await client.patch(prepPath(appId), { body: { ai_mode: 'thinking' } }), 428, 'precondition_required');
    expect(missing.details).toEqual([{ code: 'missing_header', message: 'Send If-Match with the ETag from your last read.', parameter: 'If-Match' }]);
    const first = await client.patch(prepPath(appId), { ifMatch: prepEtag(appId, 1), body: { text_input: 'Employees: 4' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toBe(prepEtag(appId, 2));
    const stale = expectError(await client.patch(prepPath(appId), { ifMatch: prepEtag(appId, 1), body: { ai_mode: 'thinking' } }), 412, 'precondition_failed');
    expect(stale.details.map((d) => d.code)).toEqual(['stale_etag']);
    expect((await readPrep(client, appId)).prep).toMatchObject({ revision: 2, ai_mode: 'fast' });
  });

  it('takes at least one of ai_mode and text_input and nothing else (422 with details)', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const etag = prepEtag(appId, 1);
    for (const [body, code, parameter] of [
      [{}, 'invalid', undefined],
      [{ ai_mode: 'fast', extra: 1 }, 'unknown_property', 'extra'],
      [{ ai_mode: 'slow' }, 'invalid', 'ai_mode'],
      [{ text_input: 42 }, 'invalid', 'text_input'],
      [{ text_input: null }, 'invalid', 'text_input'],
      [{ selected_evidence_source_ids: [] }, 'unknown_property', 'selected_evidence_source_ids'],
    ] as const) {
      const error = expectError(await client.patch(prepPath(appId), { ifMatch: etag, body }), 422, 'validation_failed');
      expect(error.details.length).toBeGreaterThan(0);
      expect(error.details[0]).toMatchObject({ code, ...(parameter ? { parameter } : {}) });
    }
    expect((await readPrep(client, appId)).prep.revision).toBe(1);
  });

  it('moves revision on every change and only then; text makes a selected text source', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    let prep = await patchPrep(client, appId, { text_input: 'Legal name: Autofill Test Ltd' });
    expect(prep).toMatchObject({ revision: 2, text_input: 'Legal name: Autofill Test Ltd', can_start: true, selected_evidence_source_count: 1, file_count: 0 });
    expect(prep.evidence_sources).toEqual([
      {
        id: 'afev_text',
        object: 'autofill_evidence_source',
        kind: 'text',
        name: null,
        status: 'success',
        failure_code: null,
        failure_reason: null,
        selected: true,
        content_type: 'text/plain',
        size: 29,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    prep = await patchPrep(client, appId, { text_input: 'Legal name: Autofill Test Ltd' });
    expect(prep.revision).toBe(2);
    prep = await patchPrep(client, appId, { ai_mode: 'thinking' });
    expect(prep).toMatchObject({ revision: 3, ai_mode: 'thinking' });
    prep = await patchPrep(client, appId, { ai_mode: 'fast', text_input: 'Legal name: Autofill Test Ltd' });
    expect(prep).toMatchObject({ revision: 4, ai_mode: 'fast' });
    // Blank text is no evidence; an empty string clears it.
    prep = await patchPrep(client, appId, { text_input: '   ' });
    expect(prep).toMatchObject({ revision: 5, can_start: false, evidence_sources: [], selected_evidence_source_count: 0 });
    prep = await patchPrep(client, appId, { text_input: '' });
    expect(prep).toMatchObject({ revision: 6, text_input: null, can_start: false });
  });

  it('refuses changes to a submitted application', async () => {
    const { client } = ctx;
    const { etag } = await readPrep(client, 'ciappl_meridian');
    const error = expectError(await client.patch(prepPath('ciappl_meridian'), { ifMatch: etag, body: { text_input: 'x' } }), 409, 'conflict');
    expect(error.details.map((d) => d.code)).toEqual(['application_submitted']);
    expectError(await client.post(`${prepPath('ciappl_meridian')}files/`, { body: {} }), 409, 'conflict');
  });
});

describe('evidence files', () => {
  it('are uploaded through a signed upload URL and read on the clock: pending → running → success', async () => {
    const { client } = ctx;
    const sb = ctx.running.sandbox;
    const appId = await freshApplication(client);
    const credential = await requestEvidenceUpload(client, appId);
    expect(credential).toMatchObject({ object: 'file_upload', request_path: 'autofill-preparation/files', multiple: false });
    const url = new URL(credential.upload_url);
    expect(url.pathname.startsWith('/v1/')).toBe(false);
    expect(url.searchParams.get('token')).toMatch(/.{16,}/);
    // Slow the clock down for this test, so each status can be seen.
    sb.clock.setSpeed(8);
    try {
      const put = await putFile(credential.upload_url, 'Employees: 9\nWebsite: www.example.com', { contentType: 'text/plain', filename: 'notes.txt' });
      expect(put.status).toBe(201);
      const prep = AutofillPreparation.parse(put.body);
      expect(put.headers.get('etag')).toBe(prepEtag(appId, prep.revision));
      expect(prep).toMatchObject({ revision: 2, file_count: 1, files: [{ name: 'notes.txt', status: 'pending' }], can_start: false, selected_evidence_source_count: 0 });
      expect(prep.uploaded_file).toMatchObject({ object: 'autofill_evidence_source', kind: 'file', name: 'notes.txt', status: 'pending', selected: false, content_type: 'text/plain', size: 37 });
      expect(prep.evidence_sources).toEqual([prep.uploaded_file]);
      const seen: string[] = ['pending'];
      const revisions = [prep.revision];
      await until(
        async () => (await readPrep(client, appId)).prep,
        (p) => {
          const status = p.files[0]!.status;
          if (seen[seen.length - 1] !== status) {
            seen.push(status);
            revisions.push(p.revision);
          }
          return status === 'success';
        },
        'the file to be read',
      );
      expect(seen).toEqual(['pending', 'running', 'success']);
      expect(revisions).toEqual([2, 3, 4]);
    } finally {
      sb.clock.setSpeed(200);
    }
    const { prep } = await readPrep(client, appId);
    expect(prep).toMatchObject({ can_start: true, selected_evidence_source_count: 1 });
    expect(prep.uploaded_file).toBeUndefined();
  });

  it('fail with a reason when the engine cannot read them', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const cases = [
      { bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]), type: 'image/png', name: 'scan.png', code: 'unsupported_type' },
      { bytes: new Uint8Array([0x00, 0x01, 0x02, 0x03, 0x00, 0xff]), type: 'text/plain', name: 'binary.txt', code: 'binary_content' },
      { bytes: '%PDF-1.4\n1 0 obj << /Length 9 /Filter /FlateDecode >>\nstream\nnot zlib!\nendstream endobj\n', type: 'application/pdf', name: 'corrupt.pdf', code: 'corrupt_pdf' },
      { bytes: ' \n \n', type: 'text/plain', name: 'empty.txt', code: 'no_text' },
    ];
    for (const c of cases) {
      const { prep } = await uploadEvidence(client, appId, c.bytes, c.type, c.name);
      expect(prep.uploaded_file).toMatchObject({ name: c.name, status: 'pending', failure_code: null });
    }
    const prep = await waitForFiles(client, appId);
    expect(prep.files).toEqual(cases.map((c) => ({ name: c.name, status: 'failed' })));
    expect(prep.evidence_sources.map((s) => [s.name, s.failure_code, s.selected])).toEqual(cases.map((c) => [c.name, c.code, false]));
    for (const s of prep.evidence_sources) expect(s.failure_reason).toMatch(/\w+/);
    expect(prep.evidence_sources[0]!.failure_reason).toContain('image/png');
    // Failed files hold nothing up, but they are no evidence either.
    expect(prep).toMatchObject({ can_start: false, selected_evidence_source_count: 0 });
    const blocked = expectError(await start(client, appId), 409, 'conflict');
    expect(blocked.details.map((d) => d.code)).toEqual(['no_usable_evidence']);
  });

  it('are refused at transfer without a name, with a type that is not accepted, or empty', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const credential = await requestEvidenceUpload(client, appId);
    expectError(await asRes(putFile(credential.upload_url, 'x', { contentType: 'text/plain', filename: null })), 422, 'validation_failed');
    const type = expectError(await asRes(putFile(credential.upload_url, 'x', { contentType: 'application/zip', filename: 'a.zip' })), 422, 'validation_failed');
    expect(type.details.map((d) => [d.code, d.parameter])).toEqual([['unsupported_type', 'Content-Type']]);
    expect(expectError(await asRes(putFile(credential.upload_url, '', { contentType: 'text/plain', filename: 'a.txt' })), 422, 'validation_failed').details[0]!.code).toBe('empty_file');
    const badToken = credential.upload_url.replace(/token=[^&]+/, 'token=wrong');
    expect(expectError(await asRes(putFile(badToken, 'x', { contentType: 'text/plain', filename: 'a.txt' })), 403, 'forbidden').details[0]!.code).toBe('invalid_upload_url');
    expect((await readPrep(client, appId)).prep).toMatchObject({ revision: 1, file_count: 0 });
    // The credential request takes no fields.
    expectError(await client.post(`${prepPath(appId)}files/`, { body: { filename: 'a.txt' } }), 422, 'validation_failed');
  });

  it('are replaced by a repeated PUT to the same URL and removed with If-Match', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const first = await uploadEvidence(client, appId, 'not really a pdf', 'application/pdf', 'wrong.pdf');
    const id = first.prep.uploaded_file!.id;
    expect((await waitForFiles(client, appId)).files).toEqual([{ name: 'wrong.pdf', status: 'failed' }]);
    const again = await putFile(first.credential.upload_url, 'Employees: 12', { contentType: 'text/plain', filename: 'right.txt' });
    expect(again.status).toBe(201);
    const replaced = AutofillPreparation.parse(again.body);
    expect(replaced.uploaded_file).toMatchObject({ id, name: 'right.txt', status: 'pending', failure_code: null, failure_reason: null });
    expect(replaced.file_count).toBe(1);
    expect((await waitForFiles(client, appId)).files).toEqual([{ name: 'right.txt', status: 'success' }]);

    const path = `${prepPath(appId)}files/${id}/`;
    expectError(await client.delete(path), 428, 'precondition_required');
    expectError(await client.delete(path, { ifMatch: prepEtag(appId, 1) }), 412, 'precondition_failed');
    const { etag, prep } = await readPrep(client, appId);
    const removed = await client.delete(path, { ifMatch: etag });
    expect(removed.status).toBe(200);
    expect(AutofillPreparation.parse(removed.body)).toMatchObject({ revision: prep.revision + 1, file_count: 0, files: [], can_start: false });
    expectError(await client.delete(path, { ifMatch: removed.headers.get('etag')! }), 404, 'not_found');
    // The credential went with the file.
    expect((await putFile(first.credential.upload_url, 'x', { contentType: 'text/plain', filename: 'x.txt' })).status).toBe(403);
  });
});

/** putFile's reply in the shape expectError reads. */
async function asRes(p: ReturnType<typeof putFile>) {
  const r = await p;
  return { status: r.status, headers: r.headers, body: r.body, text: r.text };
}

describe('starting a run', () => {
  it('needs an Idempotency-Key, the current revision and can_start', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const startUrl = `${prepPath(appId)}start/`;
    const noKey = expectError(await client.post(startUrl, { body: { expected_preparation_revision: 1 } }), 400, 'invalid_request');
    expect(noKey.details[0]).toMatchObject({ code: 'missing_header', parameter: 'Idempotency-Key' });
    expectError(await client.post(startUrl, { body: {}, idempotencyKey: newKey() }), 422, 'validation_failed');
    expectError(await client.post(startUrl, { body: { expected_preparation_revision: 0 }, idempotencyKey: newKey() }), 422, 'validation_failed');
    expectError(await client.post(startUrl, { body: { expected_preparation_revision: 1, mode: 'fast' }, idempotencyKey: newKey() }), 422, 'validation_failed');
    const empty = expectError(await start(client, appId), 409, 'conflict');
    expect(empty.details).toEqual([{ code: 'no_usable_evidence', message: 'Add some text or a readable file (plain text, CSV or PDF) before starting.' }]);

    await patchPrep(client, appId, { text_input: 'Employees: 12' });
    const stale = expectError(await client.post(startUrl, { body: { expected_preparation_revision: 1 }, idempotencyKey: newKey() }), 412, 'precondition_failed');
    expect(stale.details).toEqual([{ code: 'stale_revision', message: 'Revision 1 is not the current revision (2).', parameter: 'expected_preparation_revision' }]);

    // A file still being read holds the start back.
    ctx.running.sandbox.clock.setSpeed(1);
    try {
      await uploadEvidence(client, appId, 'Website: www.example.com', 'text/plain', 'site.txt');
      const { prep } = await readPrep(client, appId);
      expect(prep.can_start).toBe(false);
      const reading = expectError(await start(client, appId), 409, 'conflict');
      expect(reading.details.map((d) => d.code)).toEqual(['evidence_processing']);
    } finally {
      ctx.running.sandbox.clock.setSpeed(200);
    }
  });

  it('creates a run, replays an identical retry and refuses a reused key', async () => {
    const { client } = ctx;
    const appId = await appWithText(client, 'Employees: 12');
    const { prep } = await readPrep(client, appId);
    const key = newKey('start');
    const body = { expected_preparation_revision: prep.revision };
    const res = await client.post(prep.start_url, { body, idempotencyKey: key });
    expect(res.status).toBe(201);
    const run = AutofillRun.parse(res.body);
    expect(run).toMatchObject({
      object: 'client_intake_application_autofill_run',
      application: { id: appId, object: 'client_intake_application' },
      status: 'pending',
      progress: { step: 'queued', completed_units: 0, total_units: 1 + 7 + 1 },
      suggestion_count: 0,
      warning_count: 0,
      can_retry: false,
      attempt_sequence: 1,
      failure: null,
      url: `${client.baseUrl}${appPath(appId)}autofill-runs/${run.id}/`,
      suggestions_url: `${client.baseUrl}${appPath(appId)}autofill-runs/${run.id}/suggestions/`,
      retry_url: `${client.baseUrl}${appPath(appId)}autofill-runs/${run.id}/retry/`,
    });
    expect(res.headers.get('location')).toBe(run.url);
    const replay = await client.post(prep.start_url, { body, idempotencyKey: key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(AutofillRun.parse(replay.body).id).toBe(run.id);
    expectError(await client.post(prep.start_url, { body: { ...body, ai_mode: 'thinking' }, idempotencyKey: key }), 422, 'idempotency_key_reused');
    // While it runs the preparation cannot start again, and says so in a new revision.
    const during = (await readPrep(client, appId)).prep;
    if (during.can_start === false) {
      expect(during.revision).toBe(prep.revision + 1);
      expect(expectError(await start(client, appId), 409, 'conflict').details.map((d) => d.code)).toEqual(['run_in_progress']);
    }
    const done = await waitForRun(client, run);
    expect(done).toMatchObject({ status: 'completed', suggestion_count: 1, progress: { step: 'completed', completed_units: 9, total_units: 9 } });
    expect((await readPrep(client, appId)).prep).toMatchObject({ can_start: true });
  });

  it('validates the evidence selection', async () => {
    const { client } = ctx;
    const appId = await appWithText(client, 'Employees: 12');
    await uploadEvidence(client, appId, 'nothing readable', 'image/jpeg', 'photo.jpg');
    const prep = await waitForFiles(client, appId);
    const failedId = prep.evidence_sources.find((s) => s.kind === 'file')!.id;
    const bad = expectError(await start(client, appId, { selected_evidence_source_ids: ['afev_nope', failedId] }), 422, 'validation_failed');
    expect(bad.details.map((d) => [d.code, d.parameter])).toEqual([
      ['unknown_evidence_source', 'selected_evidence_source_ids.0'],
      ['evidence_not_usable', 'selected_evidence_source_ids.1'],
    ]);
    expect(expectError(await start(client, appId, { selected_evidence_source_ids: [] }), 422, 'validation_failed').details[0]!.code).toBe('no_evidence_selected');
    const run = await mustStart(client, appId, { selected_evidence_source_ids: ['afev_text', 'afev_text'], ai_mode: 'thinking' });
    expect(run.progress.total_units).toBe(1 + 7 + 1);
    await waitForRun(client, run);
  });
});

describe('a whole round', () => {
  it('text and files → statuses → start → progress → completed → suggestions → accept, dismiss, stale', async () => {
    const { client } = ctx;
    const sb = ctx.running.sandbox;
    const events: SandboxEvent[] = [];
    const unsubscribe = sb.events.subscribe((e) => events.push(e));
    try {
      const appId = await freshApplication(client, 'Harbour Street Café');
      await patchPrep(client, appId, { text_input: 'Contact name: Luca Fontana\nPreferred contact: phone' });
      for (const d of seedDocuments()) await uploadEvidence(client, appId, d.bytes, d.contentType, d.name);
      expectSeedDocumentsRead(await waitForFiles(client, appId));

      // Progress advances unit by unit (seen with a slower clock).
      sb.clock.setSpeed(10);
      let run: AutofillRun;
      const progress: number[] = [];
      try {
        run = await mustStart(client, appId);
        expect(run).toMatchObject({ status: 'pending', progress: { step: 'queued', completed_units: 0, total_units: 4 + 7 + 1 } });
        const steps = new Set<string>();
        run = await until(
          async () => (await client.read(AutofillRun, run.url)).data,
          (r) => {
            steps.add(r.progress.step);
            if (r.status === 'running') progress.push(r.progress.completed_units);
            return finished(r);
          },
          'the run',
          20_000,
        );
        for (const step of ['reading_evidence', 'matching_fields', 'completed']) expect(steps).toContain(step);
      } finally {
        sb.clock.setSpeed(200);
      }
      expect(progress.length).toBeGreaterThan(2);
      expect([...progress].sort((a, b) => a - b)).toEqual(progress);
      expect(run).toMatchObject({ status: 'completed', can_retry: false, failure: null, progress: { step: 'completed', completed_units: 12, total_units: 12 } });

      const suggestions = await allSuggestions(client, run);
      expect(suggestions.length).toBe(run.suggestion_count);
      expect(run.suggestion_count).toBe(35);
      // Concerns on three suggestions: employees and preferred contact disagree, the signature date is a guess.
      expect(run.warning_count).toBe(3);
      expect(events.filter((e) => e.type === 'autofill_run.completed').map((e) => e.data)).toEqual([{ run_id: run.id, application_id: appId, suggestion_count: 35 }]);
      const orders = suggestions.map((s) => s.display_order);
      expect([...orders].sort((a, b) => a - b)).toEqual(orders);
      for (const s of suggestions) {
        expect(AutofillSuggestion.parse(s)).toMatchObject({ status: 'pending', suggestion_kind: 'answer', target_scope: null, current_value: null, run: { id: run.id, url: run.url } });
        // The sandbox completes the spec's open objects with exactly these fields.
        expect(AutofillSuggestionSourceExact.parse(s.source).excerpt.length).toBeLessThanOrEqual(300);
        AutofillSuggestionRunRefExact.parse(s.run);
        for (const c of s.concerns) AutofillSuggestionConcernExact.parse(c);
      }
      const byTarget = new Map(suggestions.map((s) => [s.target_attribute, s]));
      const legal = byTarget.get('legal_name/legal_name/value')!;
      expect(legal).toMatchObject({ ...SEED_LEGAL_NAME_SUGGESTION, field_label: 'Legal business name' });
      // The text input and the summary disagree on the preferred contact: the text is more confident.
      expect(byTarget.get('preferred_contact/preferred_contact/value')).toMatchObject({
        proposed_value: 'phone',
        source: { kind: 'text', evidence_source_id: 'afev_text', excerpt: 'Preferred contact: phone' },
        concerns: [{ code: 'conflicting_evidence' }],
      });
      expect(byTarget.get('preferred_contact/preferred_contact/value')!.source.file_name).toBeUndefined();
      expect(byTarget.get('business_address/business_address/postal_code')).toMatchObject({ proposed_value: 'YO21 3PU', field_label: 'Postcode or ZIP code', question_label: 'Registered or trading address' });

      // Accept: the answer is written and the new answers_revision returned.
      const before = (await currentRevision(client, appId)).revision;
      const accepted = await client.post(suggestionPath(appId, legal.id, 'accept'));
      expect(accepted.status).toBe(200);
      const result = SuggestionAcceptResult.parse(accepted.body);
      expect(result.answers_revision).toBe(before + 1);
      expect(result.suggestion).toMatchObject({ id: legal.id, status: 'accepted', current_value: null, proposed_value: 'Harbour Street Hospitality Ltd' });
      expect(await answerValue(client, appId, 'legal_name')).toBe('Harbour Street Hospitality Ltd');
      expect((await currentRevision(client, appId)).revision).toBe(result.answers_revision);
      expect(events.some((e) => e.type === 'application.answers_updated' && e.data.answers_revision === result.answers_revision)).toBe(true);
      // Address parts and a multi-choice go through the same validation.
      const multi = SuggestionAcceptResult.parse((await client.post(suggestionPath(appId, byTarget.get('funding_purpose/funding_purpose/value')!.id, 'accept'))).body);
      expect(multi.answers_revision).toBe(result.answers_revision + 1);
      expect(await answerValue(client, appId, 'funding_purpose')).toEqual(['working_capital', 'equipment']);
      expect((await client.post(suggestionPath(appId, byTarget.get('business_address/business_address/postal_code')!.id, 'accept'))).status).toBe(200);
      expect(await answerValue(client, appId, 'business_address', 'postal_code')).toBe('YO21 3PU');

      // Accepted is not pending: accepting or dismissing again is a conflict.
      const again = expectError(await client.post(suggestionPath(appId, legal.id, 'accept')), 409, 'conflict');
      expect(again.details.map((d) => d.code)).toEqual(['suggestion_not_pending']);
      expectError(await client.post(suggestionPath(appId, legal.id, 'dismiss')), 409, 'conflict');

      // Dismiss the low-confidence guess.
      const guess = byTarget.get('signature_date/signature_date/value')!;
      expect(guess.concerns.map((c) => c.code)).toEqual(['low_confidence']);
      const dismissed = await client.post(suggestionPath(appId, guess.id, 'dismiss'));
      expect(dismissed.status).toBe(200);
      expect(AutofillSuggestion.parse(dismissed.body)).toMatchObject({ id: guess.id, status: 'dismissed' });
      expect(await answerValue(client, appId, 'signature_date')).toBeNull();
      expectError(await client.post(suggestionPath(appId, guess.id, 'dismiss')), 409, 'conflict');

      // Another write to a target makes its suggestion stale.
      const trading = byTarget.get('trading_name/trading_name/value')!;
      await mustWriteAnswers(client, appId, [w('trading_name', 'Harbour Street Coffee')]);
      const stale = (await allSuggestions(client, run)).find((s) => s.id === trading.id)!;
      expect(stale).toMatchObject({ status: 'stale', current_value: null });
      const refused = expectError(await client.post(suggestionPath(appId, trading.id, 'accept')), 409, 'conflict');
      expect(refused.details[0]).toMatchObject({ code: 'stale_suggestion', block_key: 'trading_name', schema_key: 'trading_name', field_key: 'value' });
      expect(expectError(await client.post(suggestionPath(appId, trading.id, 'dismiss')), 409, 'conflict').details[0]!.code).toBe('stale_suggestion');
      expect(await answerValue(client, appId, 'trading_name')).toBe('Harbour Street Coffee');

      // The status filter sees the worked-out status.
      expect((await allSuggestions(client, run, 'status=stale')).map((s) => s.id)).toEqual([trading.id]);
      expect((await allSuggestions(client, run, 'status=accepted')).length).toBe(3);
      expect((await allSuggestions(client, run, 'status=dismissed')).map((s) => s.id)).toEqual([guess.id]);
      expect((await allSuggestions(client, run, 'status=pending')).length).toBe(35 - 5);
    } finally {
      unsubscribe();
    }
  });

  it('refuses to accept a value outside the value_schema (422), and dismiss still works', async () => {
    const { client } = ctx;
    const appId = await appWithText(client, 'Number of employees: 2,000,000\nLegal name: Big Employer Ltd');
    const run = await waitForRun(client, await mustStart(client, appId));
    const suggestions = await allSuggestions(client, run);
    const employees = suggestions.find((s) => s.target_attribute === 'employee_count/employee_count/value')!;
    expect(employees).toMatchObject({ proposed_value: 2_000_000, concerns: [{ code: 'outside_schema' }] });
    const refused = expectError(await client.post(suggestionPath(appId, employees.id, 'accept')), 422, 'validation_failed');
    expect(refused.details.map((d) => d.code)).toEqual(['outside_schema', 'maximum']);
    expect(refused.details[0]).toMatchObject({ block_key: 'employee_count', schema_key: 'employee_count', field_key: 'value' });
    expect(await answerValue(client, appId, 'employee_count')).toBeNull();
    expect((await client.post(suggestionPath(appId, employees.id, 'dismiss'))).status).toBe(200);
    // A later run does not propose what the answer already holds.
    const legal = suggestions.find((s) => s.target_attribute === 'legal_name/legal_name/value')!;
    await client.post(suggestionPath(appId, legal.id, 'accept'));
    const second = await waitForRun(client, await mustStart(client, appId));
    expect((await allSuggestions(client, second)).map((s) => s.target_attribute)).toEqual(['employee_count/employee_count/value']);
  });

  it('fills the single item of a repeatable group, scoped to it', async () => {
    const { client } = ctx;
    const appId = await appWithText(client, 'Owner: Priya Shah\nDate of birth: 14/08/1979\nShareholding: 60%');
    const created = await client.post(`${appPath(appId)}repeatable-items/owners/`, { body: { block_key: 'owners', answers: [] } });
    const itemId = (created.body as { item: { item_id: string } }).item.item_id;
    const run = await waitForRun(client, await mustStart(client, appId));
    const suggestions = await allSuggestions(client, run);
    expect(suggestions.map((s) => [s.target_attribute, s.target_scope, s.proposed_value])).toEqual([
      ['owners/owner_full_name/value', itemId, 'Priya Shah'],
      ['owners/owner_ownership_pct/value', itemId, 60],
      ['owners/owner_dob/value', itemId, '1979-08-14'],
    ]);
    const accepted = SuggestionAcceptResult.parse((await client.post(suggestionPath(appId, suggestions[2]!.id, 'accept'))).body);
    const items = await client.get(`${appPath(appId)}repeatable-items/owners/`);
    const answers = (items.body as { items: Array<{ answers: Array<{ schema_key: string; value: unknown }> }> }).items[0]!.answers;
    expect(answers.find((a) => a.schema_key === 'owner_dob')?.value).toBe('1979-08-14');
    expect((items.body as { answers_revision: number }).answers_revision).toBe(accepted.answers_revision);
    // Deleting the item makes the others stale.
    await client.post(`${appPath(appId)}repeatable-items/owners/`, { body: { block_key: 'owners', answers: [] } });
    const { etag } = await currentRevision(client, appId);
    const del = await client.delete(`${appPath(appId)}repeatable-items/owners/${itemId}/`, { ifMatch: etag });
    expect(del.status).toBe(200);
    expect((await allSuggestions(client, run)).map((s) => s.status)).toEqual(['stale', 'stale', 'accepted']);
  });
});

describe('failed runs and retry', () => {
  it('a run fails on the [[fail]] trigger, can be retried with a new attempt, and then completes', async () => {
    const { client } = ctx;
    const events: SandboxEvent[] = [];
    const unsubscribe = ctx.running.sandbox.events.subscribe((e) => events.push(e));
    try {
      const appId = await appWithText(client, 'Employees: 12\n[[fail]]');
      const run = await waitForRun(client, await mustStart(client, appId));
      expect(run).toMatchObject({ status: 'failed', can_retry: true, attempt_sequence: 1, suggestion_count: 0, progress: { step: 'failed', completed_units: 0 } });
      expect(run.failure).toEqual({ code: 'engine_failure', message: expect.stringContaining('[[fail]]') });
      expect(events.filter((e) => e.type === 'autofill_run.failed').map((e) => e.data)).toContainEqual({ run_id: run.id, application_id: appId, suggestion_count: 0 });
      expect((await readPrep(client, appId)).prep.can_start).toBe(true);

      expect(expectError(await client.post(run.retry_url), 400, 'invalid_request').details[0]!.parameter).toBe('Idempotency-Key');
      // Still failing on retry while the trigger is there; fixed text completes.
      await patchPrep(client, appId, { text_input: 'Employees: 12' });
      const key = newKey('retry');
      const retried = await client.post(run.retry_url, { idempotencyKey: key });
      expect(retried.status).toBe(200);
      expect(AutofillRun.parse(retried.body)).toMatchObject({ id: run.id, status: 'pending', attempt_sequence: 2, failure: null, can_retry: false, progress: { step: 'queued', completed_units: 0 } });
      const replay = await client.post(run.retry_url, { idempotencyKey: key });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      const done = await waitForRun(client, run);
      expect(done).toMatchObject({ id: run.id, status: 'completed', attempt_sequence: 2, suggestion_count: 1, can_retry: false });
      const notRetryable = expectError(await client.post(run.retry_url, { idempotencyKey: newKey('retry') }), 409, 'conflict');
      expect(notRetryable.details.map((d) => d.code)).toEqual(['not_retryable']);
    } finally {
      unsubscribe();
    }
  });

  it('a run fails when all its evidence became unreadable after it started', async () => {
    const { client } = ctx;
    const sb = ctx.running.sandbox;
    const appId = await freshApplication(client);
    const { prep } = await uploadEvidence(client, appId, 'Employees: 7', 'text/plain', 'staff.txt');
    await waitForFiles(client, appId);
    // At normal speed the run reads its first source 0.9 s after the start: time enough to remove it.
    sb.clock.setSpeed(1);
    let run: AutofillRun;
    try {
      run = await mustStart(client, appId);
      const fresh = await readPrep(client, appId);
      const del = await client.delete(`${prepPath(appId)}files/${prep.uploaded_file!.id}/`, { ifMatch: fresh.etag });
      expect(del.status).toBe(200);
    } finally {
      sb.clock.setSpeed(200);
    }
    const failed = await waitForRun(client, run);
    expect(failed).toMatchObject({ status: 'failed', can_retry: true, failure: { code: 'no_usable_evidence' }, progress: { step: 'failed', completed_units: 1 } });
  });
});

describe('runs and suggestions collections', () => {
  it('list runs newest first in pages, and read one with an ETag', async () => {
    const { client } = ctx;
    const appId = await appWithText(client, 'Employees: 3');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await waitForRun(client, await mustStart(client, appId))).id);
    const path = `${appPath(appId)}autofill-runs/`;
    const first = (await client.read(AutofillRunPage, `${path}?page_size=2`)).data;
    expect(first.items.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    expect(first.previous_cursor).toBeNull();
    const second = (await client.read(AutofillRunPage, `${path}?page_size=2&cursor=${encodeURIComponent(first.next_cursor!)}`)).data;
    expect(second.items.map((r) => r.id)).toEqual([ids[0]]);
    expect(second.next_cursor).toBeNull();
    const back = (await client.read(AutofillRunPage, `${path}?page_size=2&cursor=${encodeURIComponent(second.previous_cursor!)}`)).data;
    expect(back.items.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    const { res } = await client.read(AutofillRun, `${path}${ids[0]}/`);
    expect(res.headers.get('etag')).toMatch(/^"afrun-/);
    expectError(await client.get(`${path}?status=completed`), 400, 'invalid_request');
    expectError(await client.get(`${path}?page_size=0`), 400, 'invalid_request');
  });

  it('page suggestions and reject unknown filters', async () => {
    const { client } = ctx;
    const appId = await appWithText(client, 'Employees: 3\nLegal name: Pager Ltd\nWebsite: www.pager.example\nFunding required: £10,000');
    const run = await waitForRun(client, await mustStart(client, appId));
    const first = (await client.read(AutofillSuggestionPage, `${run.suggestions_url}?page_size=3`)).data;
    expect(first.items.map((s) => s.target_attribute)).toEqual(['legal_name/legal_name/value', 'employee_count/employee_count/value', 'website/website/value']);
    const next = (await client.read(AutofillSuggestionPage, `${run.suggestions_url}?page_size=3&cursor=${encodeURIComponent(first.next_cursor!)}`)).data;
    expect(next.items.map((s) => s.target_attribute)).toEqual(['funding_amount/funding_amount/value']);
    expectError(await client.get(`${run.suggestions_url}?status=maybe`), 400, 'invalid_request');
    expectError(await client.get(`${run.suggestions_url}?sort=asc`), 400, 'invalid_request');
    expectError(await client.get(`${run.suggestions_url}?page_size=3&cursor=${encodeURIComponent(first.next_cursor!)}&status=pending`), 400, 'invalid_request');
  });
});

describe('not found and permissions', () => {
  it('answers 404 for unknown applications, runs, suggestions and evidence', async () => {
    const { client } = ctx;
    const appId = await appWithText(client, 'Employees: 3');
    const run = await waitForRun(client, await mustStart(client, appId));
    const [s] = await allSuggestions(client, run);
    for (const path of [
      'client-intake-applications/ciappl_nope/autofill-preparation/',
      'client-intake-applications/ciappl_nope/autofill-runs/',
      `${appPath(appId)}autofill-runs/afrun_nope/`,
      `${appPath(appId)}autofill-runs/afrun_nope/suggestions/`,
    ]) {
      expectError(await client.get(path), 404, 'not_found');
    }
    expectError(await client.post(`${appPath(appId)}autofill-suggestions/afsug_nope/accept/`), 404, 'not_found');
    expectError(await client.post(`${appPath(appId)}autofill-runs/afrun_nope/retry/`, { idempotencyKey: newKey() }), 404, 'not_found');
    // A suggestion belongs to its application.
    const other = await freshApplication(client);
    expectError(await client.post(`${appPath(other)}autofill-suggestions/${s!.id}/accept/`), 404, 'not_found');
    expectError(await client.get(`${appPath(other)}autofill-runs/${run.id}/`), 404, 'not_found');
    const { etag } = await readPrep(client, appId);
    expectError(await client.delete(`${prepPath(appId)}files/afev_text/`, { ifMatch: etag }), 404, 'not_found');
  });

  it('reads need applications:read; changes need autofill:write', async () => {
    const { client } = ctx;
    const appId = await appWithText(client, 'Employees: 3');
    const run = await waitForRun(client, await mustStart(client, appId));
    const [s] = await allSuggestions(client, run);
    const key = KEYS.readonly;
    expect((await client.get(prepPath(appId), { key })).status).toBe(200);
    expect((await client.get(`${appPath(appId)}autofill-runs/`, { key })).status).toBe(200);
    expect((await client.get(run.url, { key })).status).toBe(200);
    expect((await client.get(run.suggestions_url, { key })).status).toBe(200);
    const { etag } = await readPrep(client, appId);
    const denied = [
      await client.patch(prepPath(appId), { key, ifMatch: etag, body: { ai_mode: 'thinking' } }),
      await client.post(`${prepPath(appId)}files/`, { key, body: {} }),
      await client.delete(`${prepPath(appId)}files/afev_x/`, { key, ifMatch: etag }),
      await client.post(`${prepPath(appId)}start/`, { key, body: { expected_preparation_revision: 1 }, idempotencyKey: newKey() }),
      await client.post(run.retry_url, { key, idempotencyKey: newKey() }),
      await client.post(suggestionPath(appId, s!.id, 'accept'), { key }),
      await client.post(suggestionPath(appId, s!.id, 'dismiss'), { key }),
    ];
    for (const res of denied) expect(expectError(res, 403, 'forbidden').details[0]!.message).toBe('Requires autofill:write.');
    expectError(await client.get(prepPath(appId), { key: KEYS.source }), 403, 'forbidden');
  });
});

describe('a key with autofill:write only', () => {
  const only = {
    id: 'key_autofillonly',
    token: 'pk_test_autofill_only_5c1d9e2a7b3f',
    kind: 'portal' as const,
    environment: 'test' as const,
    permissions: ['autofill:write' as const],
    channel_slugs: [],
    label: 'Autofill writes only',
  };
  const own = setupSandbox({ keys: [...DEMO_KEYS, only] });

  it('can change the preparation but not read it', async () => {
    const { client } = own;
    const appId = 'ciappl_harbourcafe';
    expectError(await client.get(prepPath(appId), { key: only.token }), 403, 'forbidden');
    const res = await client.patch(prepPath(appId), { key: only.token, ifMatch: prepEtag(appId, 1), body: { text_input: 'Employees: 5' } });
    expect(res.status).toBe(200);
    expect(AutofillPreparation.parse(res.body).revision).toBe(2);
  });
});

describe('simulated time', () => {
  const own = setupSandbox();

  it('thinking mode takes longer per unit than fast mode', async () => {
    const { client } = own;
    const sb = own.running.sandbox;
    configureAutofill(sb, { runQueuedMs: 0, runUnitMs: { fast: 5, thinking: 5_000 } });
    const fastApp = await appWithText(client, 'Employees: 3');
    const slowApp = await appWithText(client, 'Employees: 3');
    await patchPrep(client, slowApp, { ai_mode: 'thinking' });
    const slow = await mustStart(client, slowApp);
    const fast = await waitForRun(client, await mustStart(client, fastApp));
    expect(fast).toMatchObject({ status: 'completed', progress: { completed_units: 9, total_units: 9 } });
    const still = (await client.read(AutofillRun, slow.url)).data;
    expect(still.status).toBe('running');
    expect(still.progress).toEqual({ step: 'reading_evidence', completed_units: 0, total_units: 9 });
  });
});

describe('restart from the data file', () => {
  it('carries on reading files and running runs that were under way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-autofill-'));
    const dataFile = join(dir, 'state.json');
    try {
      const first = await startSandbox({ port: 0, rateLimit: null, dataFile });
      const a = new SandboxClient(first);
      // Nothing moves on this clock before the restart.
      first.sandbox.clock.setSpeed(0.001);
      const fileApp = await freshApplication(a, 'Restart Files Ltd');
      await uploadEvidence(a, fileApp, 'Employees: 8', 'text/plain', 'staff.txt');
      const runApp = await appWithText(a, 'Employees: 9');
      const run = await mustStart(a, runApp);
      await first.close();

      const second = await startSandbox({ port: 0, rateLimit: null, dataFile });
      try {
        second.sandbox.clock.setSpeed(200);
        const b = new SandboxClient(second);
        expect((await readPrep(b, fileApp)).prep.files).toEqual([{ name: 'staff.txt', status: 'pending' }]);
        expect((await waitForFiles(b, fileApp)).files).toEqual([{ name: 'staff.txt', status: 'success' }]);
        const done = await waitForRun(b, { ...run, url: run.url.replace(first.origin, second.origin) });
        expect(done).toMatchObject({ id: run.id, status: 'completed', suggestion_count: 1 });
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
