import 'server-only';
import type { Migration } from './types';

// The workspace's read model (DESIGN.md §7): what the Portal cannot answer in one call, kept here, fed by
// webhooks and the BFF's own writes and repaired by the reconciler. Never the authority for a write.
// `refreshed_at` is when the row was last read from the Portal, `updated_at` when anything changed it;
// `seen_pass` names the last complete reconcile pass that found the row upstream (rows it did not find are
// removed at the end of that pass). Searches use lower(...) LIKE, which works on PGlite and PostgreSQL alike
// (pg_trgm is not available on PGlite); `search_text` holds the lower-cased name and contact once.
const sql = /* sql */ `
CREATE TABLE workspace_businesses (
  id                       text PRIMARY KEY,
  name                     text,
  contact_name             text,
  contact_email            text,
  search_text              text NOT NULL DEFAULT '',
  pipeline_id              text,
  pipeline_name            text,
  stage_id                 text,
  stage_name               text,
  revision                 integer,
  is_sample                boolean NOT NULL DEFAULT false,
  application_id           text,
  application_status       text,
  application_status_label text,
  progress_percent         integer,
  answers_revision         integer,
  submitted_at             timestamptz,
  invitation_state         text CHECK (invitation_state IN ('sent', 'opened', 'revoked')),
  invitation_sent_at       timestamptz,
  invitation_expires_at    timestamptz,
  created_at               timestamptz,
  last_activity_at         timestamptz,
  refreshed_at             timestamptz,
  seen_pass                text,
  updated_at               timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX workspace_businesses_application_key ON workspace_businesses (application_id) WHERE application_id IS NOT NULL;
CREATE INDEX workspace_businesses_activity_idx ON workspace_businesses (last_activity_at DESC NULLS LAST, id);
CREATE INDEX workspace_businesses_stage_idx ON workspace_businesses (stage_id, last_activity_at DESC);
CREATE INDEX workspace_businesses_status_idx ON workspace_businesses (application_status);
CREATE INDEX workspace_businesses_submitted_idx ON workspace_businesses (submitted_at DESC) WHERE submitted_at IS NOT NULL;
CREATE INDEX workspace_businesses_name_idx ON workspace_businesses (lower(name), id);

CREATE TABLE workspace_deals (
  id             text PRIMARY KEY,
  business_id    text,
  name           text NOT NULL,
  recipient_name text,
  pipeline_id    text,
  stage_id       text,
  stage_name     text,
  status         text,
  project_id     text,
  is_sample      boolean NOT NULL DEFAULT false,
  created_at     timestamptz,
  refreshed_at   timestamptz,
  seen_pass      text,
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX workspace_deals_business_idx ON workspace_deals (business_id, created_at DESC);
CREATE INDEX workspace_deals_created_idx ON workspace_deals (created_at DESC, id);

CREATE TABLE workspace_projects (
  id           text PRIMARY KEY,
  business_id  text NOT NULL,
  name         text NOT NULL,
  status       text NOT NULL,
  best_fit     text,
  best_score   integer,
  match_count  integer,
  created_at   timestamptz,
  refreshed_at timestamptz,
  seen_pass    text,
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX workspace_projects_business_idx ON workspace_projects (business_id, created_at DESC);

CREATE TABLE workspace_suggestions (
  application_id    text PRIMARY KEY,
  business_id       text,
  pending_count     integer NOT NULL DEFAULT 0,
  oldest_pending_at timestamptz,
  refreshed_at      timestamptz,
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX workspace_suggestions_waiting_idx ON workspace_suggestions (oldest_pending_at) WHERE pending_count > 0;

-- One row ('reconcile'): where the current pass is (the business list cursor it resumes from), when the last
-- complete pass ended, and when the last webhook event was applied.
CREATE TABLE workspace_sync (
  name              text PRIMARY KEY,
  pass_id           text,
  pass_started_at   timestamptz,
  cursor            text,
  businesses_done   integer NOT NULL DEFAULT 0,
  upstream_calls    integer NOT NULL DEFAULT 0,
  last_completed_at timestamptz,
  last_duration_ms  integer,
  last_calls        integer,
  last_error        text,
  last_event_at     timestamptz,
  updated_at        timestamptz NOT NULL DEFAULT now()
);
INSERT INTO workspace_sync (name) VALUES ('reconcile');
`;

export const readModel: Migration = { version: 4, name: 'read-model', sql };
