/* No 'server-only' import: proxy.ts uses this (see request-target.ts). */

/** A fresh, unguessable nonce for one page's scripts (128 random bits, base64). */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The Content-Security-Policy of a page. Scripts run only with this response's nonce (Next.js puts it on its
 * own scripts, read from this header on the request) and what those load ('strict-dynamic'); no inline
 * script without it, no eval outside development. Inline styles stay allowed: a tag's colour swatch is a
 * style attribute, and Next.js's built-in not-found page renders a style element without a nonce. Nothing
 * may frame the app.
 */
export function pageCsp(nonce: string, options: { dev: boolean; https: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/** JSON routes and other non-pages: nothing in them is ever rendered as a document. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Invitation and unsubscribe links carry their token in the path: their replies send no Referer at all. */
const TOKEN_IN_PATH = /^\/(?:invite|unsubscribe|api\/unsubscribe)\//;

/** The headers every reply carries besides its CSP. HSTS only when the app is reached over https. */
export function securityHeaders(options: { https: boolean; pathname: string }): Record<string, string> {
  return {
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    // No other site ever sees a path of ours as a Referer (the invitation link's token above all).
    'Referrer-Policy': TOKEN_IN_PATH.test(options.pathname) ? 'no-referrer' : 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
    ...(options.https ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

/** The headers of a JSON reply the proxy never saw (uploads skip it so their bodies stream): the same as it gives. */
export function apiReplyHeaders(options: { https: boolean; pathname: string }): Record<string, string> {
  return { ...securityHeaders(options), 'Content-Security-Policy': API_CSP };
}
