import 'server-only';
import { z } from 'zod';
import { EvidenceSourceId } from '@/lib/bff/autofill';
import { ID_PATTERNS } from '@/lib/portal';
import { AppError } from '@/server/http/app-error';
import { ApplicationParams } from '@/server/http/params';
import { isIdempotencyKey } from '@/server/portal';

/** Path parameters of the Autofill routes, each checked before it goes into an upstream URL. */
export const EvidenceParams = ApplicationParams.extend({ evidenceId: EvidenceSourceId });
export type EvidenceParams = z.infer<typeof EvidenceParams>;

export const RunParams = ApplicationParams.extend({ runId: z.string().regex(ID_PATTERNS.autofillRun, 'not an Autofill run id') });
export type RunParams = z.infer<typeof RunParams>;

export const SuggestionParams = ApplicationParams.extend({
  suggestionId: z.string().regex(ID_PATTERNS.autofillSuggestion, 'not an Autofill suggestion id'),
});
export type SuggestionParams = z.infer<typeof SuggestionParams>;

/** An optional Idempotency-Key (accept, dismiss): passed on when the browser sent one. */
export function optionalIdempotencyKey(req: Request): string | undefined {
  const v = req.headers.get('idempotency-key');
  if (v === null) return undefined;
  if (!isIdempotencyKey(v)) {
    throw new AppError('invalid_request', 'Idempotency-Key must be 1-255 visible ASCII characters.', [
      { code: 'invalid_header', message: 'Idempotency-Key is not valid.', parameter: 'Idempotency-Key' },
    ]);
  }
  return v;
}
