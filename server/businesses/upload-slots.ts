import 'server-only';
import type { FileUploadCredential } from '@/lib/portal';

/**
 * The signed upload URLs a business create returned, kept on the server: the browser gets only the slot
 * ids and uploads through the BFF, so the credential (the URL's token) never reaches it.
 *
 * Kept in this process's memory rather than the database: a bearer credential that is never written
 * anywhere cannot leak from disk or a backup, and it is short-lived anyway. The cost: with several BFF
 * instances an upload must reach the instance that created the business (sticky sessions), and a restart
 * forgets the slots; the application's own file questions issue fresh credentials in either case.
 */
export interface UploadSlot {
  businessId: string;
  uploadId: string;
  applicationId: string;
  uploadUrl: string;
  requestPath: string;
  multiple: boolean;
  expiresAt: number;
}

/**
 * The spec does not say how long an upload_url lives (the sandbox: 15 minutes). Past this the slot is
 * forgotten even if the Portal would still take it; before it, an expired URL is the Portal's to refuse.
 */
export const UPLOAD_SLOT_TTL_MS = 30 * 60_000;
const MAX_SLOTS = 10_000;

const slots = new Map<string, UploadSlot>();
const keyOf = (businessId: string, uploadId: string) => `${businessId} ${uploadId}`;

function sweep(now: number) {
  for (const [key, slot] of slots) if (slot.expiresAt <= now) slots.delete(key);
}

export function rememberUploadSlots(
  businessId: string,
  applicationId: string,
  credentials: readonly FileUploadCredential[],
  now = Date.now(),
) {
  sweep(now);
  for (const c of credentials) {
    const key = keyOf(businessId, c.id);
    // Re-inserted so the Map's order stays oldest first for the size bound below.
    slots.delete(key);
    slots.set(key, {
      businessId,
      uploadId: c.id,
      applicationId,
      uploadUrl: c.upload_url,
      requestPath: c.request_path,
      multiple: c.multiple,
      expiresAt: now + UPLOAD_SLOT_TTL_MS,
    });
  }
  while (slots.size > MAX_SLOTS) slots.delete(slots.keys().next().value!);
}

/** The live slot of that business, or null (unknown, another business's, or expired). */
export function findUploadSlot(businessId: string, uploadId: string, now = Date.now()): UploadSlot | null {
  const slot = slots.get(keyOf(businessId, uploadId));
  if (!slot) return null;
  if (slot.expiresAt <= now) {
    slots.delete(keyOf(businessId, uploadId));
    return null;
  }
  return slot;
}

/** Drops a slot whose URL the Portal refused, so the next attempt is told at once. */
export function forgetUploadSlot(businessId: string, uploadId: string) {
  slots.delete(keyOf(businessId, uploadId));
}
