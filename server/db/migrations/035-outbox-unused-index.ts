import 'server-only';
import type { Migration } from './types';

// Delivery finds a message by its id (each row is named by a job), so nothing reads queued rows by their next
// attempt: that index only cost every write, and a reminder tick writes thousands.
const sql = /* sql */ `
DROP INDEX outbox_pending;
`;

export const outboxUnusedIndex: Migration = { version: 35, name: 'outbox-unused-index', sql };
