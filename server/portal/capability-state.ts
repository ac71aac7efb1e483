import 'server-only';
import { processWide } from '@/server/process-wide';
import type { PortalCapabilities } from './openapi-index';

/** The Portal's capabilities as last read (discovery.ts writes, the client and the features read). One per process. */
interface Held {
  capabilities: PortalCapabilities | null;
  /** When they were read (Date.now()). */
  at: number;
  /** Read from the document (not the spec-only stand-in after a failed read). */
  fromDocument: boolean;
  /** When the document is due to be read again (Date.now()). */
  nextReadAt: number;
}

const held = processWide<Held>('portal-capabilities', () => ({ capabilities: null, at: 0, fromDocument: false, nextReadAt: 0 }));

export const heldCapabilities = (): Readonly<Held> => held;

/** What the Portal offers, if it has been read yet: never waits (the client asks on every call). */
export const currentPortalCapabilities = (): PortalCapabilities | null => held.capabilities;

export function holdCapabilities(capabilities: PortalCapabilities, fromDocument: boolean, readAgainInMs: number) {
  held.capabilities = capabilities;
  held.at = Date.now();
  held.fromDocument = fromDocument;
  held.nextReadAt = held.at + readAgainInMs;
}
