import { describe, expect, it } from 'vitest';
import { clientAddress } from '@/server/http/client-address';
import { malformedTarget } from '@/server/http/request-target';
import { API_CSP, pageCsp, securityHeaders } from '@/server/http/security-headers';

describe('malformedTarget', () => {
  it.each([
    ['/api/deals/%ZZ', 'path'],
    ['/applications/%C0%AE', 'path'], // an overlong "." (RFC 3629 forbids it)
    ['/applications/%E0%80', 'path'], // a truncated sequence
    ['/api/deals/%ED%A0%80', 'path'], // an encoded surrogate
    ['/api/deals/%', 'path'],
    ['/api/deals/%00', 'path'],
    ['/api/deals/a%0Ab', 'path'],
    ['/api/deals?business_id=%ZZ', 'business_id'],
    ['/api/deals?%ZZ=1', 'query'],
    ['/api/deals?business_id=a%00', 'business_id'],
  ])('refuses %s, naming %s', (url, parameter) => {
    expect(malformedTarget(url)).toMatchObject({ parameter });
  });

  it.each(['/', '/api/deals/deal_abc', '/api/deals/%20x', '/invite/t%C3%A9st', '/api/deals?business_id=biz_1&page=2', '/a?flag', '/a?q=%E2%82%AC+x'])(
    'lets %s through',
    (url) => {
      expect(malformedTarget(url)).toBeNull();
    },
  );
});

describe('clientAddress', () => {
  it('with no proxy trusted, takes the one address left (the socket’s, filled in by the server)', () => {
    expect(clientAddress('127.0.0.1', 0)).toBe('127.0.0.1');
    expect(clientAddress(null, 0)).toBeNull();
  });

  it('with n proxies trusted, takes the n-th entry from the right: what a client adds on the left is ignored', () => {
    expect(clientAddress('6.6.6.6, 203.0.113.9', 1)).toBe('203.0.113.9');
    expect(clientAddress('6.6.6.6, 203.0.113.9, 10.0.0.2', 2)).toBe('203.0.113.9');
    expect(clientAddress('203.0.113.9', 3)).toBe('203.0.113.9'); // fewer entries than hops: the furthest one
    expect(clientAddress('2001:db8::1', 1)).toBe('2001:db8::1');
  });

  it('refuses what is not shaped like an address', () => {
    expect(clientAddress('<script>', 1)).toBeNull();
    expect(clientAddress('x'.repeat(65), 1)).toBeNull();
  });
});

describe('security headers', () => {
  it('gives pages a nonce-only script policy, no inline or eval scripts, and no framing', () => {
    const csp = pageCsp('bm9uY2U=', { dev: false, https: false });
    expect(csp).toContain("script-src 'self' 'nonce-bm9uY2U=' 'strict-dynamic'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(pageCsp('n', { dev: true, https: true })).toMatch(/'unsafe-eval'.*upgrade-insecure-requests/);
    expect(API_CSP).toMatch(/^default-src 'none'; frame-ancestors 'none'/);
  });

  it('adds HSTS only over https', () => {
    expect(securityHeaders({ https: false, pathname: '/' })).not.toHaveProperty('Strict-Transport-Security');
    expect(securityHeaders({ https: true, pathname: '/' })).toMatchObject({ 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains', 'X-Frame-Options': 'DENY' });
  });

  it('sends no Referer at all from an invitation link, whose token is in its path', () => {
    expect(securityHeaders({ https: false, pathname: '/invite/abc' })['Referrer-Policy']).toBe('no-referrer');
    expect(securityHeaders({ https: false, pathname: '/businesses' })['Referrer-Policy']).toBe('same-origin');
  });
});
