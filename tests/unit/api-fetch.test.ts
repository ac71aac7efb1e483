import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiFetch } from '@/lib/api/api-fetch';
import { ApiError } from '@/lib/api/api-error';

/** The browser's one way to call the BFF: replies are typed, not parsed again, but never taken for data blindly. */

function reply(status: number, body: string, contentType = 'application/json') {
  const fetch = vi.fn(async () => new Response(status === 204 ? null : body, { status, headers: { 'Content-Type': contentType } }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}
afterEach(() => vi.unstubAllGlobals());

const refused = (p: Promise<unknown>) => p.then(() => expect.unreachable('should have thrown'), (e: unknown) => e as ApiError);

describe('apiFetch', () => {
  it('returns the JSON of a success and marks writes with X-CSRF', async () => {
    const fetch = reply(200, '{"ok":true}');
    expect(await apiFetch('/api/x', { method: 'PATCH', body: { a: 1 } })).toEqual({ ok: true });
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.headers).toMatchObject({ 'X-CSRF': '1', 'Content-Type': 'application/json' });
  });

  it('takes an empty success as null', async () => {
    reply(204, '');
    expect(await apiFetch('/api/x', { method: 'DELETE' })).toBeNull();
  });

  it('refuses a success that is not JSON (a proxy’s page), instead of handing it on as data', async () => {
    reply(200, '<html>Sign in to the Wi-Fi</html>', 'text/html');
    const e = await refused(apiFetch('/api/x'));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.code).toBe('unexpected_reply');
  });

  it('carries the BFF’s error code, message, details and request id', async () => {
    reply(422, JSON.stringify({ error: { code: 'validation_failed', message: 'No.', request_id: 'req_1', details: [{ code: 'too_long', message: 'Too long', field_key: 'value' }, 7] } }));
    const e = await refused(apiFetch('/api/x', { method: 'PATCH', body: {} }));
    expect([e.status, e.code, e.message, e.requestId]).toEqual([422, 'validation_failed', 'No.', 'req_1']);
    expect(e.details).toEqual([{ code: 'too_long', message: 'Too long', field_key: 'value' }]);
  });

  it('says "unexpected reply" for a refusal that is not the error shape, and "network error" when nothing answered', async () => {
    reply(502, 'Bad gateway', 'text/plain');
    expect((await refused(apiFetch('/api/x'))).code).toBe('unexpected_reply');
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    expect((await refused(apiFetch('/api/x'))).code).toBe('network_error');
  });
});
