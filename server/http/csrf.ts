import 'server-only';
import { AppError } from './app-error';
import { publicOrigin } from './public-origin';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for every non-GET (uploads too): a custom header a cross-site form cannot send without a
 * CORS preflight we never allow, plus Origin / Sec-Fetch-Site checks against the app's own origin.
 */
export function checkCsrf(req: Request, configured: string | null) {
  if (SAFE.has(req.method)) return;
  if (req.headers.get('x-csrf') !== '1') {
    throw new AppError('csrf_failed', 'This request must carry the X-CSRF: 1 header.');
  }
  const site = req.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin') {
    throw new AppError('csrf_failed', `Cross-site requests are refused (Sec-Fetch-Site: ${site}).`);
  }
  const origin = req.headers.get('origin');
  if (origin !== null && !isOwnOrigin(origin, req, configured)) {
    throw new AppError('csrf_failed', 'Requests from another origin are refused.');
  }
}

/**
 * Whether a request's Origin is the app's own: APP_ORIGIN when configured. Without it (the demo), the app's
 * listening address or the host the request was addressed to (a browser at localhost rather than 127.0.0.1):
 * a cross-site page cannot make a browser send another site's Origin with our Host. This only compares; no link
 * is ever built from the request (publicOrigin).
 */
function isOwnOrigin(origin: string, req: Request, configured: string | null): boolean {
  if (configured) return origin === configured;
  if (origin === publicOrigin()) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin && url.host === req.headers.get('host');
}
