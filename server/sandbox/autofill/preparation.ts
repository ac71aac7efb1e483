import type { AutofillPreparation, EvidenceSource } from '@/lib/portal';
import type { Reply } from '../http/context';
import { versionEtag } from '../http/etag';
import type { Sandbox } from '../sandbox';
import { extractText } from './engine';
import { TEXT_SOURCE_ID, autofillOf, autofillTiming, existingAutofillOf } from './state';
import type { ApplicationAutofill, EvidenceFileRec, PreparationRec, RunEvidence } from './types';

/**
 * The preparation of an application's Autofill: the text input, the AI mode and the evidence files, whose
 * reading is simulated on the sandbox clock (pending → running → success | failed). Its revision moves
 * whenever anything it shows changes: an edit, an upload, a file's status, a run starting or ending.
 */

export const preparationEtag = (p: PreparationRec) => versionEtag('afprep', p.application_id, p.revision);

/** The preparation as a reply, with its ETag (after an evidence upload: with that file as uploaded_file). */
export function preparationReply(sb: Sandbox, a: ApplicationAutofill, status = 200, uploaded?: EvidenceFileRec): Reply {
  return { status, headers: { ETag: preparationEtag(a.preparation) }, body: preparationView(sb, a, uploaded) };
}

const hasText = (p: PreparationRec) => p.text_input !== null && p.text_input.trim() !== '';

export const runInProgress = (a: ApplicationAutofill) => Object.values(a.runs).some((r) => r.status === 'pending' || r.status === 'running');

/** Evidence a run can read now: text with content, files read successfully. */
export function usableSourceIds(p: PreparationRec): string[] {
  return [...(hasText(p) ? [TEXT_SOURCE_ID] : []), ...p.files.filter((f) => f.status === 'success').map((f) => f.id)];
}

/** Why a start is refused now, or null when it may start. */
export function startBlocker(a: ApplicationAutofill): { code: string; message: string } | null {
  const p = a.preparation;
  if (runInProgress(a)) return { code: 'run_in_progress', message: 'A run of this application is still in progress; wait for it to finish.' };
  const reading = p.files.filter((f) => f.status === 'pending' || f.status === 'running').length;
  if (reading > 0) {
    return { code: 'evidence_processing', message: `${reading} evidence file${reading === 1 ? ' is' : 's are'} still being read; start when ${reading === 1 ? 'it has' : 'they have'} finished.` };
  }
  if (usableSourceIds(p).length === 0) {
    return { code: 'no_usable_evidence', message: 'Add some text or a readable file (plain text, CSV or PDF) before starting.' };
  }
  return null;
}

const textSize = (t: string) => Buffer.byteLength(t, 'utf8');

function evidenceView(f: EvidenceFileRec): EvidenceSource {
  return {
    id: f.id,
    object: 'autofill_evidence_source',
    kind: 'file',
    name: f.name,
    status: f.status,
    failure_code: f.failure_code,
    failure_reason: f.failure_reason,
    selected: f.status === 'success',
    content_type: f.content_type,
    size: f.size,
    created_at: f.created_at,
    updated_at: f.updated_at,
  };
}

function textSourceView(p: PreparationRec): EvidenceSource {
  return {
    id: TEXT_SOURCE_ID,
    object: 'autofill_evidence_source',
    kind: 'text',
    name: null,
    status: 'success',
    failure_code: null,
    failure_reason: null,
    selected: true,
    content_type: 'text/plain',
    size: textSize(p.text_input ?? ''),
    created_at: p.text_updated_at,
    updated_at: p.text_updated_at,
  };
}

export function evidenceSources(p: PreparationRec): EvidenceSource[] {
  return [...(hasText(p) ? [textSourceView(p)] : []), ...p.files.map((f) => evidenceView(f))];
}

export function preparationView(sb: Sandbox, a: ApplicationAutofill, uploaded?: EvidenceFileRec): AutofillPreparation {
  const p = a.preparation;
  const sources = evidenceSources(p);
  return {
    object: 'client_intake_application_autofill_preparation',
    application: { id: p.application_id, object: 'client_intake_application' },
    start_url: sb.urls.autofillStart(p.application_id),
    revision: p.revision,
    text_input: p.text_input,
    ai_mode: p.ai_mode,
    file_count: p.files.length,
    files: p.files.map((f) => ({ name: f.name, status: f.status })),
    selected_evidence_source_count: sources.filter((s) => s.selected).length,
    evidence_sources: sources,
    can_start: startBlocker(a) === null,
    ...(uploaded ? { uploaded_file: evidenceView(uploaded) } : {}),
  };
}

/** Moves the revision when what the preparation shows has changed (called after every change that may). */
export function touchPreparation(sb: Sandbox, a: ApplicationAutofill) {
  const p = a.preparation;
  // Everything shown but the revision itself (and the URL, which follows the origin the sandbox serves on).
  const { revision: _r, start_url: _u, ...shown } = preparationView(sb, a);
  const signature = JSON.stringify(shown);
  if (signature === p.signature) return;
  if (p.signature !== '') {
    p.revision += 1;
    p.updated_at = sb.now();
  }
  p.signature = signature;
  sb.changed();
}

/** The application's Autofill records with the preparation's revision settled (for reads). */
export function preparationOf(sb: Sandbox, appId: string): ApplicationAutofill {
  const a = autofillOf(sb, appId);
  if (a.preparation.signature === '') touchPreparation(sb, a);
  return a;
}

/* Reading evidence files on the sandbox clock. */

function fileOf(sb: Sandbox, appId: string, fileId: string, generation: number) {
  const f = existingAutofillOf(sb, appId)?.preparation.files.find((x) => x.id === fileId);
  return f && f.generation === generation ? f : undefined;
}

async function finishReading(sb: Sandbox, appId: string, fileId: string, generation: number) {
  const f = fileOf(sb, appId, fileId, generation);
  if (!f || f.status !== 'running') return;
  const result = await extractText(Buffer.from(f.content_base64, 'base64'), f.content_type, f.name);
  // While the reader ran, the file may have been replaced or removed, or the sandbox reset.
  if (fileOf(sb, appId, fileId, generation) !== f || f.status !== 'running') return;
  if (result.ok) {
    f.status = 'success';
    f.text = result.text;
  } else {
    f.status = 'failed';
    f.failure_code = result.code;
    f.failure_reason = result.reason;
  }
  f.updated_at = sb.now();
  touchPreparation(sb, existingAutofillOf(sb, appId)!);
}

function startReading(sb: Sandbox, appId: string, fileId: string, generation: number) {
  const f = fileOf(sb, appId, fileId, generation);
  if (!f || f.status !== 'pending') return;
  f.status = 'running';
  f.updated_at = sb.now();
  touchPreparation(sb, existingAutofillOf(sb, appId)!);
  sb.clock.after(autofillTiming(sb).fileReadingMs, () => void finishReading(sb, appId, fileId, generation));
}

/** Schedules the next step of a file's reading from the status it is in. */
export function scheduleReading(sb: Sandbox, appId: string, f: EvidenceFileRec) {
  const { id, generation } = f;
  if (f.status === 'pending') sb.clock.after(autofillTiming(sb).filePendingMs, () => startReading(sb, appId, id, generation));
  else if (f.status === 'running') sb.clock.after(autofillTiming(sb).fileReadingMs, () => void finishReading(sb, appId, id, generation));
}

/** What a run reads of one evidence source now, or null when it cannot be read (gone, failed, empty). */
export function readSource(p: PreparationRec, id: string): RunEvidence | null {
  if (id === TEXT_SOURCE_ID) return hasText(p) ? { id, kind: 'text', name: null, text: p.text_input! } : null;
  const f = p.files.find((x) => x.id === id);
  if (!f || f.status !== 'success' || !f.text) return null;
  return { id, kind: 'file', name: f.name, text: f.text };
}
