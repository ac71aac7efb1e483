import { beforeAll, describe, expect, it } from 'vitest';
import { sessionCacheOf } from '@/server/auth/session-cache';
import { createClientSession, createUserSession, resolveSessionCached, revokeSession } from '@/server/auth/sessions';
import { createUser, disableUser } from '@/server/auth/users';
import type { Db } from '@/server/db/types';
import { createInvitation } from '@/server/invitations/invitations';
import { testDrivers, useTestDb } from '@/tests/support/postgres';
import { poller } from '../support/poller';
import { freshApplication } from './support/applications';
import { anotherInstance } from './support/another-instance';
import { BffClient, bffDb, bffStack, invitedClient, signedIn } from './support/bff';
import { KEYS, SandboxClient } from './support/sandbox';
import type { RunningSandbox } from '@/server/sandbox/server';

/*
 * The in-process session cache (server/auth/session-cache.ts): a request's session comes from memory, and
 * everything that ends a session — sign-out, a disabled user, a revoked invitation, a row changed by hand —
 * is forgotten at once, in this instance and (through the database's NOTIFY) in every other one.
 */

/** The database handle with a count of the statements it runs, so a test sees when the cache answered. */
function counting(db: Db) {
  const counter = { statements: 0 };
  const wrapped: Db = {
    ...db,
    kind: db.kind,
    query: (sql, params) => (counter.statements++, db.query(sql, params)),
    one: (sql, params) => (counter.statements++, db.one(sql, params)),
    listen: (channel, onPayload, options) => db.listen(channel, onPayload, options),
  };
  return { db: wrapped, counter };
}

const soon = poller({ timeoutMs: 2_000, everyMs: 5 });

describe.each(testDrivers())('session cache on %s', (driver) => {
  const t = useTestDb(driver);
  let n = 0;
  const user = () => createUser(t.db, { email: `cache-${driver}-${++n}@example.test`, name: 'Cached Staff', role: 'staff', password: 'staff-password-1' });

  it('answers a known session from memory, and reads it again after sign-out', async () => {
    const { db, counter } = counting(t.db);
    await sessionCacheOf(db).ready();
    const u = await user();
    const { sid } = await createUserSession(db, u);
    expect(await resolveSessionCached(db, sid)).toMatchObject({ sid, kind: 'user', userId: u.id });
    const before = counter.statements;
    expect(await resolveSessionCached(db, sid)).toMatchObject({ sid, userId: u.id });
    expect(counter.statements, 'the second resolve ran no statement').toBe(before);

    await revokeSession(db, sid);
    // Forgotten in this process before the revoke even commits: the very next request is refused.
    expect(await resolveSessionCached(db, sid)).toBeNull();
  });

  it('forgets a disabled user’s sessions and a revoked invitation’s, at once', async () => {
    await sessionCacheOf(t.db).ready();
    const u = await user();
    const { sid } = await createUserSession(t.db, u);
    expect(await resolveSessionCached(t.db, sid)).not.toBeNull();
    await disableUser(t.db, u.email);
    expect(await resolveSessionCached(t.db, sid)).toBeNull();

    const { invitation } = await createInvitation(t.db, { applicationId: 'ciappl_cached', createdBy: u.id });
    const client = await createClientSession(t.db, invitation);
    expect(await resolveSessionCached(t.db, client.sid)).toMatchObject({ kind: 'client', invitationId: invitation.id });
    await t.db.query('UPDATE invitations SET revoked_at = now() WHERE id = $1', [invitation.id]);
    // A change made by hand (no code of ours ran) is announced by the database's trigger.
    await soon(() => resolveSessionCached(t.db, client.sid), (s) => s === null, 'the revoked invitation’s session to be refused');
  });

  it('announces a session row changed by hand, but not the touch of last_seen_at', async () => {
    const got: string[] = [];
    const stop = await t.db.listen('session_changed', (p) => got.push(p));
    try {
      const u = await user();
      const { sid } = await createUserSession(t.db, u);
      await t.db.query(`UPDATE sessions SET last_seen_at = last_seen_at + interval '1 minute' WHERE id = $1`, [sid]);
      await t.db.query(`UPDATE sessions SET last_seen_at = last_seen_at - interval '1 hour' WHERE id = $1`, [sid]);
      await soon(async () => got, (g) => g.includes(`sid:${sid}`), 'the announcement of the idled session');
      expect(got.filter((p) => p === `sid:${sid}`)).toHaveLength(1);
    } finally {
      await stop();
    }
  });
});

describe('two app instances on one PostgreSQL', () => {
  const second = anotherInstance({ name: 'cache-b' });
  let applicationId: string;
  beforeAll(async () => {
    applicationId = await freshApplication(new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full), 'Session Cache Ltd');
  }, 90_000);

  /** The same browser's cookies, sent to instance B. */
  const onB = (client: BffClient) => {
    const b = new BffClient(second().url);
    b.cookies = new Map(client.cookies);
    return b;
  };
  const status = (client: BffClient) => async () => (await client.get(`/api/applications/${applicationId}`)).status;
  /** B has the session in memory: two calls answered. */
  const warm = async (b: BffClient) => {
    expect(await status(b)()).toBe(200);
    expect(await status(b)()).toBe(200);
  };

  it('a sign-out on A is refused on B', async () => {
    const { client } = await signedIn('staff');
    const b = onB(client);
    await warm(b);
    const before = new Map(client.cookies);
    expect((await client.post('/api/auth/sign-out')).status).toBeLessThan(300);
    b.cookies = before;
    await soon(status(b), (s) => s === 401, 'B to refuse the signed-out session');
  });

  it('disabling a user (the users CLI, another process) is refused on B', async () => {
    const { client, email } = await signedIn('staff');
    const b = onB(client);
    await warm(b);
    await disableUser(await bffDb(), email);
    await soon(status(b), (s) => s === 401, 'B to refuse the disabled user');
  });

  it('an invitation revoked on A is refused on B', async () => {
    const { client: staff } = await signedIn('staff');
    const { client, invitationId } = await invitedClient(staff, applicationId);
    const b = onB(client);
    await warm(b);
    expect((await staff.post(`/api/invitations/${invitationId}/revoke`)).status).toBe(200);
    await soon(status(b), (s) => s === 401, 'B to refuse the revoked invitation’s client');
  });
});
