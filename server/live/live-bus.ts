import 'server-only';
import type { LiveEventView } from '@/lib/bff/live-events';
import type { Db } from '@/server/db/types';
import { perDb } from '@/server/db/per-db';
import { log } from '@/server/log';
import { LIVE_CHANNEL, readLiveEvent } from '@/server/webhooks/deliveries';

/** What a page has open: exactly one of them is set. */
export interface LiveFilter {
  applicationId?: string;
  businessId?: string;
  dealId?: string;
  projectId?: string;
}

/** An event for the subscriber, or word that events may have been missed (the listener reconnected). */
export type LiveMessage = { kind: 'event'; event: LiveEventView } | { kind: 'resync' };

interface Subscriber {
  filter: LiveFilter;
  send: (message: LiveMessage) => void;
}

export function matches(filter: LiveFilter, e: LiveEventView): boolean {
  if (filter.applicationId) return e.application_id === filter.applicationId;
  if (filter.businessId) return e.business_id === filter.businessId;
  if (filter.dealId) return e.deal_id === filter.dealId;
  if (filter.projectId) return e.project_id === filter.projectId;
  return false;
}

/**
 * This instance's end of the live updates. Publishing is the receiver's NOTIFY (recordDelivery); every
 * instance LISTENs on one connection of its own and fans each delivery out to the streams it holds, so
 * an event received by any instance reaches the browsers of all of them. The NOTIFY carries only the
 * delivery id: the row is read once per instance, and a delivery from another deployment sharing the
 * server (another schema) is simply not found.
 */
export class LiveBus {
  private readonly subscribers = new Set<Subscriber>();
  private listening: Promise<void> | null = null;

  constructor(private readonly db: Db) {}

  /** Resolves once this instance is listening, so nothing sent after it is missed. */
  async subscribe(filter: LiveFilter, send: (message: LiveMessage) => void): Promise<() => void> {
    await this.listen();
    const sub: Subscriber = { filter, send };
    this.subscribers.add(sub);
    return () => void this.subscribers.delete(sub);
  }

  get subscriberCount() {
    return this.subscribers.size;
  }

  private listen(): Promise<void> {
    this.listening ??= this.db
      .listen(LIVE_CHANNEL, (id) => void this.deliver(id), { onReconnect: () => this.fanOut(() => true, { kind: 'resync' }) })
      .then(
        () => undefined,
        (err: unknown) => {
          // Forget the failure, so the next page that opens a stream tries again.
          this.listening = null;
          throw err;
        },
      );
    return this.listening;
  }

  private async deliver(id: string) {
    if (this.subscribers.size === 0) return;
    let event: LiveEventView | null;
    try {
      event = await readLiveEvent(this.db, id);
    } catch (err) {
      log.warn('live event could not be read', { delivery_id: id, error: err instanceof Error ? err.message : String(err) });
      return;
    }
    if (event) this.fanOut((s) => matches(s.filter, event), { kind: 'event', event });
  }

  private fanOut(to: (s: Subscriber) => boolean, message: LiveMessage) {
    for (const s of [...this.subscribers]) {
      if (!to(s)) continue;
      try {
        s.send(message);
      } catch {
        // One broken stream must not keep the event from the others; it is cleaned up by its own close.
      }
    }
  }
}

// One listener per process even when Next evaluates this module in several bundles (server/db/per-db).
const buses = perDb('live-bus', (db) => new LiveBus(db));

/** The bus of this process for the given database. */
export const liveBus = (db: Db): LiveBus => buses.of(db);
