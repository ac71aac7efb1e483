import 'server-only';
import { notFound } from 'next/navigation';
import { getRedirectError } from 'next/dist/client/components/redirect';
import { RedirectStatusCode } from 'next/dist/client/components/redirect-status-code';
import { ID_PATTERNS, type IdKind } from '@/lib/portal';
import type { AccountRole, Role } from '@/lib/bff/roles';
import type { ResolvedSession } from '@/server/auth';
import { isPortalError } from '@/server/portal';
import { currentSession } from './current-session';

type UserSession = Extract<ResolvedSession, { kind: 'user' }>;
type ClientSession = Extract<ResolvedSession, { kind: 'client' }>;

/** The session a guarded page gets: narrowed to the roles it lets in. */
export type SessionOf<R extends Role> = R extends 'client' ? ClientSession : R extends AccountRole ? UserSession & { role: R } : never;

export type SearchParams = Record<string, string | string[] | undefined>;

/** The props Next gives a page whose path has the dynamic segments K. */
export interface PageProps<K extends string = never> {
  params: Promise<Record<K, string>>;
  searchParams: Promise<SearchParams>;
}

interface Spec<R extends Role> {
  /** The page's path: a signed-out visitor signs in and comes back to it, with `query`. */
  path: string;
  query?: SearchParams;
  /** Who may see the page. */
  roles: readonly R[];
  /** Where a session of any other role is sent instead; home unless said. */
  othersGoTo?: string;
  /** The intake application the page shows: an invited client reaches its own only. Checked as an application id. */
  application?: string;
  /** Ids from the path (or query), checked against their Portal patterns; undefined ones are skipped. */
  ids?: Partial<Record<IdKind, string | undefined>>;
}

/** A page that lets clients in names the application it shows, so a client never reaches another one. */
export type GuardSpec<R extends Role> = Spec<R> & ('client' extends R ? { application: string } : unknown);

export type PageAccess<R extends Role> = { session: SessionOf<R> } | { redirect: string } | { notFound: true };

/** The sign-in page, sending the person on to `next` afterwards (slashes stay readable in the link). */
export const signInHref = (next: string) => `/sign-in?next=${encodeURIComponent(next).replaceAll('%2F', '/')}`;

function hrefOf(path: string, query: SearchParams = {}) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) for (const one of [value ?? []].flat()) search.append(key, one);
  const s = search.toString();
  return s ? `${path}?${s}` : path;
}

/**
 * Who may see a page, and where the others go: signed out → sign in and come back; a client on another
 * application → not found (indistinguishable from a missing one, as in the API); another role → `othersGoTo`;
 * a malformed id → not found. For route handlers that answer with their own statuses; pages use guardPage.
 */
export async function pageAccess<R extends Role>(spec: GuardSpec<R>): Promise<PageAccess<R>> {
  const session = await currentSession();
  if (!session) return { redirect: signInHref(hrefOf(spec.path, spec.query)) };
  if (spec.application !== undefined && session.kind === 'client' && session.applicationId !== spec.application) return { notFound: true };
  if (!(spec.roles as readonly Role[]).includes(session.role)) return { redirect: spec.othersGoTo ?? '/' };
  const ids = { ...spec.ids, ...(spec.application !== undefined && { application: spec.application }) };
  if (Object.entries(ids).some(([kind, id]) => id !== undefined && !ID_PATTERNS[kind as IdKind].test(id))) return { notFound: true };
  return { session: session as SessionOf<R> };
}

/**
 * Sends the browser elsewhere with 303 See Other: the page is not for this person (or not any more), and the
 * next one is fetched with GET. Next's redirect() would answer 307; the status is decided here because pages
 * decide before anything is streamed (no Suspense boundary above them, no loading.tsx), so the browser gets a
 * real 303 or 404, never a 200 carrying the redirect or the not-found inside the stream.
 */
export function seeOther(path: string): never {
  throw getRedirectError(path, 'replace', RedirectStatusCode.SeeOther);
}

/** The one guard of every signed-in page (see pageAccess): the session, or a 303 or a 404 thrown. */
export async function guardPage<R extends Role>(spec: GuardSpec<R>): Promise<SessionOf<R>> {
  const access = await pageAccess(spec);
  if ('redirect' in access) seeOther(access.redirect);
  if ('notFound' in access) notFound();
  return access.session;
}

/**
 * A Portal read a page is built on, made before the page renders anything: the Portal's 404 is the page's
 * not-found (404); any other failure is thrown, so the page's error boundary shows it with a retry and the
 * response is a 500, never a page that answers 200 and fails afterwards.
 */
export async function readOrNotFound<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (e) {
    if (isPortalError(e) && e.status === 404) notFound();
    throw e;
  }
}
