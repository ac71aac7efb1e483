import 'server-only';
import { DEMO_ACCOUNTS } from './demo-users';
import { z } from 'zod';
import { isUniqueViolation } from '@/server/db/errors';
import { newId } from '@/server/db/ids';
import type { Db } from '@/server/db/types';
import { hashPassword, passwordProblem } from './passwords';
import { revokeSessionsForUser } from './sessions';
import { ACCOUNT_ROLES, type AccountRole } from '@/lib/bff/roles';

export interface User {
  id: string;
  email: string;
  name: string;
  role: AccountRole;
  disabledAt: Date | null;
  createdAt: Date;
}

export class UserExistsError extends Error {
  constructor(email: string) {
    super(`a user with email ${email} already exists`);
    this.name = 'UserExistsError';
  }
}

export class InvalidUserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidUserError';
  }
}

interface UserRow {
  id: string;
  email: string;
  name: string;
  role: AccountRole;
  disabled_at: Date | null;
  created_at: Date;
}

const COLUMNS = 'id, email, name, role, disabled_at, created_at';

function toUser(row: UserRow): User {
  return { id: row.id, email: row.email, name: row.name, role: row.role, disabledAt: row.disabled_at, createdAt: row.created_at };
}

/** Emails are compared and stored trimmed and lower-cased: one account per mailbox whatever the typing. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const newUserSchema = z.object({
  email: z.email().max(254),
  name: z.string().trim().min(1).max(200),
  role: z.enum(ACCOUNT_ROLES),
  password: z.string(),
});

export interface NewUser {
  email: string;
  name: string;
  role: AccountRole;
  password: string;
}

export async function createUser(db: Db, input: NewUser, now: Date = new Date()): Promise<User> {
  const parsed = newUserSchema.safeParse({ ...input, email: normalizeEmail(input.email) });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidUserError(`${issue?.path.join('.') ?? 'input'}: ${issue?.message ?? 'invalid'}`);
  }
  const problem = passwordProblem(input.password);
  if (problem) throw new InvalidUserError(`password ${problem}`);
  const { email, name, role } = parsed.data;
  const passwordHash = await hashPassword(input.password);
  try {
    const row = await db.one<UserRow>(
      `INSERT INTO users (id, email, name, role, password_hash, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING ${COLUMNS}`,
      [newId('usr'), email, name, role, passwordHash, now],
    );
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    return toUser(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new UserExistsError(email);
    throw err;
  }
}

export async function findUserByEmail(db: Db, email: string): Promise<User | null> {
  const row = await db.one<UserRow>(`SELECT ${COLUMNS} FROM users WHERE lower(email) = $1`, [normalizeEmail(email)]);
  return row ? toUser(row) : null;
}

export async function findUserById(db: Db, id: string): Promise<User | null> {
  const row = await db.one<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]);
  return row ? toUser(row) : null;
}

/** The user and their password hash, for sign-in only: the hash never leaves server/auth. */
export async function findUserCredentials(db: Db, email: string): Promise<{ user: User; passwordHash: string } | null> {
  const row = await db.one<UserRow & { password_hash: string }>(
    `SELECT ${COLUMNS}, password_hash FROM users WHERE lower(email) = $1`,
    [normalizeEmail(email)],
  );
  return row ? { user: toUser(row), passwordHash: row.password_hash } : null;
}

export async function listUsers(db: Db): Promise<User[]> {
  const rows = await db.query<UserRow>(`SELECT ${COLUMNS} FROM users ORDER BY lower(email)`);
  return rows.map(toUser);
}

/**
 * Disables the account and revokes its sessions in the same transaction. Session checks already refuse
 * a disabled user; revoking as well means enabling the account later does not bring old sessions back.
 * Null when no such user.
 */
export async function disableUser(db: Db, email: string, now: Date = new Date()): Promise<User | null> {
  return db.transaction(async (tx) => {
    const row = await tx.one<UserRow>(
      `UPDATE users SET disabled_at = COALESCE(disabled_at, $2), updated_at = $2 WHERE lower(email) = $1 RETURNING ${COLUMNS}`,
      [normalizeEmail(email), now],
    );
    if (!row) return null;
    await revokeSessionsForUser(tx, row.id, now);
    return toUser(row);
  });
}

export async function enableUser(db: Db, email: string, now: Date = new Date()): Promise<User | null> {
  const row = await db.one<UserRow>(
    `UPDATE users SET disabled_at = NULL, updated_at = $2 WHERE lower(email) = $1 RETURNING ${COLUMNS}`,
    [normalizeEmail(email), now],
  );
  return row ? toUser(row) : null;
}

/** Sets a new password and signs the user out everywhere. Null when no such user. */
export async function setUserPassword(db: Db, email: string, password: string, now: Date = new Date()): Promise<User | null> {
  const problem = passwordProblem(password);
  if (problem) throw new InvalidUserError(`password ${problem}`);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const row = await tx.one<UserRow>(
      `UPDATE users SET password_hash = $2, updated_at = $3 WHERE lower(email) = $1 RETURNING ${COLUMNS}`,
      [normalizeEmail(email), passwordHash, now],
    );
    if (!row) return null;
    await revokeSessionsForUser(tx, row.id, now);
    return toUser(row);
  });
}

/** Accounts for trying the product locally; README and the launcher print them. Never for production. */
export const DEMO_USERS: readonly NewUser[] = DEMO_ACCOUNTS;

/**
 * Creates the demo accounts that are missing; an existing account (even disabled, or with a changed
 * password) is left alone. Returns the accounts created.
 */
export async function ensureDemoUsers(db: Db): Promise<User[]> {
  const created: User[] = [];
  for (const demo of DEMO_USERS) {
    if (await findUserByEmail(db, demo.email)) continue;
    try {
      created.push(await createUser(db, demo));
    } catch (err) {
      // Another instance seeding at the same moment got there first.
      if (!(err instanceof UserExistsError)) throw err;
    }
  }
  return created;
}
