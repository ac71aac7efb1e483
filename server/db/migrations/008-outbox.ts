import 'server-only';
import type { Migration } from './types';

// Every message the BFF sends is a row here, written in the transaction of the action that causes it, so an
// action that commits always has its message and one that rolls back never does. The delivery worker moves a
// row queued → sending (one UPDATE: whoever changes the status owns the send) → sent | queued (a temporary
// refusal, tried again at next_attempt_at) | failed (a permanent refusal, or the outcome could not be known).
const sql = /* sql */ `
CREATE TABLE outbox (
  id text PRIMARY KEY,
  template text NOT NULL,
  language text NOT NULL,
  recipient text NOT NULL,
  recipient_name text,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text NOT NULL,
  application_id text,
  invitation_id text REFERENCES invitations (id) ON DELETE SET NULL,
  created_by text,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'suppressed')),
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  smtp_message_id text,
  next_attempt_at timestamptz NOT NULL,
  claimed_at timestamptz,
  sent_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX outbox_created ON outbox (created_at DESC, id);
CREATE INDEX outbox_invitation ON outbox (invitation_id, created_at DESC);
CREATE INDEX outbox_pending ON outbox (next_attempt_at) WHERE status = 'queued';
`;

export const outbox: Migration = { version: 8, name: 'outbox', sql };
