import 'server-only';

const SAME = 'http://same-origin.invalid';

/**
 * Where to send someone after signing in, from a `next` the link carried: a path on this site only, so a crafted
 * link cannot send them elsewhere, and written as a URL writes it (non-ASCII and controls percent-encoded), so it
 * fits a Location header whatever the link held (`/%E3%80%82/evil` is `/。/evil` once decoded: a 500 when it went
 * into the header as it was). Anything else is home.
 */
export function nextPath(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/')) return '/';
  let url: URL;
  try {
    url = new URL(next, SAME);
  } catch {
    return '/';
  }
  // `//evil.example`, `/\evil.example` and `/<tab>/evil.example` all parse to another origin.
  if (url.origin !== SAME) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}
