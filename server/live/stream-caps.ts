import 'server-only';
import { processWide } from '@/server/process-wide';

/**
 * How many live-update streams one session, and one client address, may hold open at once on an instance.
 * A browser over HTTP/1.1 holds at most six connections to a site, so a person never nears the first; the
 * second leaves room for an office behind one address, and bounds what one client can tie up.
 */
export const LIVE_STREAM_CAPS = { perSession: 10, perAddress: 100 } as const;

interface Counts {
  sessions: Map<string, number>;
  addresses: Map<string, number>;
}

const counts = () => processWide<Counts>('live-stream-counts', () => ({ sessions: new Map(), addresses: new Map() }));

function change(map: Map<string, number>, key: string, by: number) {
  const n = (map.get(key) ?? 0) + by;
  if (n > 0) map.set(key, n);
  else map.delete(key);
}

/**
 * Takes a place for one more stream of this session from this address, or refuses (null) when either is at
 * its cap. The returned release gives the place back; calling it again does nothing. `address` null (unknown)
 * counts against the session only.
 */
export function admitStream(sid: string, address: string | null): (() => void) | null {
  const { sessions, addresses } = counts();
  if ((sessions.get(sid) ?? 0) >= LIVE_STREAM_CAPS.perSession) return null;
  if (address !== null && (addresses.get(address) ?? 0) >= LIVE_STREAM_CAPS.perAddress) return null;
  change(sessions, sid, 1);
  if (address !== null) change(addresses, address, 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    change(sessions, sid, -1);
    if (address !== null) change(addresses, address, -1);
  };
}
