import 'server-only';
import type { Migration } from './types';

// Timestamps are written by the application (an injectable clock), so defaults are only a fallback.
// Emails are stored normalised (trimmed, lower case) and the unique index on lower(email) guards
// against any writer that forgets: a portable stand-in for citext, which PGlite would need loaded.
const sql = /* sql */ `
CREATE TABLE users (
  id            text PRIMARY KEY,
  email         text NOT NULL,
  name          text NOT NULL,
  role          text NOT NULL CHECK (role IN ('staff', 'reviewer')),
  password_hash text NOT NULL,
  disabled_at   timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE invitations (
  id             text PRIMARY KEY,
  token_hash     text NOT NULL UNIQUE,
  application_id text NOT NULL,
  business_id    text,
  client_email   text,
  client_name    text,
  created_by     text NOT NULL REFERENCES users (id),
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL,
  revoked_at     timestamptz,
  first_used_at  timestamptz,
  last_used_at   timestamptz,
  use_count      integer NOT NULL DEFAULT 0
);
CREATE INDEX invitations_application_idx ON invitations (application_id, created_at DESC);

CREATE TABLE sessions (
  id                  text PRIMARY KEY,
  kind                text NOT NULL CHECK (kind IN ('user', 'client')),
  user_id             text REFERENCES users (id) ON DELETE CASCADE,
  invitation_id       text REFERENCES invitations (id) ON DELETE CASCADE,
  application_id      text,
  role                text NOT NULL CHECK (role IN ('staff', 'reviewer', 'client')),
  created_at          timestamptz NOT NULL DEFAULT now(),
  last_seen_at        timestamptz NOT NULL DEFAULT now(),
  absolute_expires_at timestamptz NOT NULL,
  revoked_at          timestamptz,
  -- A session belongs either to a signed-in user or to a client holding one invitation, never both.
  CONSTRAINT sessions_owner CHECK (
    (kind = 'user' AND user_id IS NOT NULL AND invitation_id IS NULL AND role IN ('staff', 'reviewer'))
    OR (kind = 'client' AND invitation_id IS NOT NULL AND user_id IS NULL AND application_id IS NOT NULL AND role = 'client')
  )
);
CREATE INDEX sessions_user_idx ON sessions (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX sessions_invitation_idx ON sessions (invitation_id) WHERE invitation_id IS NOT NULL;
CREATE INDEX sessions_absolute_expires_idx ON sessions (absolute_expires_at);

CREATE TABLE audit_log (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at                  timestamptz NOT NULL DEFAULT now(),
  actor_kind          text NOT NULL CHECK (actor_kind IN ('user', 'invitation')),
  actor_id            text NOT NULL,
  actor_label         text NOT NULL,
  operation           text NOT NULL,
  object_type         text NOT NULL,
  object_id           text,
  application_id      text,
  upstream_request_id text,
  outcome             text NOT NULL CHECK (outcome IN ('success', 'failure')),
  status              integer NOT NULL,
  detail              jsonb
);
-- Pages of one application's log are read newest first with an id cursor (id < $before).
CREATE INDEX audit_log_application_idx ON audit_log (application_id, id DESC);
CREATE INDEX audit_log_at_idx ON audit_log (at);

-- Failed sign-ins only (what throttling counts); a success clears its email's rows.
CREATE TABLE sign_in_attempts (
  id    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL,
  ip    text,
  at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_attempts_email_idx ON sign_in_attempts (email, at DESC);
CREATE INDEX sign_in_attempts_ip_idx ON sign_in_attempts (ip, at DESC) WHERE ip IS NOT NULL;
CREATE INDEX sign_in_attempts_at_idx ON sign_in_attempts (at);

CREATE TABLE webhook_deliveries (
  id          text PRIMARY KEY,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_received_idx ON webhook_deliveries (received_at);
`;

export const initial: Migration = { version: 1, name: 'initial', sql };
