import { describe, expect, it } from 'vitest';
import { createUser } from '@/server/auth/users';
import type { Db } from '@/server/db/types';
import { hashInvitationToken } from '@/server/invitations/invitation-token';
import { createInvitation, findInvitation, InvalidInvitationError, listInvitations, revokeInvitation } from '@/server/invitations/invitations';
import { redeemInvitation } from '@/server/invitations/redeem-invitation';
import { testDrivers, useTestDb } from '@/tests/support/postgres';

const T0 = new Date('2030-05-01T08:00:00Z');
const hours = (h: number) => new Date(T0.getTime() + h * 3_600_000);

async function creatorId(db: Db): Promise<string> {
  return (await createUser(db, { email: 'staff@example.com', name: 'Sam', role: 'staff', password: 'staff-password-1' })).id;
}

describe.each(testDrivers())('invitations on %s', (driver) => {
  const t = useTestDb(driver);

  it('creates an invitation for one application and one client, valid 168 hours by default', async () => {
    const createdBy = await creatorId(t.db);
    const { invitation, token } = await createInvitation(
      t.db,
      { applicationId: 'ciappl_a1', businessId: 'biz_1', clientEmail: ' Client@Example.com ', clientName: 'Casey Client', createdBy },
      T0,
    );
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(invitation).toEqual({
      id: expect.stringMatching(/^inv_[0-9a-f]{24}$/),
      applicationId: 'ciappl_a1',
      businessId: 'biz_1',
      clientEmail: 'client@example.com',
      clientName: 'Casey Client',
      createdBy,
      createdAt: T0,
      expiresAt: hours(168),
      revokedAt: null,
      firstUsedAt: null,
      lastUsedAt: null,
      useCount: 0,
      // By default the client sends the application for review rather than submitting it.
      clientSubmits: false,
    });
    expect(await findInvitation(t.db, invitation.id)).toEqual(invitation);
  });

  it('stores only the SHA-256 of the token: the raw token is nowhere in the database', async () => {
    const { invitation, token } = await createInvitation(t.db, { applicationId: 'ciappl_a1', createdBy: await creatorId(t.db) }, T0);
    const row = await t.db.one<{ token_hash: string }>('SELECT token_hash FROM invitations WHERE id = $1', [invitation.id]);
    expect(row?.token_hash).toBe(hashInvitationToken(token));
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    // Every column of every table, as text.
    const tables = await t.db.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`);
    for (const { tablename } of tables) {
      const dump = await t.db.query<{ row: string }>(`SELECT row_to_json(x)::text AS row FROM ${tablename} x`);
      for (const { row: text } of dump) expect(text).not.toContain(token);
    }
  });

  it('redeems a token, counting each use', async () => {
    const { invitation, token } = await createInvitation(t.db, { applicationId: 'ciappl_a1', createdBy: await creatorId(t.db) }, T0);
    const first = await redeemInvitation(t.db, token, hours(1));
    expect(first).toEqual({ ok: true, invitation: { ...invitation, firstUsedAt: hours(1), lastUsedAt: hours(1), useCount: 1 } });
    const second = await redeemInvitation(t.db, token, hours(2));
    expect(second).toMatchObject({ ok: true, invitation: { firstUsedAt: hours(1), lastUsedAt: hours(2), useCount: 2 } });
  });

  it('refuses unknown and malformed tokens', async () => {
    await createInvitation(t.db, { applicationId: 'ciappl_a1', createdBy: await creatorId(t.db) }, T0);
    expect(await redeemInvitation(t.db, 'B'.repeat(43), T0)).toEqual({ ok: false, reason: 'unknown' });
    expect(await redeemInvitation(t.db, 'short', T0)).toEqual({ ok: false, reason: 'unknown' });
    expect(await redeemInvitation(t.db, '', T0)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('expires after its lifetime', async () => {
    const { invitation, token } = await createInvitation(t.db, { applicationId: 'ciappl_a1', createdBy: await creatorId(t.db), ttlHours: 2 }, T0);
    expect(await redeemInvitation(t.db, token, hours(1.99))).toMatchObject({ ok: true });
    expect(await redeemInvitation(t.db, token, hours(2))).toEqual({ ok: false, reason: 'expired' });
    expect((await findInvitation(t.db, invitation.id))?.useCount).toBe(1);
  });

  it('revokes (idempotently) and then refuses the token', async () => {
    const { invitation, token } = await createInvitation(t.db, { applicationId: 'ciappl_a1', createdBy: await creatorId(t.db) }, T0);
    expect((await revokeInvitation(t.db, invitation.id, hours(1)))?.revokedAt).toEqual(hours(1));
    expect((await revokeInvitation(t.db, invitation.id, hours(2)))?.revokedAt).toEqual(hours(1));
    expect(await redeemInvitation(t.db, token, hours(3))).toEqual({ ok: false, reason: 'revoked' });
    expect(await revokeInvitation(t.db, 'inv_missing', hours(1))).toBeNull();
  });

  it('lists an application’s invitations newest first with status and use', async () => {
    const createdBy = await creatorId(t.db);
    const active = await createInvitation(t.db, { applicationId: 'ciappl_a1', createdBy, clientName: 'Active' }, hours(2));
    const expired = await createInvitation(t.db, { applicationId: 'ciappl_a1', createdBy, clientName: 'Expired', ttlHours: 1 }, hours(1));
    const revoked = await createInvitation(t.db, { applicationId: 'ciappl_a1', createdBy, clientName: 'Revoked' }, hours(0));
    await createInvitation(t.db, { applicationId: 'ciappl_other', createdBy }, hours(3));
    await redeemInvitation(t.db, active.token, hours(2.5));
    await revokeInvitation(t.db, revoked.invitation.id, hours(2.5));

    const list = await listInvitations(t.db, 'ciappl_a1', hours(3));
    expect(list.map((i) => [i.clientName, i.status, i.useCount])).toEqual([
      ['Active', 'active', 1],
      ['Expired', 'expired', 0],
      ['Revoked', 'revoked', 0],
    ]);
    expect(list[0]?.id).toBe(active.invitation.id);
    expect(list[1]?.id).toBe(expired.invitation.id);
    expect(await listInvitations(t.db, 'ciappl_none', hours(3))).toEqual([]);
  });

  it('validates its input', async () => {
    const createdBy = await creatorId(t.db);
    await expect(createInvitation(t.db, { applicationId: '', createdBy })).rejects.toBeInstanceOf(InvalidInvitationError);
    await expect(createInvitation(t.db, { applicationId: 'ciappl_a1', createdBy, clientEmail: 'nope' })).rejects.toBeInstanceOf(InvalidInvitationError);
    await expect(createInvitation(t.db, { applicationId: 'ciappl_a1', createdBy, ttlHours: 0 })).rejects.toBeInstanceOf(InvalidInvitationError);
    await expect(createInvitation(t.db, { applicationId: 'ciappl_a1', createdBy, ttlHours: 24 * 365 })).rejects.toBeInstanceOf(InvalidInvitationError);
    // The creator must exist.
    await expect(createInvitation(t.db, { applicationId: 'ciappl_a1', createdBy: 'usr_missing' })).rejects.toMatchObject({ code: '23503' });
  });
});
