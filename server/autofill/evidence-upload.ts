import 'server-only';
import { EVIDENCE_UPLOAD_TYPES, MAX_EVIDENCE_BYTES } from '@/lib/bff/autofill';
import { AutofillPreparation, FileUploadCredential } from '@/lib/portal';
import type { IntakeLinks } from '@/server/applications/intake-application';
import { checkUploadRequest, streamUpload, type UploadRequest, type UploadRules } from '@/server/applications/upload-request';
import { portalRequest, urlBelow } from '@/server/portal';
import { readPreparation } from './preparation';

/** Evidence: the types Autofill reads, to its own limit. */
const EVIDENCE: UploadRules = { types: EVIDENCE_UPLOAD_TYPES, max: MAX_EVIDENCE_BYTES, typeHint: 'Autofill reads text, CSV and PDF files.' };

/** Checks an evidence upload's headers: a type Autofill reads, a name, a declared size within the limit, a body. */
export const checkEvidenceUpload = (req: Request): UploadRequest => checkUploadRequest(req, EVIDENCE);

/**
 * Adds one evidence file: a credential from `files/` below the preparation, then the request body streamed
 * to its signed upload_url (held to the size limit as it flows). The transfer replies with the preparation
 * and the file it delivered; the preparation is then read again for its ETag, which the transfer reply lacks.
 */
export async function uploadEvidence(applicationId: string, links: IntakeLinks, upload: UploadRequest) {
  const credential = await portalRequest({
    method: 'POST',
    url: urlBelow(links.autofillPreparation, 'files'),
    schema: FileUploadCredential,
    body: {},
  });
  const transfer = await streamUpload(credential.data.upload_url, upload, EVIDENCE, AutofillPreparation);
  // The file is in: a failed re-read must not turn that into an error the user would answer with a second upload.
  const current = await readPreparation(applicationId, links).catch(() => null);
  const delivered = transfer.data.uploaded_file ?? null;
  const now = delivered?.id ? current?.data.evidence_sources.find((s) => s.id === delivered.id) : undefined;
  return {
    preparation: current?.data ?? transfer.data,
    etag: current?.etag ?? null,
    uploadedFile: now ?? delivered,
    requestId: transfer.requestId,
  };
}
