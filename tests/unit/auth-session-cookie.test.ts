import { unsealData } from 'iron-session';
import { describe, expect, it } from 'vitest';
import {
  clearSessionCookie,
  readSessionCookie,
  sessionCookieAttributes,
  writeSessionCookie,
  type SessionCookieAttributes,
} from '@/server/auth/session-cookie';

const SECRET = 'a-test-session-secret-that-is-long-enough-0123456789';
const SID = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

function jar() {
  const cookies = new Map<string, { value: string; options: SessionCookieAttributes }>();
  return {
    cookies,
    get: (name: string) => (cookies.has(name) ? { value: cookies.get(name)!.value } : undefined),
    set: (name: string, value: string, options: SessionCookieAttributes) => void cookies.set(name, { value, options }),
  };
}

describe('session cookie', () => {
  const https = { password: SECRET, appOrigin: 'https://intake.example.com', maxAgeSeconds: 12 * 3600 };
  const http = { password: SECRET, appOrigin: 'http://localhost:3000', maxAgeSeconds: 12 * 3600 };

  it('is __Host- and Secure on an https origin, plain and not Secure on http', () => {
    expect(sessionCookieAttributes(https)).toEqual({
      name: '__Host-intake_session',
      attributes: { httpOnly: true, secure: true, sameSite: 'lax', path: '/', maxAge: 43200 },
    });
    expect(sessionCookieAttributes(http)).toEqual({
      name: 'intake_session',
      attributes: { httpOnly: true, secure: false, sameSite: 'lax', path: '/', maxAge: 43200 },
    });
  });

  it('round-trips the session id, sealing nothing but { sid }', async () => {
    const j = jar();
    await writeSessionCookie(j, SID, https);
    const stored = j.cookies.get('__Host-intake_session')!;
    expect(stored.value).not.toContain(SID);
    expect(await unsealData(stored.value, { password: SECRET })).toEqual({ sid: SID });
    expect(await readSessionCookie(j, https)).toBe(SID);
  });

  it('reads null for a missing, tampered or foreign cookie', async () => {
    const j = jar();
    expect(await readSessionCookie(j, https)).toBeNull();
    await writeSessionCookie(j, SID, https);
    const sealed = j.cookies.get('__Host-intake_session')!.value;
    j.set('__Host-intake_session', `${sealed.slice(0, -4)}AAAA`, sessionCookieAttributes(https).attributes);
    expect(await readSessionCookie(j, https)).toBeNull();
    j.set('__Host-intake_session', 'garbage', sessionCookieAttributes(https).attributes);
    expect(await readSessionCookie(j, https)).toBeNull();
    await writeSessionCookie(j, SID, { ...https, password: `${SECRET}-other` });
    expect(await readSessionCookie(j, https)).toBeNull();
    // The http name is a different cookie: an https deployment ignores it.
    await writeSessionCookie(j, SID, http);
    j.cookies.delete('__Host-intake_session');
    expect(await readSessionCookie(j, https)).toBeNull();
  });

  it('clears the cookie with max-age 0', () => {
    const j = jar();
    clearSessionCookie(j, http);
    expect(j.cookies.get('intake_session')).toEqual({
      value: '',
      options: { httpOnly: true, secure: false, sameSite: 'lax', path: '/', maxAge: 0 },
    });
  });

  it('refuses a SESSION_SECRET shorter than 32 characters', async () => {
    await expect(writeSessionCookie(jar(), SID, { ...https, password: 'too-short' })).rejects.toThrow(/32 characters/);
  });
});
