import 'server-only';
import type { Endpoint, ReplyOf } from '@/lib/api/endpoint';
import { api } from '@/lib/api/endpoints';
import type { SuggestionAcceptReply, SuggestionDismissReply } from '@/lib/bff/autofill';
import type { AutofillSuggestion } from '@/lib/portal';
import { intakeApplication } from '@/server/applications/intake-application';
import { kindRoute } from '@/server/applications/kind-route';
import { optionalIdempotencyKey } from '@/server/http/headers';
import { SuggestionParams } from '@/server/http/path-params';
import { suggestionObject } from './audit-objects';
import { recordSuggestionDecided } from '@/server/read-model/record';
import { acceptSuggestion, dismissSuggestion } from './suggestions';
import { suggestionView } from './autofill-views';

type Command<T> = (
  applicationId: string,
  suggestionId: string,
  idempotencyKey: string | undefined,
) => Promise<{ data: T; requestId: string | null }>;

/** A reviewer's command on one suggestion (the Idempotency-Key is optional: passed on when sent). */
function suggestionCommand<T, E extends Endpoint>(endpoint: E, operation: string, command: Command<T>, reply: (result: T) => ReplyOf<E>) {
  const POST = kindRoute(
    intakeApplication,
    endpoint,
    { roles: ['staff', 'reviewer'], params: SuggestionParams, audit: { operation, object: suggestionObject } },
    async ({ id, db, params, req }) => {
      const res = await command(id, params.suggestionId, optionalIdempotencyKey(req));
      await recordSuggestionDecided(db, id);
      return { body: reply(res.data) };
    },
  );
  return { POST };
}

/** Accept writes the proposed value as the answer and replies with the new answers_revision. */
export const acceptSuggestionRoute = suggestionCommand(api.application.autofill.suggestionAccept.POST, 'autofill.suggestion_accept', acceptSuggestion, (r): SuggestionAcceptReply => ({
  suggestion: suggestionView(r.suggestion),
  answers_revision: r.answers_revision,
}));

/** Dismiss sets the suggestion aside. */
export const dismissSuggestionRoute = suggestionCommand(
  api.application.autofill.suggestionDismiss.POST,
  'autofill.suggestion_dismiss',
  dismissSuggestion,
  (s: AutofillSuggestion): SuggestionDismissReply => ({ suggestion: suggestionView(s) }),
);
