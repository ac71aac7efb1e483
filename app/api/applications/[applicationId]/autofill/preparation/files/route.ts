import type { EvidenceUploadReply } from '@/lib/bff/autofill';
import { intakeApplication } from '@/server/applications/intake-application';
import { kindRoute } from '@/server/applications/kind-route';
import { preparationObject } from '@/server/autofill/audit-objects';
import { checkEvidenceUpload, uploadEvidence } from '@/server/autofill/evidence-upload';
import { evidenceSourceView, preparationView } from '@/server/autofill/autofill-views';
import { etagHeader } from '@/server/http/headers';
import { ApplicationParams } from '@/server/http/path-params';

// POST /api/applications/[applicationId]/autofill/preparation/files – add one evidence file (the body is its
// bytes, with Content-Type and the name in X-Filename), streamed on to the Portal; replies with the preparation
export const POST = kindRoute(
  intakeApplication,
  {
    roles: ['staff', 'client'],
    params: ApplicationParams,
    body: 'stream',
    audit: { operation: 'autofill.evidence_upload', object: preparationObject },
  },
  async ({ id, links, req }) => {
    const upload = checkEvidenceUpload(req);
    const res = await uploadEvidence(id, await links(), upload);
    const body: EvidenceUploadReply = {
      preparation: preparationView(res.preparation),
      etag: res.etag,
      uploaded_file: res.uploadedFile ? evidenceSourceView(res.uploadedFile) : null,
    };
    return { status: 201, body, headers: etagHeader(res.etag) };
  },
);
