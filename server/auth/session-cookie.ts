import 'server-only';
import { sealData, unsealData } from 'iron-session';

/**
 * The browser's half of a session: an iron-session seal (encrypted and authenticated with
 * SESSION_SECRET) holding only the session id. Everything else, and every reason to refuse the session,
 * lives in the server-side record (sessions.ts).
 */
export interface SessionCookieSettings {
  /** SESSION_SECRET: at least 32 characters. */
  password: string;
  /** The origin the browser uses for the app, e.g. https://intake.example.com or http://localhost:3000. */
  appOrigin: string;
  /** Cookie and seal lifetime: the absolute session lifetime (the server record enforces it too). */
  maxAgeSeconds: number;
}

/** Next's `cookies()`, NextRequest.cookies and NextResponse.cookies all fit these shapes. */
export interface CookieReader {
  get(name: string): { value: string } | undefined;
}
export interface CookieWriter {
  set(name: string, value: string, options: SessionCookieAttributes): void;
}

export interface SessionCookieAttributes {
  httpOnly: true;
  secure: boolean;
  sameSite: 'lax';
  path: '/';
  maxAge: number;
}

interface SealedSession {
  sid: string;
}

const MIN_PASSWORD_LENGTH = 32;

/**
 * `__Host-` makes the browser insist on Secure, path=/ and no Domain, so no sibling host can plant or
 * read the cookie. Browsers refuse a Secure cookie over plain http, so a local http origin gets the
 * unprefixed name without Secure instead.
 */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-intake_session' : 'intake_session';
}

function isSecureOrigin(appOrigin: string): boolean {
  return new URL(appOrigin).protocol === 'https:';
}

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw new Error(`SESSION_SECRET must be at least ${MIN_PASSWORD_LENGTH} characters`);
}

export function sessionCookieAttributes(settings: SessionCookieSettings): { name: string; attributes: SessionCookieAttributes } {
  const secure = isSecureOrigin(settings.appOrigin);
  return {
    name: sessionCookieName(secure),
    // SameSite=Lax still sends the cookie on a top-level link (the client's invitation email);
    // state-changing requests are guarded separately by X-CSRF and the Origin check.
    attributes: { httpOnly: true, secure, sameSite: 'lax', path: '/', maxAge: settings.maxAgeSeconds },
  };
}

export async function sealSessionId(sid: string, settings: SessionCookieSettings): Promise<string> {
  checkPassword(settings.password);
  const data: SealedSession = { sid };
  return sealData(data, { password: settings.password, ttl: settings.maxAgeSeconds });
}

/** The session id in a seal, or null when the seal is missing, forged, made with another secret or expired. */
export async function unsealSessionId(seal: string | undefined, settings: SessionCookieSettings): Promise<string | null> {
  checkPassword(settings.password);
  if (!seal) return null;
  try {
    const data = await unsealData<Partial<SealedSession>>(seal, { password: settings.password, ttl: settings.maxAgeSeconds });
    return typeof data.sid === 'string' && data.sid.length > 0 ? data.sid : null;
  } catch {
    // Malformed input that iron-session does not classify itself is just as unusable.
    return null;
  }
}

// Unsealing costs most of a millisecond of CPU on every request. Its result depends only on the seal and the
// secret, and every reason to refuse a session is checked against the server record, so seal → id is kept
// for a minute (bounded; an entry only counts for the secret it was unsealed with).
const UNSEALED_TTL_MS = 60_000;
const UNSEALED_MAX = 10_000;
const unsealed = new Map<string, { sid: string | null; until: number; password: string }>();

export async function readSessionCookie(cookies: CookieReader, settings: SessionCookieSettings): Promise<string | null> {
  const { name } = sessionCookieAttributes(settings);
  const seal = cookies.get(name)?.value;
  if (!seal) return null;
  const now = Date.now();
  const hit = unsealed.get(seal);
  if (hit && hit.until > now && hit.password === settings.password) return hit.sid;
  const sid = await unsealSessionId(seal, settings);
  if (unsealed.size >= UNSEALED_MAX) unsealed.delete(unsealed.keys().next().value!);
  unsealed.set(seal, { sid, until: now + UNSEALED_TTL_MS, password: settings.password });
  return sid;
}

export async function writeSessionCookie(cookies: CookieWriter, sid: string, settings: SessionCookieSettings): Promise<void> {
  const { name, attributes } = sessionCookieAttributes(settings);
  cookies.set(name, await sealSessionId(sid, settings), attributes);
}

/** Expires the cookie in the browser (sign-out); revoke the server record as well. */
export function clearSessionCookie(cookies: CookieWriter, settings: Pick<SessionCookieSettings, 'appOrigin'>): void {
  const secure = isSecureOrigin(settings.appOrigin);
  cookies.set(sessionCookieName(secure), '', { httpOnly: true, secure, sameSite: 'lax', path: '/', maxAge: 0 });
}
