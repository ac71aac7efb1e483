import type { EvidenceUploadReply } from '@/lib/bff/autofill';
import { applicationLinks, byApplication } from '@/server/application-kinds/intake';
import { preparationObject } from '@/server/autofill/audit-objects';
import { checkEvidenceUpload, uploadEvidence } from '@/server/autofill/evidence-upload';
import { evidenceSourceView, preparationView } from '@/server/autofill/views';
import { route } from '@/server/http/route';
import { etagHeader } from '@/server/http/headers';
import { ApplicationParams } from '@/server/http/path-params';

// POST /api/applications/[applicationId]/autofill/preparation/files – add one evidence file (the body is its
// bytes, with Content-Type and the name in X-Filename), streamed on to the Portal; replies with the preparation
export const POST = route(
  {
    roles: ['staff', 'client'],
    params: ApplicationParams,
    body: 'stream',
    application: byApplication,
    audit: { operation: 'autofill.evidence_upload', object: preparationObject },
  },
  async ({ params, req, upstream }) => {
    const upload = checkEvidenceUpload(req);
    const links = await applicationLinks(params.applicationId, req.signal);
    const res = await uploadEvidence(params.applicationId, links, upload, req.signal);
    upstream.requestId = res.requestId;
    const body: EvidenceUploadReply = {
      preparation: preparationView(res.preparation),
      etag: res.etag,
      uploaded_file: res.uploadedFile ? evidenceSourceView(res.uploadedFile) : null,
    };
    return { status: 201, body, headers: etagHeader(res.etag) };
  },
);
