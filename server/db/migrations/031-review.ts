import 'server-only';
import type { Migration } from './types';

// Review before submit (DESIGN.md §9). An invitation says whether its client submits or sends for review.
// `review_states` holds one application's state with a revision (the ETag of every review action); no row
// is a draft at revision 0. `review_events` is what the timeline shows of it. A change request points at one
// answer (schema_key, field_key, item_id '' at the top level), one item (block_key, item_id) or one file
// (file_id); `value_at_request` is the answer's last known value then, so a later change of it resolves it.
const sql = /* sql */ `
ALTER TABLE invitations ADD COLUMN client_submits boolean NOT NULL DEFAULT false;

CREATE TABLE review_states (
  application_id text PRIMARY KEY,
  state          text NOT NULL CHECK (state IN ('draft', 'in_review', 'changes_requested', 'submitted')),
  revision       integer NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX review_states_state_idx ON review_states (state, updated_at DESC);

CREATE TABLE review_events (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  application_id text NOT NULL,
  kind           text NOT NULL CHECK (kind IN ('sent_for_review', 'changes_requested', 'request_resolved', 'submitted')),
  actor_kind     text NOT NULL CHECK (actor_kind IN ('staff', 'client')),
  actor_name     text,
  detail         text,
  at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX review_events_application_idx ON review_events (application_id, at DESC);

CREATE TABLE change_requests (
  id               text PRIMARY KEY,
  application_id   text NOT NULL,
  target           text NOT NULL CHECK (target IN ('answer', 'item', 'file')),
  block_key        text NOT NULL DEFAULT '',
  schema_key       text NOT NULL DEFAULT '',
  field_key        text NOT NULL DEFAULT '',
  item_id          text NOT NULL DEFAULT '',
  file_id          text NOT NULL DEFAULT '',
  label            text NOT NULL,
  comment          text NOT NULL,
  staff_note       text,
  value_at_request jsonb,
  created_by       text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  resolved_at      timestamptz,
  resolved_how     text CHECK (resolved_how IN ('staff', 'changed')),
  resolved_by      text,
  changed_from     jsonb,
  changed_to       jsonb
);
CREATE INDEX change_requests_application_idx ON change_requests (application_id, created_at);

CREATE TABLE change_request_replies (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  request_id  text NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
  author_kind text NOT NULL CHECK (author_kind IN ('staff', 'client')),
  author_name text,
  text        text NOT NULL,
  at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX change_request_replies_request_idx ON change_request_replies (request_id, id);
`;

export const review: Migration = { version: 31, name: 'review', sql };
