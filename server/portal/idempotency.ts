import 'server-only';
import { randomUUID } from 'node:crypto';
import { PortalError } from './errors';

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * A new key for a new user action. Create it where the action starts and reuse it only for an identical
 * retry of that action (same method, resource, body and If-Match); the client reuses it across its own retries.
 */
export const newIdempotencyKey = (): string => randomUUID();

export const isIdempotencyKey = (value: unknown): value is string => typeof value === 'string' && KEY.test(value);

export function idempotencyKeyValue(key: string): string {
  if (!isIdempotencyKey(key)) {
    throw PortalError.local('invalid_request', 'Idempotency-Key must be 1-255 visible ASCII characters.', {
      details: [{ code: 'invalid_header', message: 'Use newIdempotencyKey().', parameter: 'Idempotency-Key' }],
    });
  }
  return key;
}
