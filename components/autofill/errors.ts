import { ApiError } from '@/lib/api/api-error';

/** An error as a sentence for the page: the BFF's message, its first detail, and the request id to quote. */
export function messageOf(e: unknown): string {
  if (e instanceof ApiError) {
    const detail = e.details[0]?.message;
    const ref = e.requestId ? ` (reference ${e.requestId})` : '';
    return `${e.message}${detail && detail !== e.message ? ` ${detail}` : ''}${ref}`;
  }
  return e instanceof Error ? e.message : 'Something went wrong.';
}
