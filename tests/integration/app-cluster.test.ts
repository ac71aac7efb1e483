import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { poller } from '../support/poller';
import { alive } from '../support/processes';
import { BffClient, signedIn } from './support/bff';
import { anotherInstance } from './support/another-instance';

/*
 * `npm start` with APP_INSTANCES=2 on PostgreSQL (server/launcher/app-instances.cjs): two app servers
 * behind one port, sharing the database, so a session made on one is good on the other; an instance that
 * dies takes the others down with it rather than leaving a half-sized app that looks healthy.
 */

/** The pids of a process's children. */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

describe('two app instances behind one port', () => {
  const app = anotherInstance({ name: 'cluster', instances: 2 });

  it('serves from two processes on one port, each knowing every session', async () => {
    const workers = childrenOf(app().pid!);
    expect(workers).toHaveLength(2);
    const { client } = await signedIn('staff');
    const onCluster = new BffClient(app().url);
    onCluster.cookies = new Map(client.cookies);
    // Connections go to the instances in turn: a burst of fresh connections reaches both.
    const replies = await Promise.all(Array.from({ length: 12 }, () => onCluster.get('/api/auth/session', { headers: { Connection: 'close' } })));
    for (const r of replies) expect(r.status).toBe(200);
    expect(replies.every((r) => (r.body as { session: unknown }).session !== null)).toBe(true);
  });

  it('stops every instance when one dies', async () => {
    const primary = app().pid!;
    const [first, second] = childrenOf(primary);
    process.kill(first!, 'SIGKILL');
    await poller({ timeoutMs: 15_000, everyMs: 50 })(async () => [alive(primary), alive(second!)], (s) => !s[0] && !s[1], 'the primary and the other instance to stop');
  });
});
