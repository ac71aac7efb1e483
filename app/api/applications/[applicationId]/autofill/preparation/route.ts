import { PreparationUpdate } from '@/lib/bff/autofill';
import { intakeApplication } from '@/server/applications/intake-application';
import { kindRoute } from '@/server/applications/kind-route';
import { preparationObject } from '@/server/autofill/audit-objects';
import { readPreparation, updatePreparation } from '@/server/autofill/preparation';
import { preparationReply, withCurrentPreparation } from '@/server/autofill/preparation-reply';
import { requireIfMatch } from '@/server/http/headers';
import { ApplicationParams } from '@/server/http/path-params';

// GET /api/applications/[applicationId]/autofill/preparation – text input, AI mode, evidence and whether a run can start
export const GET = kindRoute(
  intakeApplication,
  { roles: ['staff', 'reviewer', 'client'], params: ApplicationParams },
  async ({ id, links }) => {
    const res = await readPreparation(id, await links());
    return preparationReply(res);
  },
);

// PATCH /api/applications/[applicationId]/autofill/preparation – ai_mode and/or text_input (If-Match); a 412
// comes back with the current preparation
export const PATCH = kindRoute(
  intakeApplication,
  {
    roles: ['staff', 'client'],
    params: ApplicationParams,
    body: PreparationUpdate,
    audit: { operation: 'autofill.preparation_update', object: preparationObject },
  },
  async ({ id, links, body, req }) => {
    const ifMatch = requireIfMatch(req);
    const intake = await links();
    return withCurrentPreparation({ applicationId: id, links: intake }, async () => {
      const res = await updatePreparation(id, intake, body, ifMatch);
      return preparationReply(res);
    });
  },
);
