import { describe, expect, it } from 'vitest';
import { verifyPassword } from '@/server/auth/passwords';
import { createUserSession, resolveSession } from '@/server/auth/sessions';
import {
  createUser,
  DEMO_USERS,
  disableUser,
  enableUser,
  ensureDemoUsers,
  findUserByEmail,
  findUserById,
  InvalidUserError,
  listUsers,
  setUserPassword,
  UserExistsError,
} from '@/server/auth/users';
import { testDrivers, useTestDb } from '@/tests/support/postgres';

describe.each(testDrivers())('users on %s', (driver) => {
  const t = useTestDb(driver);

  it('creates a user with a normalised email and a scrypt hash, never the password', async () => {
    const user = await createUser(t.db, { email: '  Ada@Example.COM ', name: ' Ada Lovelace ', role: 'staff', password: 'analytical-engine' });
    expect(user).toMatchObject({ email: 'ada@example.com', name: 'Ada Lovelace', role: 'staff', disabledAt: null });
    expect(user.id).toMatch(/^usr_[0-9a-f]{24}$/);
    const row = await t.db.one<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [user.id]);
    expect(row!.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(row!.password_hash).not.toContain('analytical-engine');
    expect(await verifyPassword('analytical-engine', row!.password_hash)).toBe(true);
  });

  it('finds users by email whatever the case, and by id', async () => {
    const user = await createUser(t.db, { email: 'grace@example.com', name: 'Grace', role: 'reviewer', password: 'compiler-pioneer' });
    expect(await findUserByEmail(t.db, 'GRACE@example.com')).toEqual(user);
    expect(await findUserById(t.db, user.id)).toEqual(user);
    expect(await findUserByEmail(t.db, 'nobody@example.com')).toBeNull();
  });

  it('refuses a second account for the same mailbox, in any case', async () => {
    await createUser(t.db, { email: 'dup@example.com', name: 'One', role: 'staff', password: 'first-password' });
    await expect(createUser(t.db, { email: 'DUP@example.com', name: 'Two', role: 'staff', password: 'second-password' })).rejects.toBeInstanceOf(
      UserExistsError,
    );
  });

  it('validates email, name, role and password length', async () => {
    const base = { email: 'v@example.com', name: 'V', role: 'staff' as const, password: 'long-enough-password' };
    await expect(createUser(t.db, { ...base, email: 'not-an-email' })).rejects.toBeInstanceOf(InvalidUserError);
    await expect(createUser(t.db, { ...base, name: '   ' })).rejects.toBeInstanceOf(InvalidUserError);
    await expect(createUser(t.db, { ...base, role: 'admin' as unknown as 'staff' })).rejects.toBeInstanceOf(InvalidUserError);
    await expect(createUser(t.db, { ...base, password: 'short' })).rejects.toThrow(/at least 12/);
    expect(await listUsers(t.db)).toEqual([]);
  });

  it('lists users by email', async () => {
    await createUser(t.db, { email: 'b@example.com', name: 'B', role: 'staff', password: 'password-bbbb' });
    await createUser(t.db, { email: 'a@example.com', name: 'A', role: 'reviewer', password: 'password-aaaa' });
    expect((await listUsers(t.db)).map((u) => u.email)).toEqual(['a@example.com', 'b@example.com']);
  });

  it('disables (ending every session) and enables without reviving old sessions', async () => {
    const user = await createUser(t.db, { email: 'd@example.com', name: 'D', role: 'staff', password: 'password-dddd' });
    const { sid } = await createUserSession(t.db, user);
    const now = new Date('2030-01-01T00:00:00Z');
    const disabled = await disableUser(t.db, 'D@example.com', now);
    expect(disabled?.disabledAt).toEqual(now);
    expect(await resolveSession(t.db, sid)).toBeNull();
    const revoked = await t.db.one<{ revoked_at: Date | null }>('SELECT revoked_at FROM sessions WHERE id = $1', [sid]);
    expect(revoked?.revoked_at).toEqual(now);

    expect((await enableUser(t.db, 'd@example.com'))?.disabledAt).toBeNull();
    expect(await resolveSession(t.db, sid)).toBeNull();
    expect(await disableUser(t.db, 'missing@example.com')).toBeNull();
    expect(await enableUser(t.db, 'missing@example.com')).toBeNull();
  });

  it('changes a password and ends the sessions', async () => {
    const user = await createUser(t.db, { email: 'p@example.com', name: 'P', role: 'staff', password: 'old-password-1' });
    const { sid } = await createUserSession(t.db, user);
    await setUserPassword(t.db, 'p@example.com', 'new-password-2');
    expect(await resolveSession(t.db, sid)).toBeNull();
    const row = await t.db.one<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [user.id]);
    expect(await verifyPassword('new-password-2', row!.password_hash)).toBe(true);
  });

  it('seeds the demo users only when absent', async () => {
    expect(DEMO_USERS.map(({ email, name, role }) => ({ email, name, role }))).toEqual([
      { email: 'staff@example.com', name: 'Sam Staff', role: 'staff' },
      { email: 'reviewer@example.com', name: 'Riley Reviewer', role: 'reviewer' },
    ]);
    expect((await ensureDemoUsers(t.db)).map((u) => u.email)).toEqual(['staff@example.com', 'reviewer@example.com']);
    await disableUser(t.db, 'staff@example.com');
    expect(await ensureDemoUsers(t.db)).toEqual([]);
    expect((await findUserByEmail(t.db, 'staff@example.com'))?.disabledAt).not.toBeNull();
    expect(await listUsers(t.db)).toHaveLength(2);
  });

  it('seeding from several instances at once creates each demo user once', async () => {
    await Promise.all([ensureDemoUsers(t.db), ensureDemoUsers(t.db)]);
    expect(await listUsers(t.db)).toHaveLength(2);
  });
});
