import 'server-only';
import pg from 'pg';
import { checkChannel } from './handle';
import type { ListenOptions } from './types';

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 15_000;

/**
 * LISTEN on a connection of its own: a pooled connection goes back to the pool (and to other queries)
 * between uses, so it cannot hold a subscription. The first connection must succeed (the caller learns
 * of a bad URL at once); after that, a lost connection is re-opened with back-off and onReconnect tells
 * the caller that notifications sent meanwhile are gone.
 */
export async function listenOnPostgres(
  url: string,
  channel: string,
  onPayload: (payload: string) => void,
  { onReconnect, onDisconnect }: ListenOptions = {},
): Promise<() => Promise<void>> {
  const name = checkChannel(channel);
  let stopped = false;
  let current: pg.Client | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let delay = FIRST_RETRY_MS;

  const open = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (n) => {
      if (n.channel === name && n.payload !== undefined) onPayload(n.payload);
    });
    // 'error' unhandled would end the process; 'end' follows it, and is where the reconnect starts.
    client.on('error', (err) => console.error(`postgres listener (${name}): ${err.message}`));
    client.on('end', () => {
      const wasCurrent = current === client;
      if (wasCurrent) current = null;
      if (stopped) return;
      if (wasCurrent) onDisconnect?.();
      scheduleReconnect();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${name}`);
    } catch (err) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw err;
    }
    return client;
  };

  const scheduleReconnect = () => {
    if (retryTimer || stopped) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      open().then(
        (client) => {
          if (stopped) return void client.end().catch(() => undefined);
          current = client;
          delay = FIRST_RETRY_MS;
          onReconnect?.();
        },
        () => {
          delay = Math.min(delay * 2, MAX_RETRY_MS);
          scheduleReconnect();
        },
      );
    }, delay);
    retryTimer.unref?.();
  };

  current = await open();
  return async () => {
    stopped = true;
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    const client = current;
    current = null;
    await client?.end().catch(() => undefined);
  };
}
