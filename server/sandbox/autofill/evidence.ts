import { readUploadBody, sameSecret } from '../http/upload-body';
import type { IncomingMessage } from 'node:http';
import type { FileUploadCredential } from '@/lib/portal';
import type { Reply } from '../http/context';
import { SandboxError, notFound } from '../http/errors';
import { ALLOWED_UPLOAD_TYPES } from '../options';
import type { Sandbox } from '../sandbox';
import { newId, nextSeq, randomToken } from '../store/ids';
import type { ApplicationRec } from '../store/types';
import { CLIENT_INTAKE, applicationOf } from '../handlers/application-kinds';
import { assertOpen } from '../handlers/application-kinds';
import { filenameFrom } from '../handlers/transfers';
import { preparationOf, preparationReply, scheduleReading, touchPreparation } from './preparation';
import { autofillState, newEvidenceId } from './state';
import type { EvidenceFileRec } from './types';

/**
 * Evidence files reach a preparation the way answer files reach a question (DESIGN.md §5, "Transfers"):
 * `POST autofill-preparation/files/` issues a credential shaped like file_uploads (an upl_ id and a signed,
 * expiring upload_url), and the bytes are PUT to that URL with Content-Type and Content-Disposition, with no
 * API key. One credential carries one file: a repeated PUT replaces it (same evidence id, read again), so a
 * retried transfer never adds a second copy. The reply is the preparation with `uploaded_file` set.
 */

const MAX_EVIDENCE_FILES = 20;
const EVIDENCE_REQUEST_PATH = 'autofill-preparation/files';

export function issueEvidenceUpload(sb: Sandbox, app: ApplicationRec): FileUploadCredential {
  const st = autofillState(sb);
  const id = newId(sb.state, 'fileUpload');
  const token = randomToken();
  st.uploads[id] = {
    id,
    application_id: app.id,
    token,
    expires_at: new Date(Date.now() + sb.options.uploadTtlSeconds * 1000).toISOString(),
    evidence_id: null,
  };
  sb.changed();
  return { id, object: 'file_upload', request_path: EVIDENCE_REQUEST_PATH, upload_url: sb.urls.transfer(id, token), multiple: false };
}

/** Whether a transfer URL's upload is an evidence upload (transfers.ts hands those over to this module). */
export const isEvidenceUpload = (sb: Sandbox, uploadId: string) => Boolean(sb.state.autofill?.uploads[uploadId]);


// PUT /transfers/{upload_id}?token=… for an evidence upload – the bytes of one evidence file
export async function handleEvidenceTransfer(sb: Sandbox, req: IncomingMessage, url: URL): Promise<Reply> {
  if (req.method !== 'PUT') throw new SandboxError('not_found', 'Transfers take PUT.');
  const id = url.pathname.split('/')[2] ?? '';
  const upload = autofillState(sb).uploads[id];
  const token = url.searchParams.get('token') ?? '';
  if (!upload || !sameSecret(upload.token, token)) {
    throw new SandboxError('forbidden', 'The upload URL is not valid.', [{ code: 'invalid_upload_url', message: 'Request new upload credentials.' }]);
  }
  if (Date.parse(upload.expires_at) < Date.now()) {
    throw new SandboxError('forbidden', 'The upload URL has expired.', [{ code: 'upload_url_expired', message: 'Request new upload credentials.' }]);
  }
  const app = applicationOf(sb, CLIENT_INTAKE, upload.application_id);
  assertOpen(app);
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!ALLOWED_UPLOAD_TYPES.has(contentType)) {
    throw new SandboxError('validation_failed', `Files of type ${contentType || '(none)'} are not accepted.`, [
      { code: 'unsupported_type', message: `Accepted: ${[...ALLOWED_UPLOAD_TYPES].join(', ')}. Autofill reads plain text, CSV and PDF.`, parameter: 'Content-Type' },
    ]);
  }
  const filename = filenameFrom(req.headers['content-disposition']);
  if (!filename) {
    throw new SandboxError('validation_failed', 'Name the file in Content-Disposition.', [
      { code: 'missing_filename', message: 'Send Content-Disposition: attachment; filename="…".', parameter: 'Content-Disposition' },
    ]);
  }
  const bytes = await readUploadBody(req, sb.options.maxUploadBytes);
  if (bytes.length === 0) throw new SandboxError('validation_failed', 'The file is empty.', [{ code: 'empty_file', message: 'Choose a file with content.' }]);

  const a = preparationOf(sb, app.id);
  const p = a.preparation;
  const now = sb.now();
  let f: EvidenceFileRec | undefined = upload.evidence_id ? p.files.find((x) => x.id === upload.evidence_id) : undefined;
  const content = {
    name: filename.slice(0, 255),
    content_type: contentType,
    size: bytes.length,
    status: 'pending' as const,
    failure_code: null,
    failure_reason: null,
    content_base64: bytes.toString('base64'),
    text: null,
    updated_at: now,
  };
  if (f) {
    Object.assign(f, content, { generation: f.generation + 1 });
  } else {
    if (p.files.length >= MAX_EVIDENCE_FILES) {
      throw new SandboxError('validation_failed', `A preparation holds at most ${MAX_EVIDENCE_FILES} evidence files.`, [
        { code: 'too_many_files', message: 'Remove a file first.' },
      ]);
    }
    f = { id: newEvidenceId(sb.state), seq: nextSeq(sb.state), upload_id: upload.id, generation: 1, created_at: now, ...content };
    p.files.push(f);
    upload.evidence_id = f.id;
  }
  scheduleReading(sb, app.id, f);
  touchPreparation(sb, a);
  return preparationReply(sb, a, 201, f);
}

/** Removes an evidence file (its upload credential can no longer replace it). */
export function removeEvidence(sb: Sandbox, appId: string, sourceId: string) {
  const a = preparationOf(sb, appId);
  const index = a.preparation.files.findIndex((f) => f.id === sourceId);
  if (index < 0) throw notFound('evidence file');
  const [removed] = a.preparation.files.splice(index, 1);
  const st = autofillState(sb);
  for (const u of Object.values(st.uploads)) if (u.evidence_id === removed!.id) delete st.uploads[u.id];
  touchPreparation(sb, a);
  return a;
}
