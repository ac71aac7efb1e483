import 'server-only';

export { hashPassword, verifyPassword, needsRehash, DEFAULT_SCRYPT_PARAMS, type ScryptParams } from './passwords';
export {
  createUser,
  disableUser,
  enableUser,
  ensureDemoUsers,
  findUserByEmail,
  findUserById,
  listUsers,
  setUserPassword,
  normalizeEmail,
  DEMO_USERS,
  InvalidUserError,
  UserExistsError,
  type NewUser,
  type User,
} from './users';
export {
  createClientSession,
  createUserSession,
  isSessionLive,
  resolveSession,
  resolveSessionCached,
  revokeSession,
  revokeSessionsForInvitation,
  revokeSessionsForUser,
  type CreatedSession,
  type ResolvedSession,
} from './sessions';
export { DEFAULT_SESSION_POLICY, SESSION_TOUCH_INTERVAL_MS, type SessionPolicy } from './session-policy';
export {
  clearSessionCookie,
  readSessionCookie,
  sealSessionId,
  sessionCookieAttributes,
  sessionCookieName,
  unsealSessionId,
  writeSessionCookie,
  type CookieReader,
  type CookieWriter,
  type SessionCookieSettings,
} from './session-cookie';
export { signIn, type SignInResult } from './sign-in';
export { SIGN_IN_THROTTLE, SIGN_IN_WINDOW_MS } from './sign-in-throttle';
export { purgeExpiredAuthState } from './housekeeping';
