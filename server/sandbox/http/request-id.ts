import { randomBytes } from 'node:crypto';

/** Request-Id values look like the Portal's: a prefix and 24 hex characters. */
export const newRequestId = () => `req_${randomBytes(12).toString('hex')}`;
