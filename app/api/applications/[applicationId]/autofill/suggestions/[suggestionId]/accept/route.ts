import type { SuggestionAcceptReply } from '@/lib/bff/autofill';
import { byApplication } from '@/server/application-kinds/intake';
import { suggestionObject } from '@/server/autofill/audit-objects';
import { optionalIdempotencyKey } from '@/server/http/headers';
import { SuggestionParams } from '@/server/http/path-params';
import { acceptSuggestion } from '@/server/autofill/suggestions';
import { suggestionView } from '@/server/autofill/views';
import { route } from '@/server/http/route';

// POST /api/applications/[applicationId]/autofill/suggestions/[suggestionId]/accept – write the proposed value as
// the answer; replies with the new answers_revision (409 stale or not pending, 422 outside the field's schema)
export const POST = route(
  {
    roles: ['staff', 'reviewer'],
    params: SuggestionParams,
    application: byApplication,
    audit: { operation: 'autofill.suggestion_accept', object: suggestionObject },
  },
  async ({ params, req, upstream }) => {
    const res = await acceptSuggestion(params.applicationId, params.suggestionId, optionalIdempotencyKey(req), req.signal);
    upstream.requestId = res.requestId;
    const body: SuggestionAcceptReply = { suggestion: suggestionView(res.data.suggestion), answers_revision: res.data.answers_revision };
    return { body };
  },
);
