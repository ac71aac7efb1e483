import { intakeApplication } from '@/server/applications/intake-application';
import { kindRoute } from '@/server/applications/kind-route';
import { evidenceObject } from '@/server/autofill/audit-objects';
import { deleteEvidence } from '@/server/autofill/preparation';
import { preparationReply, withCurrentPreparation } from '@/server/autofill/preparation-reply';
import { requireIfMatch } from '@/server/http/headers';
import { EvidenceParams } from '@/server/http/path-params';

// DELETE /api/applications/[applicationId]/autofill/preparation/files/[evidenceId] – remove an evidence file
// (If-Match: the preparation's ETag); a 412 comes back with the current preparation
export const DELETE = kindRoute(
  intakeApplication,
  { roles: ['staff', 'client'], params: EvidenceParams, audit: { operation: 'autofill.evidence_delete', object: evidenceObject } },
  async ({ id, links, params, req }) => {
    const ifMatch = requireIfMatch(req);
    const intake = await links();
    return withCurrentPreparation({ applicationId: id, links: intake }, async () => {
      const res = await deleteEvidence(id, intake, params.evidenceId, ifMatch);
      return preparationReply(res);
    });
  },
);
