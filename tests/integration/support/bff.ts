import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import { InvitationCreated } from '@/lib/bff/invitations';
import { BusinessCreateResult } from '@/lib/portal';
import { DEMO_KEYS } from '@/server/sandbox/keys';
import { createClientSession, createUser, sealSessionId, sessionCookieName } from '@/server/auth';
import type { AccountRole } from '@/lib/bff/roles';
import { createDb } from '@/server/db';
import type { Db } from '@/server/db/types';
import { createInvitation } from '@/server/invitations';
import { SENTINEL_SESSION_SECRET, type ProvidedBff } from '../../support/bff-stack';
import { JsonClient, readReply, type Reply } from './json-client';

/** The running BFF stack of this Vitest run (tests/support/global-setup.ts). */
export function bffStack(): ProvidedBff {
  const provided = inject('bff');
  if (!provided || 'error' in provided) throw new Error(`The BFF stack did not start: ${provided?.error ?? 'unknown'}`);
  return provided;
}

let db: Promise<Db> | null = null;
/** The BFF's own database (PostgreSQL, so tests and the server can use it at once). */
export function bffDb(): Promise<Db> {
  db ??= createDb({ url: bffStack().databaseUrl });
  return db;
}
afterAll(async () => {
  const d = await db;
  db = null;
  await d?.close();
});

export type { Reply };

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Leave out the X-CSRF header (to test that writes are refused without it). */
  noCsrf?: boolean;
  ifMatch?: string;
  idempotencyKey?: string;
}

/** A browser stand-in: keeps the session cookie and sends what the app's own fetch wrapper sends. */
export class BffClient extends JsonClient<CallOptions> {
  cookies = new Map<string, string>();
  constructor(readonly base = bffStack().url) {
    super();
  }

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async call<T = unknown>(method: string, path: string, o: CallOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { Accept: 'application/json', ...o.headers };
    if (method !== 'GET' && !o.noCsrf) {
      headers['X-CSRF'] = '1';
      headers.Origin ??= this.base;
    }
    if (this.cookies.size) headers.Cookie = this.cookieHeader();
    if (o.ifMatch) headers['If-Match'] = o.ifMatch;
    if (o.idempotencyKey) headers['Idempotency-Key'] = o.idempotencyKey;
    let body: BodyInit | undefined;
    if (o.body !== undefined) {
      headers['Content-Type'] ??= 'application/json';
      body = typeof o.body === 'string' || o.body instanceof Uint8Array ? (o.body as BodyInit) : JSON.stringify(o.body);
    }
    const res = await fetch(`${this.base}${path}`, { method, headers, body, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i);
      const value = pair!.slice(i + 1);
      if (value === '' || /max-age=0/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return readReply<T>(res);
  }

  async signIn(email: string, password: string) {
    const r = await this.post('/api/auth/sign-in', { body: { email, password } });
    if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${r.text}`);
    return r;
  }
}

/** A fresh account of the given role (its own email, so tests never share throttling or sessions). */
export async function newUser(role: AccountRole) {
  const email = `${role}-${randomBytes(5).toString('hex')}@example.test`;
  const password = `pw-${randomBytes(9).toString('hex')}`;
  const user = await createUser(await bffDb(), { email, name: `Test ${role}`, role, password });
  return { user, email, password };
}

/** A client signed in as a new user of the role. */
export async function signedIn(role: AccountRole) {
  const u = await newUser(role);
  const client = new BffClient();
  await client.signIn(u.email, u.password);
  return { client, ...u };
}

/**
 * A browser holding the invited client's session of one application: an invitation row and the session
 * redemption would make (the server-side record and the sealed cookie the browser would hold).
 */
export async function clientSessionFor(applicationId: string, { clientSubmits = false }: { clientSubmits?: boolean } = {}): Promise<BffClient> {
  const db = await bffDb();
  const { user } = await newUser('staff');
  const { invitation } = await createInvitation(db, { applicationId, createdBy: user.id, clientSubmits });
  const { sid } = await createClientSession(db, invitation);
  const client = new BffClient();
  const seal = await sealSessionId(sid, { password: SENTINEL_SESSION_SECRET, appOrigin: bffStack().url, maxAgeSeconds: 3600 });
  client.cookies.set(sessionCookieName(false), seal);
  return client;
}

/** The whole way a client gets in: staff invite through the BFF, the client's browser opens the link. */
export async function invitedClient(staff: BffClient, applicationId: string) {
  const created = await staff.post(`/api/applications/${applicationId}/invitations`, { body: {} });
  if (created.status !== 201) throw new Error(`invite → ${created.status}: ${created.text}`);
  const { invitation, link } = InvitationCreated.parse(created.body);
  const client = new BffClient();
  const opened = await client.get(new URL(link).pathname, { headers: { Accept: 'text/html' } });
  if (opened.status !== 303 || !client.cookies.size) throw new Error(`opening the invitation link → ${opened.status}: ${opened.text}`);
  return { client, invitationId: invitation.id, link };
}

/** A new business with its own empty application, made in the stack's sandbox directly, so a test shares no state with others. */
export async function stackApplication(name: string): Promise<string> {
  const res = await fetch(`${bffStack().sandboxBaseUrl}businesses/`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token}`, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
    body: JSON.stringify({ name }),
  });
  if (res.status !== 201) throw new Error(`business create → ${res.status}: ${await res.text()}`);
  return BusinessCreateResult.parse(await res.json()).application.id;
}
