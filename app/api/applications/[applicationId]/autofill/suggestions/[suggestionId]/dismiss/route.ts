import type { SuggestionDismissReply } from '@/lib/bff/autofill';
import { byApplication } from '@/server/application-kinds/intake';
import { suggestionObject } from '@/server/autofill/audit-objects';
import { optionalIdempotencyKey } from '@/server/http/headers';
import { SuggestionParams } from '@/server/http/path-params';
import { dismissSuggestion } from '@/server/autofill/suggestions';
import { suggestionView } from '@/server/autofill/views';
import { route } from '@/server/http/route';

// POST /api/applications/[applicationId]/autofill/suggestions/[suggestionId]/dismiss – set a suggestion aside
// (409 stale or not pending)
export const POST = route(
  {
    roles: ['staff', 'reviewer'],
    params: SuggestionParams,
    application: byApplication,
    audit: { operation: 'autofill.suggestion_dismiss', object: suggestionObject },
  },
  async ({ params, req, upstream }) => {
    const res = await dismissSuggestion(params.applicationId, params.suggestionId, optionalIdempotencyKey(req), req.signal);
    upstream.requestId = res.requestId;
    const body: SuggestionDismissReply = { suggestion: suggestionView(res.data) };
    return { body };
  },
);
