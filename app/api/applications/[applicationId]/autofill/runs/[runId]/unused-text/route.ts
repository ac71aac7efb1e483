import type { UnusedTextView } from '@/lib/bff/autofill';
import { intakeApplication } from '@/server/application-kinds/intake';
import { kindRoute } from '@/server/application-kinds/kind-route';
import { readUnusedText } from '@/server/autofill/unused-text';
import { RunParams } from '@/server/http/path-params';

// GET /api/applications/[applicationId]/autofill/runs/[runId]/unused-text – the lines of the Autofill text the
// run could not use; the client who wrote the text sees them too (no suggested value is in the reply)
export const GET = kindRoute(
  intakeApplication,
  { roles: ['staff', 'reviewer', 'client'], params: RunParams },
  async ({ id, links, params, req, upstream }) => {
    const { view, requestId } = await readUnusedText(id, await links(), params.runId, req.signal);
    upstream.requestId = requestId;
    const body: UnusedTextView = view;
    return { body };
  },
);
