import { NextResponse, type NextRequest } from 'next/server';
import { getEnv } from '@/server/env/get-env';
import { clientAddress } from '@/server/http/client-address';
import { malformedTarget, unheldBody, type MalformedTarget } from '@/server/http/request-target';
import { API_CSP, newNonce, pageCsp, securityHeaders } from '@/server/http/security-headers';
import { log } from '@/server/log';

/*
 * Runs before every route and page (Next.js 16's proxy, formerly middleware): refuses a request target the
 * framework cannot decode, and gives every reply its security headers (a nonce-based CSP for pages).
 */

const isApi = (pathname: string) => pathname === '/api' || pathname.startsWith('/api/');

const ERROR_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bad request · Intake</title></head>
<body><main><h1>This address is not valid</h1>
<p>Part of the address is malformed, so the page cannot be shown. Check the link, or go to the <a href="/">home page</a>.</p></main></body></html>`;

function refuse(request: NextRequest, bad: MalformedTarget, headers: Record<string, string>) {
  const { pathname } = request.nextUrl;
  // The raw path as sent (still percent-encoded, so no control character reaches the log), never headers.
  log.warn('malformed request refused', { method: request.method, path: rawPath(request).slice(0, 200), parameter: bad.parameter });
  // JSON for the API and for any client that does not ask for a page (a browser's navigation always does).
  if (isApi(pathname) || !(request.headers.get('accept') ?? '').includes('text/html')) {
    const body = { error: { code: 'invalid_request', message: bad.message, request_id: null, details: [{ code: bad.code ?? 'malformed_encoding', message: bad.message, parameter: bad.parameter }] } };
    return NextResponse.json(body, { status: 400, headers: { ...headers, 'Content-Security-Policy': API_CSP, 'Cache-Control': 'private, no-store' } });
  }
  return new NextResponse(ERROR_PAGE, {
    status: 400,
    headers: { ...headers, 'Content-Security-Policy': API_CSP, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

/** The path and query as the client sent them (request.url keeps percent-escapes as they came). */
function rawPath(request: NextRequest) {
  const url = request.url;
  const start = url.indexOf('/', url.indexOf('//') + 2);
  return start === -1 ? '/' : url.slice(start);
}

export function proxy(request: NextRequest) {
  const env = getEnv();
  const https = env.appOrigin?.startsWith('https:') || request.nextUrl.protocol === 'https:';
  const headers = securityHeaders({ https, pathname: request.nextUrl.pathname });
  const bad = malformedTarget(rawPath(request)) ?? unheldBody(request.headers);
  if (bad) return refuse(request, bad, headers);

  const forwarded = new Headers(request.headers);
  // The client's address as far as trusted proxies vouch for it (TRUSTED_PROXY_HOPS); with none, the header the
  // client sent goes and the server puts the socket's address in its place.
  const client = env.trustedProxyHops === 0 ? null : clientAddress(request.headers.get('x-forwarded-for'), env.trustedProxyHops);
  forwarded.delete('x-forwarded-for');
  forwarded.delete('x-real-ip');
  if (client) forwarded.set('x-forwarded-for', client);

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

export const config = {
  matcher: [
    {
      // Everything but the build's static files (hashed, immutable, served by Next.js itself) and uploads: with a
      // proxy in front, Next.js holds a request body in memory and cuts it at 10 MB, while an upload streams to
      // the Portal as it arrives. Uploads name their file in X-Filename; the route wrapper gives their replies
      // the same headers, and any other large or streamed body is refused above.
      source: '/((?!_next/static|_next/image).*)',
      missing: [{ type: 'header', key: 'x-filename' }],
    },
  ],
};
