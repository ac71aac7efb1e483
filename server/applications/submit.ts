import 'server-only';
import { ApplicationEnvelope } from '@/lib/portal';
import { portalRequest } from '@/server/portal';
import type { ApplicationLinks } from './links';

/**
 * Submits the application. The If-Match (the application's ETag) and the Idempotency-Key are the browser's,
 * passed on unchanged: a retry of the same click replays the first reply instead of submitting twice.
 */
export function submitApplication(links: ApplicationLinks, ifMatch: string, idempotencyKey: string, signal?: AbortSignal) {
  return portalRequest({ method: 'POST', url: links.submit, schema: ApplicationEnvelope, ifMatch, idempotencyKey, signal });
}
