import 'server-only';
import type { Endpoint, ReplyOf } from '@/lib/api/endpoint';
import { api } from '@/lib/api/endpoints';
import type { SuggestionAcceptReply, SuggestionDismissReply } from '@/lib/bff/autofill';
import type { z } from 'zod';
import type { AutofillSuggestion, SuggestionAcceptResult } from '@/lib/portal';
import type { Db } from '@/server/db/types';
import { intakeApplication } from '@/server/applications/intake-application';
import { kindRoute } from '@/server/applications/kind-route';
import { optionalIdempotencyKey } from '@/server/http/headers';
import { SuggestionParams } from '@/server/http/path-params';
import { suggestionObject } from './audit-objects';
import { recordSuggestionDecided } from '@/server/read-model/record';
import { acceptSuggestion, dismissSuggestion } from './suggestions';
import { suggestionView } from './autofill-views';
import { readAllAnswers } from '@/server/applications/answers';
import { noteAnswersWritten, requestActor } from '@/server/history/history-recorder';
import { fieldValuesOf, noteAnswerSetRead } from '@/server/history/answer-reads';
import { sameValue } from '@/server/history/history-events';
import { log } from '@/server/log';

type Command<T> = (
  applicationId: string,
  suggestionId: string,
  idempotencyKey: string | undefined,
) => Promise<{ data: T; requestId: string | null }>;

/** A reviewer's command on one suggestion (the Idempotency-Key is optional: passed on when sent). */
function suggestionCommand<T, E extends Endpoint>(
  endpoint: E,
  operation: string,
  command: Command<T>,
  reply: (result: T) => ReplyOf<E>,
  after?: (db: Db, applicationId: string, result: T) => Promise<void>,
) {
  const POST = kindRoute(
    intakeApplication,
    endpoint,
    { roles: ['staff', 'reviewer'], params: SuggestionParams, audit: { operation, object: suggestionObject } },
    async ({ id, db, params, req }) => {
      const res = await command(id, params.suggestionId, optionalIdempotencyKey(req));
      await recordSuggestionDecided(db, id);
      await after?.(db, id, res.data);
      return { body: reply(res.data) };
    },
  );
  return { POST };
}

/**
 * The answer an accepted suggestion wrote goes into history as the suggestion's, accepted by this reviewer. The
 * Portal's reply names the field only by its label, so the answers are read once: the one answer with that label
 * now holding the proposed value is the write (from the suggestion's current value); failing that, whatever
 * changed since the last read is attributed to the suggestion. History is a record beside the write: a failed
 * read is logged, and the acceptance still answers.
 */
async function noteAcceptedAnswer(db: Db, applicationId: string, result: z.infer<typeof SuggestionAcceptResult>) {
  const reviewer = requestActor();
  const actor = { kind: 'autofill', name: reviewer.name } as const;
  const { suggestion } = result;
  try {
    const answers = await readAllAnswers(await intakeApplication.links.get(applicationId));
    const written = answers.items.filter((a) => a.field_label === suggestion.field_label && sameValue(a.value, suggestion.proposed_value));
    if (written.length === 1) {
      const [field] = fieldValuesOf(written);
      noteAnswersWritten(db, applicationId, result.answers_revision, [{ ...field!, previous: suggestion.current_value }], actor);
    } else noteAnswerSetRead(applicationId, { answers }, actor);
  } catch (e) {
    log.warn('answer history: the answers after an accepted suggestion could not be read', { applicationId, error: String(e) });
  }
}

/** Accept writes the proposed value as the answer and replies with the new answers_revision. */
export const acceptSuggestionRoute = suggestionCommand(
  api.application.autofill.suggestionAccept.POST,
  'autofill.suggestion_accept',
  acceptSuggestion,
  (r): SuggestionAcceptReply => ({ suggestion: suggestionView(r.suggestion), answers_revision: r.answers_revision }),
  noteAcceptedAnswer,
);

/** Dismiss sets the suggestion aside. */
export const dismissSuggestionRoute = suggestionCommand(
  api.application.autofill.suggestionDismiss.POST,
  'autofill.suggestion_dismiss',
  dismissSuggestion,
  (s: AutofillSuggestion): SuggestionDismissReply => ({ suggestion: suggestionView(s) }),
);
