import 'server-only';
import type { Migration } from './types';

// An invited client is welcomed once per invitation (the first time its link is opened), and the form
// reopens where the client left it: the last section they opened, kept per invitation so a new link for the
// same application can carry on from the newest place. Removed with the invitation it belongs to.
const sql = /* sql */ `
CREATE TABLE client_welcomes (
  invitation_id  text PRIMARY KEY REFERENCES invitations (id) ON DELETE CASCADE,
  application_id text NOT NULL,
  welcomed_at    timestamptz NOT NULL DEFAULT now(),
  last_section   text,
  section_at     timestamptz
);
CREATE INDEX client_welcomes_application_idx ON client_welcomes (application_id, section_at DESC NULLS LAST);
`;

export const clientWelcome: Migration = { version: 5, name: 'client-welcome', sql };
