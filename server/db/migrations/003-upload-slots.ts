import 'server-only';
import type { Migration } from './types';

// The upload slots of a new business (server/businesses/upload-slots.ts) lived in one process's memory, so
// with several instances behind a load balancer an upload reaching another instance was lost. They live
// here now, where every instance reads them. The signed URL is a bearer credential: it is stored sealed
// (iron-session, keyed by SESSION_SECRET), so the database alone does not hold a usable one.
const sql = /* sql */ `
CREATE TABLE upload_slots (
  business_id    text NOT NULL,
  upload_id      text NOT NULL,
  application_id text NOT NULL,
  sealed_url     text NOT NULL,
  request_path   text NOT NULL,
  multiple       boolean NOT NULL,
  expires_at     timestamptz NOT NULL,
  PRIMARY KEY (business_id, upload_id)
);
CREATE INDEX upload_slots_expires_idx ON upload_slots (expires_at);
`;

export const uploadSlots: Migration = { version: 3, name: 'upload-slots', sql };
