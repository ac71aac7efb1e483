import 'server-only';
import { sealData, unsealData } from 'iron-session';
import type { FileUploadCredential } from '@/lib/portal';
import type { Db } from '@/server/db/types';
import { getEnv } from '@/server/env';

/**
 * The signed upload URLs a business create returned, kept on the server: the browser gets only the slot
 * ids and uploads through the BFF, so the credential (the URL's token) never reaches it.
 *
 * Kept in the app's database (migration 003), so any instance behind a load balancer takes the upload and a
 * restart forgets nothing. The URL is a bearer credential, so it is stored sealed with SESSION_SECRET: a copy
 * of the database alone holds no usable one.
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

const sealOptions = () => ({ password: getEnv().sessionSecret, ttl: UPLOAD_SLOT_TTL_MS / 1000 });

export async function rememberUploadSlots(
  db: Db,
  businessId: string,
  applicationId: string,
  credentials: readonly FileUploadCredential[],
  now = Date.now(),
) {
  await db.query('DELETE FROM upload_slots WHERE expires_at <= $1', [new Date(now)]);
  const expiresAt = new Date(now + UPLOAD_SLOT_TTL_MS);
  for (const c of credentials) {
    const sealed = await sealData({ url: c.upload_url }, sealOptions());
    await db.query(
      `INSERT INTO upload_slots (business_id, upload_id, application_id, sealed_url, request_path, multiple, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (business_id, upload_id) DO UPDATE SET application_id = $3, sealed_url = $4, request_path = $5, multiple = $6, expires_at = $7`,
      [businessId, c.id, applicationId, sealed, c.request_path, c.multiple, expiresAt],
    );
  }
}

interface Row {
  application_id: string;
  sealed_url: string;
  request_path: string;
  multiple: boolean;
  expires_at: Date;
}

/** The live slot of that business, or null (unknown, another business's, or expired). */
export async function findUploadSlot(db: Db, businessId: string, uploadId: string, now = Date.now()): Promise<UploadSlot | null> {
  const row = await db.one<Row>(
    'SELECT application_id, sealed_url, request_path, multiple, expires_at FROM upload_slots WHERE business_id = $1 AND upload_id = $2 AND expires_at > $3',
    [businessId, uploadId, new Date(now)],
  );
  if (!row) return null;
  // A seal made with another SESSION_SECRET (rotated since) opens to nothing: the slot is gone.
  const { url } = await unsealData<{ url?: string }>(row.sealed_url, sealOptions());
  if (!url) return null;
  return {
    businessId,
    uploadId,
    applicationId: row.application_id,
    uploadUrl: url,
    requestPath: row.request_path,
    multiple: row.multiple,
    expiresAt: new Date(row.expires_at).getTime(),
  };
}

/** Drops a slot whose URL the Portal refused, so the next attempt is told at once. */
export async function forgetUploadSlot(db: Db, businessId: string, uploadId: string) {
  await db.query('DELETE FROM upload_slots WHERE business_id = $1 AND upload_id = $2', [businessId, uploadId]);
}
