import 'server-only';
import type { Migration } from './types';

// Delivery finds a message by its id (each row is named by a job), so nothing reads queued rows by their next
// attempt: that index only cost every write, and a reminder tick writes thousands. An application's timeline
// lists its messages newest first, which without an index of its own read the whole outbox for each page
// (11 ms at 50,000 messages on the embedded database, growing with them; 0.4 ms with it).
const sql = /* sql */ `
DROP INDEX outbox_pending;
CREATE INDEX outbox_application ON outbox (application_id, created_at DESC) WHERE application_id IS NOT NULL;
`;

export const outboxIndexes: Migration = { version: 35, name: 'outbox-indexes', sql };
