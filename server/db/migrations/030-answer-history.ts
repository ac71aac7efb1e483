import 'server-only';
import type { Migration } from './types';

// The history of every answer (DESIGN.md §9): what the BFF wrote, who asked and how, and what changed upstream
// without a write of ours. `answer_values` is the last value the BFF knows of each field, with the
// answers_revision it was known at: a later read that finds another value at a newer revision is a change made
// outside the app. `item_id` is '' for an answer outside any repeatable item, so the key has no NULLs.
// Numbered apart from its neighbours so branches adding migrations meanwhile do not collide.
const sql = /* sql */ `
CREATE TABLE answer_values (
  application_id text NOT NULL,
  schema_key     text NOT NULL,
  field_key      text NOT NULL,
  item_id        text NOT NULL DEFAULT '',
  value          jsonb,
  revision       integer NOT NULL,
  PRIMARY KEY (application_id, schema_key, field_key, item_id)
);

CREATE TABLE answer_history (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  application_id text NOT NULL,
  schema_key     text NOT NULL,
  field_key      text NOT NULL,
  item_id        text NOT NULL DEFAULT '',
  old_value      jsonb,
  old_known      boolean NOT NULL,
  new_value      jsonb,
  revision       integer NOT NULL,
  actor_kind     text NOT NULL CHECK (actor_kind IN ('staff', 'reviewer', 'client', 'autofill', 'outside')),
  actor_name     text,
  at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX answer_history_question_idx ON answer_history (application_id, schema_key, item_id, id DESC);
CREATE INDEX answer_history_application_idx ON answer_history (application_id, id DESC);
CREATE INDEX answer_history_at_idx ON answer_history (at);
`;

export const answerHistory: Migration = { version: 30, name: 'answer-history', sql };
