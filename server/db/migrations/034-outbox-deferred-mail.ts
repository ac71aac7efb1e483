import 'server-only';
import type { Migration } from './types';

// A message may be queued as what its template needs (mail_input) instead of its rendered bodies: a reminder
// tick queues thousands at once, and writing every rendered body there cost more than the rest of the tick.
// The bodies are rendered from the input when the message is shown or sent, and kept as sent once it is.
const sql = /* sql */ `
ALTER TABLE outbox ADD COLUMN mail_input jsonb;
ALTER TABLE outbox ALTER COLUMN subject DROP NOT NULL, ALTER COLUMN text_body DROP NOT NULL, ALTER COLUMN html_body DROP NOT NULL;
ALTER TABLE outbox ADD CONSTRAINT outbox_mail_known CHECK (mail_input IS NOT NULL OR (subject IS NOT NULL AND text_body IS NOT NULL AND html_body IS NOT NULL));
`;

export const outboxDeferredMail: Migration = { version: 34, name: 'outbox-deferred-mail', sql };
