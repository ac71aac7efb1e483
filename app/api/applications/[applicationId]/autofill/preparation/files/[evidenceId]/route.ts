import type { PreparationReply } from '@/lib/bff/autofill';
import { applicationLinks, byApplication } from '@/server/application-kinds/intake';
import { evidenceObject } from '@/server/autofill/audit-objects';
import { currentPreparation } from '@/server/autofill/conflict';
import { deleteEvidence } from '@/server/autofill/preparation';
import { preparationView } from '@/server/autofill/views';
import { withConflictReply } from '@/server/http/conflict-reply';
import { etagHeader, requireIfMatch } from '@/server/http/headers';
import { EvidenceParams } from '@/server/http/path-params';
import { route } from '@/server/http/route';

// DELETE /api/applications/[applicationId]/autofill/preparation/files/[evidenceId] – remove an evidence file
// (If-Match: the preparation's ETag); a 412 comes back with the current preparation
export const DELETE = route(
  {
    roles: ['staff', 'client'],
    params: EvidenceParams,
    application: byApplication,
    audit: { operation: 'autofill.evidence_delete', object: evidenceObject },
  },
  async ({ params: { applicationId, evidenceId }, req, upstream }) => {
    const ifMatch = requireIfMatch(req);
    const links = await applicationLinks(applicationId, req.signal);
    const remove = async () => {
      const res = await deleteEvidence(applicationId, links, evidenceId, ifMatch, req.signal);
      upstream.requestId = res.requestId;
      const body: PreparationReply = { preparation: preparationView(res.data), etag: res.etag };
      return { body, headers: etagHeader(res.etag) };
    };
    return withConflictReply(upstream, remove, currentPreparation(applicationId, links, req.signal));
  },
);
