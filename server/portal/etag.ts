import 'server-only';
import { PortalError } from './errors';

/** RFC 9110 entity-tag: optional W/ then a quoted string of etagc characters. */
const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

export const isEtag = (value: unknown): value is string => typeof value === 'string' && ENTITY_TAG.test(value);

/** The ETag header verbatim (quotes and W/ included), as If-Match must send it back. */
export const etagOf = (headers: Headers): string | null => headers.get('etag');

/**
 * Checks a value headed for If-Match and returns it unchanged. "*" is refused: it would turn a guarded write
 * into a blind one, and ETags that reach us from the browser deserve a format check.
 */
export function ifMatchValue(etag: string): string {
  if (!isEtag(etag)) {
    throw PortalError.local('invalid_request', 'If-Match must be a complete ETag from a read, quotes included.', {
      details: [{ code: 'invalid_header', message: 'Send the ETag exactly as it was read.', parameter: 'If-Match' }],
    });
  }
  return etag;
}

/** Checks a value headed for If-None-Match (the ETag of a copy we hold) and returns it unchanged. */
export function ifNoneMatchValue(etag: string): string {
  if (!isEtag(etag)) {
    throw PortalError.local('invalid_request', 'If-None-Match must be a complete ETag from a read, quotes included.', {
      details: [{ code: 'invalid_header', message: 'Send the ETag exactly as it was read.', parameter: 'If-None-Match' }],
    });
  }
  return etag;
}
