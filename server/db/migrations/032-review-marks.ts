import 'server-only';
import type { Migration } from './types';

// Staff's "Looks right" marks of review mode (DESIGN.md §9). A mark keeps the value it was given to: a later
// read that finds another value shows the answer as not reviewed (compared on read, so no write path has to
// remember to clear it). An attached file is marked on its own (file_id), an answer with file_id ''.
const sql = /* sql */ `
CREATE TABLE review_marks (
  application_id text NOT NULL,
  schema_key     text NOT NULL,
  field_key      text NOT NULL,
  item_id        text NOT NULL DEFAULT '',
  file_id        text NOT NULL DEFAULT '',
  value          jsonb,
  marked_by      text NOT NULL,
  marked_by_name text,
  marked_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (application_id, schema_key, field_key, item_id, file_id)
);
`;

export const reviewMarks: Migration = { version: 32, name: 'review-marks', sql };
