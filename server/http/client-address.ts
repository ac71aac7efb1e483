/* No 'server-only' import: proxy.ts uses this (see request-target.ts). */
import { getEnv } from '@/server/env/get-env';
import { passedProxy } from './proxy-mark';

/**
 * The client's address from X-Forwarded-For, trusting `hops` proxies in front of the app. Each trusted
 * proxy appends the address it saw, so the client is the `hops`-th entry from the right; anything to its
 * left was written by the client and may be forged. With 0 hops there is no proxy to trust: the proxy
 * step removes what the client sent and the server fills in the socket's address, the only entry left.
 */
export function clientAddress(forwardedFor: string | null, hops: number): string | null {
  const entries = (forwardedFor ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0) return null;
  const at = hops === 0 ? entries.length - 1 : Math.max(0, entries.length - hops);
  const address = entries[at]!;
  // An address, not whatever text a client typed (it is stored and compared).
  return /^[0-9A-Za-z.:[\]%_-]{1,64}$/.test(address) ? address : null;
}

/**
 * The client's address for any route: the one answer sign-in throttling, the live-stream caps and anything
 * else keyed by address use. On a request proxy.ts passed, X-Forwarded-For holds one entry: the address the
 * trusted proxies vouch for, or the socket's (the server fills it in once the proxy removed the client's).
 * An upload skips the proxy, so nothing removed what the client wrote there: only the entries the trusted
 * proxies appended count, and with none trusted the address is unknown (null) rather than the client's word.
 */
export function clientAddressOf(req: Request): string | null {
  const forwardedFor = req.headers.get('x-forwarded-for');
  if (passedProxy(req.headers)) return clientAddress(forwardedFor, 0);
  const hops = getEnv().trustedProxyHops;
  return hops === 0 ? null : clientAddress(forwardedFor, hops);
}
