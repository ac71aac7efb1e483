'use client';

import { useEffect, useRef, useState } from 'react';
import { apiUrl } from '@/lib/api/client';
import { eventsApi } from '@/lib/api/endpoints';
import { isLiveEvent, LIVE_RESYNC, LIVE_SESSION_ENDED, type LiveMessageView } from '@/lib/bff/live-events';

/** What a page has open, as the query of GET /api/events. */
export type LiveTarget = { application_id: string } | { business_id: string } | { deal_id: string } | { project_id: string };

/** Whether events can arrive: not yet known, the stream is open, or it is not (reconnecting, refused, unsupported). */
export type LiveState = 'connecting' | 'open' | 'down';

const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;

/**
 * Live updates of one object while the component is mounted: an EventSource on /api/events. The browser
 * reconnects by itself after a dropped connection (the server's `retry:`); when it gives up (a refused
 * reconnect, the app down) this hook opens a new one with exponential back-off. After any gap the handler
 * gets a resync, since events sent meanwhile are lost. A null target, or the end of the session, stops it.
 * Returns whether events can arrive now, for a page that must fall back to reading while they cannot.
 */
export function useLiveEvents(target: LiveTarget | null, onMessage: (message: LiveMessageView) => void): LiveState {
  // The state of the stream of one url: a new url starts out connecting.
  const [seen, setSeen] = useState<{ url: string | null; state: LiveState }>({ url: null, state: 'connecting' });
  const handler = useRef(onMessage);
  useEffect(() => {
    handler.current = onMessage;
  });
  const url = target ? apiUrl(eventsApi.GET, { query: target }) : null;

  useEffect(() => {
    if (url === null) return;
    const setState = (state: LiveState) => setSeen({ url, state });
    if (typeof EventSource === 'undefined') {
      const t = setTimeout(() => setState('down'));
      return () => clearTimeout(t);
    }
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let failures = 0;
    let gap = false;
    let stopped = false;

    const stop = () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      source?.close();
      source = null;
    };
    const connect = () => {
      const es = new EventSource(url);
      source = es;
      es.onopen = () => {
        failures = 0;
        setState('open');
        if (gap) handler.current({ type: LIVE_RESYNC });
        gap = false;
      };
      es.onmessage = (m: MessageEvent<string>) => {
        let data: unknown;
        try {
          data = JSON.parse(m.data);
        } catch {
          return;
        }
        const type = (data as { type?: unknown } | null)?.type;
        if (type === LIVE_SESSION_ENDED) {
          setState('down');
          return stop();
        }
        if (type === LIVE_RESYNC) return handler.current({ type: LIVE_RESYNC });
        if (isLiveEvent(data)) handler.current(data);
      };
      es.onerror = () => {
        gap = true;
        if (!stopped) setState('down');
        // CONNECTING: the browser is already retrying. CLOSED: it gave up; try again later ourselves.
        if (es.readyState !== EventSource.CLOSED || stopped) return;
        es.close();
        const wait = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** failures++);
        retry = setTimeout(connect, wait / 2 + Math.random() * (wait / 2));
      };
    };
    connect();
    return stop;
  }, [url]);
  if (url === null) return 'down';
  return seen.url === url ? seen.state : 'connecting';
}
