import { ApiError } from '@/lib/api/api-error';
import { PreparationConflictReply, type PreparationReply } from '@/lib/bff/autofill';

/** An error as a sentence for the page: the BFF's message, its first detail, and the request id to quote. */
export function messageOf(e: unknown): string {
  if (e instanceof ApiError) {
    const detail = e.details[0]?.message;
    const ref = e.requestId ? ` (reference ${e.requestId})` : '';
    return `${e.message}${detail && detail !== e.message ? ` ${detail}` : ''}${ref}`;
  }
  return e instanceof Error ? e.message : 'Something went wrong.';
}

/** The preparation as it is now, when the error is a 412 that carries it. */
export function preparationConflictOf(e: unknown): PreparationReply | null {
  if (!(e instanceof ApiError) || e.status !== 412) return null;
  const parsed = PreparationConflictReply.safeParse(e.body);
  return parsed.success ? parsed.data.current : null;
}
