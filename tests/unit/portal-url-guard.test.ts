import { describe, expect, it } from 'vitest';
import { PortalError, isTrustedPortalUrl, trustedPortalUrl } from '@/server/portal';

const BASE = new URL('http://127.0.0.1:4010/v1/');

function refusal(url: string, base = BASE): PortalError {
  try {
    trustedPortalUrl(url, base);
  } catch (e) {
    if (e instanceof PortalError) return e;
    throw e;
  }
  throw new Error(`expected ${url} to be refused`);
}

describe('trustedPortalUrl', () => {
  it.each([
    'http://127.0.0.1:4010/v1/',
    'http://127.0.0.1:4010/v1/businesses/',
    'http://127.0.0.1:4010/v1/client-intake-applications/ciappl_x/contract/',
    'http://127.0.0.1:4010/v1/businesses/?page_size=2&cursor=abc%2Fdef',
    'HTTP://127.0.0.1:4010/v1/businesses/', // scheme and host compare case-insensitively
    'http://127.0.0.1:4010/v1/a/../b/', // normalised, still under /v1/
    'http://127.0.0.1:4010/v1/businesses/#fragment',
  ])('allows %s', (url) => {
    const out = trustedPortalUrl(url, BASE);
    expect(out.origin).toBe(BASE.origin);
    expect(out.pathname.startsWith('/v1/')).toBe(true);
    expect(out.hash).toBe('');
  });

  it('accepts a URL object and returns the normalised URL', () => {
    expect(trustedPortalUrl(new URL('http://127.0.0.1:4010/v1/x/./y/'), BASE).href).toBe('http://127.0.0.1:4010/v1/x/y/');
  });

  it('treats the default port as the same origin', () => {
    const base = new URL('https://portal.example.com/api/v1/');
    expect(isTrustedPortalUrl('https://portal.example.com:443/api/v1/deals/', base)).toBe(true);
    expect(isTrustedPortalUrl('https://portal.example.com:8443/api/v1/deals/', base)).toBe(false);
    expect(isTrustedPortalUrl('https://portal.example.com/v1/deals/', base)).toBe(false);
    expect(isTrustedPortalUrl('https://portal.example.com/api/v1/../v1/deals/', base)).toBe(true);
  });

  it.each([
    ['another origin', 'http://evil.example/v1/businesses/'],
    ['another host name for the same machine', 'http://localhost:4010/v1/businesses/'],
    ['another port', 'http://127.0.0.1:4011/v1/businesses/'],
    ['no port (80)', 'http://127.0.0.1/v1/businesses/'],
    ['another scheme', 'https://127.0.0.1:4010/v1/businesses/'],
    ['a non-http scheme', 'ftp://127.0.0.1:4010/v1/'],
    ['javascript:', 'javascript:alert(1)'],
    ['file:', 'file:///etc/passwd'],
    ['data:', 'data:application/json,{}'],
    ['user info', 'http://user:pass@127.0.0.1:4010/v1/businesses/'],
    ['a user name only', 'http://user@127.0.0.1:4010/v1/businesses/'],
    ['user info hiding the real host', 'http://127.0.0.1:4010@evil.example/v1/'],
    ['a path outside the base', 'http://127.0.0.1:4010/v2/businesses/'],
    ['the sandbox transfer path', 'http://127.0.0.1:4010/transfers/upl_1?token=x'],
    ['the base without its trailing slash', 'http://127.0.0.1:4010/v1'],
    ['a prefix that only looks like the base', 'http://127.0.0.1:4010/v1evil/'],
    ['dot-dot out of the base', 'http://127.0.0.1:4010/v1/../admin/'],
    ['dot-dot deep', 'http://127.0.0.1:4010/v1/a/../../admin/'],
    ['encoded dot-dot', 'http://127.0.0.1:4010/v1/%2e%2e/admin/'],
    ['upper-case encoded dot-dot', 'http://127.0.0.1:4010/v1/%2E%2E/admin/'],
    ['half-encoded dot-dot', 'http://127.0.0.1:4010/v1/.%2e/admin/'],
    ['an encoded slash', 'http://127.0.0.1:4010/v1/..%2fadmin/'],
    ['an encoded backslash', 'http://127.0.0.1:4010/v1/..%5cadmin/'],
    ['double encoding', 'http://127.0.0.1:4010/v1/%252e%252e/admin/'],
    ['an encoded dot inside a segment', 'http://127.0.0.1:4010/v1/businesses/biz%2e1/'],
    ['backslashes', 'http://127.0.0.1:4010\\v1\\businesses\\'],
    ['a backslash traversal', 'http://127.0.0.1:4010/v1/..\\admin/'],
    ['protocol-relative', '//127.0.0.1:4010/v1/businesses/'],
    ['protocol-relative to elsewhere', '//evil.example/v1/'],
    ['a relative path', 'businesses/'],
    ['an absolute path', '/v1/businesses/'],
    ['a tab inside dots', 'http://127.0.0.1:4010/v1/.\t./admin/'],
    ['a newline', 'http://127.0.0.1:4010/v1/\nbusinesses/'],
    ['a space', 'http://127.0.0.1:4010/v1/ businesses/'],
    ['the empty string', ''],
  ])('refuses %s', (_label, url) => {
    const e = refusal(url);
    expect(e.code).toBe('untrusted_url');
    expect(e.status).toBe(502);
    expect(e.message).toMatch(/^Refused to send the API key to /);
    expect(e.message).not.toContain('pass@');
    expect(isTrustedPortalUrl(url, BASE)).toBe(false);
  });

  it('refuses values that are not strings or URLs', () => {
    expect(refusal(42 as unknown as string).code).toBe('untrusted_url');
    expect(refusal(null as unknown as string).code).toBe('untrusted_url');
  });

  it('does not echo a refused URL’s query string or credentials', () => {
    const e = refusal('http://user:s3cretpw@evil.example/v1/x?token=t0psecret');
    expect(e.message).toContain('http://evil.example/v1/x');
    expect(e.message).not.toMatch(/s3cretpw|t0psecret/);
  });
});
