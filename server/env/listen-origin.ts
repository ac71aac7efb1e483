import 'server-only';
import { EnvError } from './parse-env';
import type { EnvSource } from './types';

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '']);

/**
 * The origin of the address the app listens on, from HOST and PORT (what `npm start` passes to the server; Next
 * sets PORT itself once it listens): the public origin when APP_ORIGIN is not configured. A wildcard host is
 * reached as localhost, as Next prints it. Never read from a request, so no Host header decides a link.
 */
export function listenOrigin(source: EnvSource): string {
  const port = (source.PORT ?? '').trim() || '3000';
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65_535) {
    throw new EnvError([{ variable: 'PORT', message: 'must be a port number between 1 and 65535' }]);
  }
  const raw = (source.HOST ?? '').trim();
  const host = WILDCARDS.has(raw) ? 'localhost' : raw.includes(':') && !raw.startsWith('[') ? `[${raw}]` : raw;
  let url: URL | null = null;
  try {
    url = new URL(`http://${host}:${port}`);
  } catch {
    url = null;
  }
  if (!url || url.pathname !== '/' || url.username || url.search) {
    throw new EnvError([{ variable: 'HOST', message: 'must be a host name or an IP address' }]);
  }
  return url.origin;
}
