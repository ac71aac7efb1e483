import 'server-only';
import { AutofillSuggestion, SuggestionAcceptResult } from '@/lib/portal';
import { portalRequest, routes } from '@/server/portal';

/*
 * Accepting writes the proposed value as an answer (409 when the suggestion is stale or no longer pending,
 * 422 when the value is outside the field's schema: both passed on as they are). The Idempotency-Key is
 * optional upstream; when the browser sends one it goes on, which also lets a 5xx be retried safely.
 */

export function acceptSuggestion(applicationId: string, suggestionId: string, idempotencyKey: string | undefined) {
  return portalRequest({
    method: 'POST',
    path: routes.autofillSuggestionAccept(applicationId, suggestionId),
    schema: SuggestionAcceptResult,
    idempotencyKey,
  });
}

export function dismissSuggestion(applicationId: string, suggestionId: string, idempotencyKey: string | undefined) {
  return portalRequest({
    method: 'POST',
    path: routes.autofillSuggestionDismiss(applicationId, suggestionId),
    schema: AutofillSuggestion,
    idempotencyKey,
  });
}
