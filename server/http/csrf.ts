import 'server-only';
import { AppError } from './app-error';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for every non-GET (uploads too): a custom header a cross-site form cannot send without a
 * CORS preflight we never allow, plus Origin / Sec-Fetch-Site checks against the app's own origin.
 */
export function checkCsrf(req: Request, appOrigin: string) {
  if (SAFE.has(req.method)) return;
  if (req.headers.get('x-csrf') !== '1') {
    throw new AppError('csrf_failed', 'This request must carry the X-CSRF: 1 header.');
  }
  const site = req.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin') {
    throw new AppError('csrf_failed', `Cross-site requests are refused (Sec-Fetch-Site: ${site}).`);
  }
  const origin = req.headers.get('origin');
  if (origin !== null && origin !== appOrigin) {
    throw new AppError('csrf_failed', 'Requests from another origin are refused.');
  }
}

/** The app's public origin: APP_ORIGIN when configured, else the origin the request was addressed to. */
export function requestOrigin(req: Request, configured: string | null) {
  if (configured) return configured;
  const host = req.headers.get('host');
  const proto = req.headers.get('x-forwarded-proto') ?? new URL(req.url).protocol.replace(':', '');
  return host ? `${proto}://${host}` : new URL(req.url).origin;
}
