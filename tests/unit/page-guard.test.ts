import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResolvedSession } from '@/server/auth';
import { pageAccess, signInHref } from '@/server/http/page-guard';

/*
 * The page guard's decisions, one session at a time (the browser tests drive it through real pages):
 * who gets the page, who signs in and comes back, who is sent elsewhere, who finds nothing.
 */

let session: ResolvedSession | null = null;
vi.mock('@/server/http/current-session', () => ({ currentSession: async () => session }));

const staff: ResolvedSession = { sid: 's', kind: 'user', role: 'staff', userId: 'u1', userEmail: 's@example.test', userName: 'S' };
const reviewer: ResolvedSession = { ...staff, role: 'reviewer' };
const client: ResolvedSession = { sid: 'c', kind: 'client', role: 'client', invitationId: 'i1', applicationId: 'ciappl_own', businessId: null };

const applicationPage = (application: string) =>
  ({ path: `/applications/${application}`, roles: ['staff', 'reviewer', 'client'], application }) as const;
const reviewPage = (application: string) =>
  ({ path: `/applications/${application}/review`, roles: ['staff', 'reviewer'], othersGoTo: `/applications/${application}/autofill`, application }) as const;
const staffPage = (dealId: string) => ({ path: `/deals/${dealId}`, roles: ['staff'], ids: { deal: dealId } }) as const;

beforeEach(() => {
  session = null;
});

describe('pageAccess', () => {
  it('sends the signed out to sign in, coming back to the page with its query', async () => {
    expect(await pageAccess({ path: '/businesses', roles: ['staff'] })).toEqual({ redirect: '/sign-in?next=/businesses' });
    expect(await pageAccess({ path: '/deals', query: { business_id: 'biz_a', cursor: ['x&y'], none: undefined }, roles: ['staff'] })).toEqual({
      redirect: '/sign-in?next=/deals%3Fbusiness_id%3Dbiz_a%26cursor%3Dx%2526y',
    });
    // Before anything else: a malformed id tells the signed out nothing either.
    expect(await pageAccess(staffPage('nope'))).toEqual({ redirect: '/sign-in?next=/deals/nope' });
  });

  it('lets in the roles a page names, with the session', async () => {
    for (const s of [staff, reviewer, client]) {
      session = s;
      expect(await pageAccess(applicationPage('ciappl_own'))).toEqual({ session: s });
    }
    session = staff;
    expect(await pageAccess(staffPage('deal_a'))).toEqual({ session: staff });
  });

  it('sends other roles home, or where the page says', async () => {
    session = reviewer;
    expect(await pageAccess(staffPage('deal_a'))).toEqual({ redirect: '/' });
    // A reviewer on a staff page hears nothing about the id: the role is decided first.
    expect(await pageAccess(staffPage('nope'))).toEqual({ redirect: '/' });
    session = client;
    expect(await pageAccess(staffPage('deal_a'))).toEqual({ redirect: '/' });
    expect(await pageAccess(reviewPage('ciappl_own'))).toEqual({ redirect: '/applications/ciappl_own/autofill' });
  });

  it('finds nothing for a client on another application, before its role is considered', async () => {
    session = client;
    expect(await pageAccess(applicationPage('ciappl_other'))).toEqual({ notFound: true });
    expect(await pageAccess(reviewPage('ciappl_other'))).toEqual({ notFound: true });
    expect(await pageAccess(applicationPage('not-an-id'))).toEqual({ notFound: true });
  });

  it('finds nothing for a malformed id, and skips the ids a page does not have', async () => {
    session = staff;
    expect(await pageAccess(applicationPage('ciappl_UPPER'))).toEqual({ notFound: true });
    expect(await pageAccess(reviewPage('x'))).toEqual({ notFound: true });
    expect(await pageAccess(staffPage('deal_'))).toEqual({ notFound: true });
    expect(await pageAccess({ path: '/deals', roles: ['staff'], ids: { business: 'harbourcafe' } })).toEqual({ notFound: true });
    expect(await pageAccess({ path: '/deals', roles: ['staff'], ids: { business: undefined } })).toEqual({ session: staff });
  });
});

describe('signInHref', () => {
  it('keeps slashes readable and encodes the rest of the way back', () => {
    expect(signInHref('/businesses/new')).toBe('/sign-in?next=/businesses/new');
    expect(new URLSearchParams(signInHref('/deals?business_id=biz_a&cursor=c').split('?')[1]).get('next')).toBe('/deals?business_id=biz_a&cursor=c');
  });
});
