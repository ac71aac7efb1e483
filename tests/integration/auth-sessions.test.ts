import { describe, expect, it } from 'vitest';
import { DEFAULT_SESSION_POLICY } from '@/server/auth/session-policy';
import { createClientSession, createUserSession, resolveSession, revokeSession, revokeSessionsForUser } from '@/server/auth/sessions';
import { createUser, type User } from '@/server/auth/users';
import { createInvitation, revokeInvitation } from '@/server/invitations/invitations';
import { redeemInvitation } from '@/server/invitations/redeem-invitation';
import { testDrivers, useTestDb } from '@/tests/support/postgres';
import type { Db } from '@/server/db/types';

const T0 = new Date('2030-03-01T09:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

async function staff(db: Db, email = 'sam@example.com'): Promise<User> {
  return createUser(db, { email, name: 'Sam Staff', role: 'staff', password: 'staff-password-1' }, T0);
}

async function lastSeen(db: Db, sid: string): Promise<Date | undefined> {
  return (await db.one<{ last_seen_at: Date }>('SELECT last_seen_at FROM sessions WHERE id = $1', [sid]))?.last_seen_at;
}

describe.each(testDrivers())('sessions on %s', (driver) => {
  const t = useTestDb(driver);

  it('resolves a user session from the server-side record', async () => {
    const user = await staff(t.db);
    const { sid, absoluteExpiresAt } = await createUserSession(t.db, user, { now: T0 });
    expect(sid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(absoluteExpiresAt).toEqual(at(12 * 60));
    expect(await resolveSession(t.db, sid, at(1))).toEqual({
      sid,
      kind: 'user',
      role: 'staff',
      userId: user.id,
      userEmail: 'sam@example.com',
      userName: 'Sam Staff',
    });
  });

  it('returns null for unknown and malformed ids', async () => {
    expect(await resolveSession(t.db, 'A'.repeat(43), T0)).toBeNull();
    expect(await resolveSession(t.db, "x' OR '1'='1", T0)).toBeNull();
    expect(await resolveSession(t.db, '', T0)).toBeNull();
  });

  it('expires after the idle timeout, and activity keeps it alive', async () => {
    const user = await staff(t.db);
    const idle = await createUserSession(t.db, user, { now: T0 });
    const active = await createUserSession(t.db, user, { now: T0 });
    expect(await resolveSession(t.db, active.sid, at(25))).not.toBeNull();
    expect(await resolveSession(t.db, idle.sid, at(29))).not.toBeNull();
    expect(await resolveSession(t.db, active.sid, at(50))).not.toBeNull();
    expect(await resolveSession(t.db, idle.sid, at(60))).toBeNull();
    // Once idle-expired it stays dead, even if asked again at once.
    expect(await resolveSession(t.db, idle.sid, at(60))).toBeNull();
    expect(await resolveSession(t.db, active.sid, at(81))).toBeNull();
  });

  it('honours a configured idle timeout', async () => {
    const { sid } = await createUserSession(t.db, await staff(t.db), { now: T0 });
    const policy = { ...DEFAULT_SESSION_POLICY, idleMinutes: 5 };
    expect(await resolveSession(t.db, sid, at(4), policy)).not.toBeNull();
    expect(await resolveSession(t.db, sid, at(10), policy)).toBeNull();
  });

  it('writes last_seen_at at most once a minute', async () => {
    const { sid } = await createUserSession(t.db, await staff(t.db), { now: T0 });
    await resolveSession(t.db, sid, at(0.5));
    expect(await lastSeen(t.db, sid)).toEqual(T0);
    await resolveSession(t.db, sid, at(1.5));
    expect(await lastSeen(t.db, sid)).toEqual(at(1.5));
    await resolveSession(t.db, sid, at(2));
    expect(await lastSeen(t.db, sid)).toEqual(at(1.5));
  });

  it('ends at the absolute expiry however active it is', async () => {
    const { sid } = await createUserSession(t.db, await staff(t.db), { now: T0, policy: { idleMinutes: 30, absoluteHours: 2 } });
    for (let m = 20; m < 120; m += 20) expect(await resolveSession(t.db, sid, at(m))).not.toBeNull();
    expect(await resolveSession(t.db, sid, at(120))).toBeNull();
  });

  it('is refused at once after sign-out', async () => {
    const { sid } = await createUserSession(t.db, await staff(t.db), { now: T0 });
    expect(await revokeSession(t.db, sid, at(1))).toBe(true);
    expect(await resolveSession(t.db, sid, at(1))).toBeNull();
    expect(await revokeSession(t.db, sid, at(2))).toBe(false);
  });

  it('revokes all of a user’s sessions and no one else’s', async () => {
    const a = await staff(t.db, 'a@example.com');
    const b = await staff(t.db, 'b@example.com');
    const a1 = await createUserSession(t.db, a, { now: T0 });
    const a2 = await createUserSession(t.db, a, { now: T0 });
    const b1 = await createUserSession(t.db, b, { now: T0 });
    expect(await revokeSessionsForUser(t.db, a.id, at(1))).toBe(2);
    expect(await resolveSession(t.db, a1.sid, at(1))).toBeNull();
    expect(await resolveSession(t.db, a2.sid, at(1))).toBeNull();
    expect(await resolveSession(t.db, b1.sid, at(1))).not.toBeNull();
  });

  it('is refused at once when the user is disabled, and follows role changes', async () => {
    const user = await staff(t.db);
    const { sid } = await createUserSession(t.db, user, { now: T0 });
    await t.db.query(`UPDATE users SET role = 'reviewer' WHERE id = $1`, [user.id]);
    expect((await resolveSession(t.db, sid, at(1)))?.role).toBe('reviewer');
    // Disabled directly in the table: the check itself refuses, not only the revocation disableUser adds.
    await t.db.query('UPDATE users SET disabled_at = $2 WHERE id = $1', [user.id, at(2)]);
    expect(await resolveSession(t.db, sid, at(2))).toBeNull();
  });

  describe('client sessions', () => {
    async function invited(db: Db, ttlHours = 168) {
      const creator = await staff(db);
      const { invitation, token } = await createInvitation(
        db,
        { applicationId: 'ciappl_abc123', businessId: 'biz_42', clientEmail: 'client@example.com', createdBy: creator.id, ttlHours },
        T0,
      );
      const redeemed = await redeemInvitation(db, token, at(1));
      if (!redeemed.ok) throw new Error(redeemed.reason);
      return { invitation, session: await createClientSession(db, redeemed.invitation, { now: at(1) }) };
    }

    it('resolves to the invited application only', async () => {
      const { invitation, session } = await invited(t.db);
      expect(await resolveSession(t.db, session.sid, at(2))).toEqual({
        sid: session.sid,
        kind: 'client',
        role: 'client',
        invitationId: invitation.id,
        applicationId: 'ciappl_abc123',
        businessId: 'biz_42',
      });
    });

    it('is refused at once when the invitation is revoked', async () => {
      const { invitation, session } = await invited(t.db);
      // Revoked directly in the table: the per-request check refuses by itself.
      await t.db.query('UPDATE invitations SET revoked_at = $2 WHERE id = $1', [invitation.id, at(2)]);
      expect(await resolveSession(t.db, session.sid, at(2))).toBeNull();
    });

    it('revokeInvitation ends the client sessions opened with it', async () => {
      const { invitation, session } = await invited(t.db);
      await revokeInvitation(t.db, invitation.id, at(2));
      const row = await t.db.one<{ revoked_at: Date | null }>('SELECT revoked_at FROM sessions WHERE id = $1', [session.sid]);
      expect(row?.revoked_at).toEqual(at(2));
      expect(await resolveSession(t.db, session.sid, at(2))).toBeNull();
    });

    it('never outlives its invitation', async () => {
      const { session } = await invited(t.db, 1);
      expect(session.absoluteExpiresAt).toEqual(at(60));
      expect(await resolveSession(t.db, session.sid, at(30))).not.toBeNull();
      expect(await resolveSession(t.db, session.sid, at(59))).not.toBeNull();
      expect(await resolveSession(t.db, session.sid, at(60))).toBeNull();
    });

    it('is refused when the invitation has expired even if the session row says otherwise', async () => {
      const { invitation, session } = await invited(t.db);
      await t.db.query('UPDATE invitations SET expires_at = $2 WHERE id = $1', [invitation.id, at(5)]);
      expect(await resolveSession(t.db, session.sid, at(4))).not.toBeNull();
      expect(await resolveSession(t.db, session.sid, at(6))).toBeNull();
    });
  });
});
