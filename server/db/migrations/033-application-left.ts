import 'server-only';
import type { Migration } from './types';

// What an invited client still has to do on an application, as the form counts it: the sections not complete
// and the file questions not answered, by label, at the answers_revision the BFF last read them. Reminders read
// it instead of walking the Portal for each of thousands of invitations.
const sql = /* sql */ `
CREATE TABLE application_left (
  application_id   text PRIMARY KEY,
  answers_revision integer NOT NULL,
  sections         jsonb NOT NULL,
  documents        jsonb NOT NULL,
  updated_at       timestamptz NOT NULL DEFAULT now()
);
`;

export const applicationLeft: Migration = { version: 33, name: 'application-left', sql };
