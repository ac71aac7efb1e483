import 'server-only';
import { getEnv } from '@/server/env/get-env';
import { PortalError } from './errors';

/**
 * Percent-encoded slash, backslash, dot, percent and NUL in a path. The Portal's paths are made of ids and
 * keys, so none of these is legitimate, and each can turn into a traversal after a server's own decoding.
 */
const ENCODED_TRICKS = /%(2f|5c|2e|25|00)/i;
// Tabs and newlines are silently removed by the URL parser, which can turn ".\n." into "..".
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f]/;

export const portalBaseUrl = (): URL => new URL(getEnv().portalBaseUrl);

function refuse(reason: string, shown: string): never {
  throw PortalError.local('untrusted_url', `Refused to send the API key to ${shown}: ${reason}.`);
}

/** What an error may show of a refused URL: origin and path if it parses, nothing of a query or user info. */
function describe(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return 'a URL that is not absolute';
  }
}

/**
 * Returns the normalised URL if the API key may go there: same scheme, host and port as PORTAL_BASE_URL,
 * path under its base path, no user info, no encoded traversal. Throws PortalError 'untrusted_url' otherwise.
 * Runs before any network I/O.
 */
export function trustedPortalUrl(input: string | URL, base: URL = portalBaseUrl()): URL {
  const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : null;
  if (raw === null) refuse('not a URL', 'a value');
  const shown = describe(raw);
  if (raw.length > 8192) refuse('too long', 'a very long URL');
  if (CONTROL_OR_SPACE.test(raw)) refuse('it contains spaces or control characters', shown);
  if (raw.includes('\\')) refuse('it contains a backslash', shown);
  if (raw.startsWith('//')) refuse('it is protocol-relative', shown);
  let url: URL;
  try {
    url = new URL(raw); // no base: relative references are not followed
  } catch {
    refuse('it is not an absolute URL', shown);
  }
  if (url.protocol !== base.protocol) refuse(`scheme ${url.protocol} is not ${base.protocol}`, shown);
  if (url.username || url.password) refuse('it carries a user name or password', shown);
  if (url.origin !== base.origin) refuse('it is not the Portal origin', shown);
  if (!url.pathname.startsWith(base.pathname)) refuse(`its path is not under ${base.pathname}`, shown);
  if (ENCODED_TRICKS.test(url.pathname)) refuse('its path contains an encoded slash, backslash, dot or percent', shown);
  url.hash = '';
  return url;
}

export function isTrustedPortalUrl(input: string | URL, base?: URL): boolean {
  try {
    trustedPortalUrl(input, base);
    return true;
  } catch {
    return false;
  }
}
