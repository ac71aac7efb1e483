import { NextResponse, type NextRequest } from 'next/server';
import { getEnv } from '@/server/env/get-env';
import { clientAddress } from '@/server/http/client-address';
import { plainPage } from '@/server/http/plain-page';
import { markProxied } from '@/server/http/proxy-mark';
import { malformedTarget, rawTarget, targetRefusalBody, unheldBody, type MalformedTarget } from '@/server/http/request-target';
import { API_CSP, newNonce, pageCsp, securityHeaders } from '@/server/http/security-headers';
import { clip, log } from '@/server/log';

/*
 * Runs before every route and page (Next.js 16's proxy, formerly middleware) but one kind of request, an
 * upload (see the matcher): refuses a request target the framework cannot decode and a body it would hold
 * in memory and cut, names the client's address as far as TRUSTED_PROXY_HOPS vouch for it, and gives every
 * reply its security headers (a nonce-based CSP for pages).
 */

const isApi = (pathname: string) => pathname === '/api' || pathname.startsWith('/api/');

function refuse(request: NextRequest, bad: MalformedTarget, headers: Record<string, string>) {
  const { pathname } = request.nextUrl;
  // The raw path as sent (still percent-encoded, so no control character reaches the log), never headers.
  log.warn('malformed request refused', { method: request.method, path: clip(rawTarget(request.url)), parameter: bad.parameter });
  // JSON for the API and for any client that does not ask for a page (a browser's navigation always does).
  if (isApi(pathname) || !(request.headers.get('accept') ?? '').includes('text/html')) {
    return NextResponse.json(targetRefusalBody(bad), { status: 400, headers: { ...headers, 'Content-Security-Policy': API_CSP, 'Cache-Control': 'private, no-store' } });
  }
  const page = plainPage(
    {
      title: 'Bad request',
      heading: 'This address is not valid',
      paragraphs: ['Part of the address is malformed, so the page cannot be shown. Check the link you followed, or start again from the home page.'],
      links: [{ href: '/', label: 'Go to the home page' }],
    },
    newNonce(),
  );
  return new NextResponse(page.html, {
    status: 400,
    headers: { ...headers, 'Content-Security-Policy': page.csp, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

export function proxy(request: NextRequest) {
  const env = getEnv();
  const https = env.appOrigin?.startsWith('https:') || request.nextUrl.protocol === 'https:';
  const headers = securityHeaders({ https, pathname: request.nextUrl.pathname });
  const bad = malformedTarget(rawTarget(request.url)) ?? unheldBody(request.headers);
  if (bad) return refuse(request, bad, headers);

  const forwarded = new Headers(request.headers);
  // The client's address as far as trusted proxies vouch for it (TRUSTED_PROXY_HOPS); with none, the header the
  // client sent goes and the server puts the socket's address in its place. Routes read it through
  // clientAddressOf(), which believes it only on a request stamped below.
  const client = env.trustedProxyHops === 0 ? null : clientAddress(request.headers.get('x-forwarded-for'), env.trustedProxyHops);
  forwarded.delete('x-forwarded-for');
  forwarded.delete('x-real-ip');
  if (client) forwarded.set('x-forwarded-for', client);
  markProxied(forwarded);

  let csp = API_CSP;
  if (!isApi(request.nextUrl.pathname)) {
    csp = pageCsp(newNonce(), { dev: process.env.NODE_ENV === 'development', https });
    // Next.js reads the nonce from the request's CSP and puts it on the scripts it renders.
    forwarded.set('content-security-policy', csp);
  }
  const response = NextResponse.next({ request: { headers: forwarded } });
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  response.headers.set('Content-Security-Policy', csp);
  return response;
}

/*
 * Every request but the build's static files (hashed, immutable, served by Next.js itself) meets the proxy,
 * whatever it carries, except an upload: a request naming its file in X-Filename to one of the four upload
 * routes, with well-formed ids in its path. With a proxy in front, Next.js holds a request body in memory and
 * cuts it at 10 MB, while an upload streams to the Portal as it arrives, once the route wrapper has checked
 * the session and CSRF. The wrapper does the proxy's part for such a request (passedProxy): the target, the
 * headers, the address. tests/unit/proxy-matcher.test.ts holds these paths to the routes that stream.
 */
export const config = {
  matcher: [
    {
      source:
        '/((?!_next/static|_next/image|api/applications/[A-Za-z0-9_-]+/files$|api/deal-applications/[A-Za-z0-9_-]+/files$|api/applications/[A-Za-z0-9_-]+/autofill/preparation/files$|api/businesses/[A-Za-z0-9_-]+/uploads/[A-Za-z0-9_-]+$).*)',
    },
    // The upload routes themselves, for any request that names no file (their GETs, a body sent otherwise).
    { source: '/api/applications/:id/files', missing: [{ type: 'header', key: 'x-filename' }] },
    { source: '/api/deal-applications/:id/files', missing: [{ type: 'header', key: 'x-filename' }] },
    { source: '/api/applications/:id/autofill/preparation/files', missing: [{ type: 'header', key: 'x-filename' }] },
    { source: '/api/businesses/:id/uploads/:upload', missing: [{ type: 'header', key: 'x-filename' }] },
  ],
};
