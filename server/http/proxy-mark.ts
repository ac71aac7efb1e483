/* No 'server-only' import: proxy.ts uses this (see request-target.ts). */
import { processWide } from '@/server/process-wide';

/**
 * How a route knows proxy.ts ran before it. Uploads skip the proxy (its matcher) so their bodies stream, and
 * a request that skipped it must not be believed on anything the proxy vouches for (the client's address
 * above all). The proxy stamps every request it passes with a value only this server process knows; a
 * client can send the header, never the value.
 */
const HEADER = 'x-intake-proxied';

const processToken = () => processWide('proxy-token', () => crypto.randomUUID());

/** Stamps a request the proxy passes on (replacing whatever the client sent under that name). */
export function markProxied(headers: Headers): void {
  headers.set(HEADER, processToken());
}

/** Whether proxy.ts passed this request on: its limits, address and headers apply. */
export function passedProxy(headers: Headers): boolean {
  return headers.get(HEADER) === processToken();
}
