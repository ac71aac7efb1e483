import 'server-only';
import type { Migration } from './types';

// Reminders (DESIGN.md §8). An invitation carries its plan: the due date, the recipient's time zone, the
// schedule (days after the invitation), and the client's and staff's say (unsubscribed, paused). Each step of
// the plan is a row of reminder_steps, keyed by invitation and step, so a step is sent at most once whoever
// schedules it; the job queue only wakes the step at its time. An outbox row may name the link it carries
// (action_url: reminders repeat the invitation's link, whose token exists nowhere else), the one-click
// unsubscribe address of its List-Unsubscribe header, and why it is held back (the per-recipient daily cap).
const sql = /* sql */ `
ALTER TABLE invitations ADD COLUMN due_at timestamptz;
ALTER TABLE invitations ADD COLUMN time_zone text;
ALTER TABLE invitations ADD COLUMN reminder_days jsonb;
ALTER TABLE invitations ADD COLUMN reminders_paused_at timestamptz;
ALTER TABLE invitations ADD COLUMN unsubscribed_at timestamptz;
ALTER TABLE invitations ADD COLUMN reminded_now_at timestamptz;

CREATE TABLE reminder_steps (
  invitation_id text NOT NULL REFERENCES invitations (id) ON DELETE CASCADE,
  step          text NOT NULL,
  kind          text NOT NULL CHECK (kind IN ('reminder', 'overdue', 'manual')),
  due_at        timestamptz NOT NULL,
  status        text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'sent', 'skipped')),
  outcome       text,
  message_id    text,
  updated_at    timestamptz NOT NULL,
  PRIMARY KEY (invitation_id, step)
);
CREATE INDEX reminder_steps_due ON reminder_steps (due_at) WHERE status = 'scheduled';

ALTER TABLE outbox ADD COLUMN action_url text;
ALTER TABLE outbox ADD COLUMN list_unsubscribe text;
ALTER TABLE outbox ADD COLUMN held_reason text;
CREATE INDEX outbox_recipient_day ON outbox (recipient, next_attempt_at);
`;

export const reminders: Migration = { version: 9, name: 'reminders', sql };
