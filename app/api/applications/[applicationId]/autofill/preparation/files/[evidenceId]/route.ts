import type { PreparationReply } from '@/lib/bff/autofill';
import { applicationLinks } from '@/server/applications/links';
import { byApplication } from '@/server/applications/route-params';
import { evidenceObject } from '@/server/autofill/audit-objects';
import { isPreparationConflict, preparationConflict } from '@/server/autofill/conflict';
import { deleteEvidence } from '@/server/autofill/preparation';
import { EvidenceParams } from '@/server/autofill/route-params';
import { preparationView } from '@/server/autofill/views';
import { route } from '@/server/http/route';
import { etagHeader, requireIfMatch } from '@/server/http/params';

// DELETE /api/applications/[applicationId]/autofill/preparation/files/[evidenceId] – remove an evidence file
// (If-Match: the preparation's ETag); a 412 comes back with the current preparation
export const DELETE = route(
  {
    roles: ['staff', 'client'],
    params: EvidenceParams,
    application: byApplication,
    audit: { operation: 'autofill.evidence_delete', object: evidenceObject },
  },
  async ({ params, req, upstream }) => {
    const ifMatch = requireIfMatch(req);
    const links = await applicationLinks(params.applicationId, req.signal);
    try {
      const res = await deleteEvidence(params.applicationId, links, params.evidenceId, ifMatch, req.signal);
      upstream.requestId = res.requestId;
      const body: PreparationReply = { preparation: preparationView(res.data), etag: res.etag };
      return { body, headers: etagHeader(res.etag) };
    } catch (e) {
      if (!isPreparationConflict(e)) throw e;
      upstream.requestId = e.requestId;
      return preparationConflict(e, params.applicationId, links, req.signal);
    }
  },
);
