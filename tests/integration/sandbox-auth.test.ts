import { describe, expect, it } from 'vitest';
import { ApiRoot, BusinessPage, BusinessStatusResult, PERMISSIONS, type Permission } from '@/lib/portal';
import { DEMO_KEYS, type ApiKeyDef } from '@/server/sandbox/keys';
import { createBusiness } from './support/businesses';
import { KEYS, SandboxClient, expectError, newKey, setupSandbox } from './support/sandbox';

/** One key per permission, each holding only that permission. */
const tokenOf = (p: Permission) => `pk_test_perm_${p.replace(':', '_')}`;
const PERMISSION_KEYS: ApiKeyDef[] = PERMISSIONS.map((p) => ({
  id: `key_perm_${p.replace(':', '_')}`,
  token: tokenOf(p),
  kind: 'portal',
  environment: 'test',
  permissions: [p],
  channel_slugs: [],
  label: `Only ${p}`,
}));

/** Permissions that include another one (spec §5 rule 6: write includes read within the same row). */
const IMPLIES: Partial<Record<Permission, Permission>> = {
  'businesses:write': 'businesses:read',
  'applications:write': 'applications:read',
  'deals:write': 'deals:read',
};
const grants = (held: Permission, needed: Permission) => held === needed || IMPLIES[held] === needed;

interface Endpoint {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  /** Any one is sufficient. */
  needs: Permission[];
  body?: unknown;
  /** The status and code a permitted call gets (the requests are built to stop right after the permission check for writes). */
  permitted: [number, string | null];
}

const BIZ = 'biz_harbourcafe';
const APP = 'ciappl_harbourcafe';
const ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: 'businesses/', needs: ['businesses:read'], permitted: [200, null] },
  // No Idempotency-Key: a permitted key gets 400 naming the header, nothing is created.
  { method: 'POST', path: 'businesses/', needs: ['businesses:write', 'leads:submit'], body: { name: 'Matrix Ltd' }, permitted: [400, 'invalid_request'] },
  { method: 'GET', path: `businesses/${BIZ}/status/`, needs: ['businesses:read'], permitted: [200, null] },
  { method: 'POST', path: `businesses/${BIZ}/stage-transitions/`, needs: ['businesses:write'], body: { stage_id: 'bstg_qualifying' }, permitted: [400, 'invalid_request'] },
  { method: 'GET', path: `businesses/${BIZ}/people/`, needs: ['people:read'], permitted: [200, null] },
  { method: 'GET', path: 'business-pipelines/', needs: ['businesses:read'], permitted: [200, null] },
  { method: 'GET', path: 'business-pipelines/bpipe_onboarding/stages/', needs: ['businesses:read'], permitted: [200, null] },
  { method: 'GET', path: `client-intake-applications/${APP}/`, needs: ['applications:read'], permitted: [200, null] },
  { method: 'GET', path: `client-intake-applications/${APP}/contract/`, needs: ['applications:read'], permitted: [200, null] },
  { method: 'GET', path: `client-intake-applications/${APP}/answers/`, needs: ['applications:read'], permitted: [200, null] },
  { method: 'GET', path: `client-intake-applications/${APP}/files/`, needs: ['applications:read'], permitted: [200, null] },
  // No If-Match: a permitted key gets 428, nothing is written.
  { method: 'PATCH', path: `client-intake-applications/${APP}/answers/`, needs: ['applications:write'], body: { answers_revision: 0, answers: [] }, permitted: [428, 'precondition_required'] },
  // No Idempotency-Key: 400.
  { method: 'POST', path: `client-intake-applications/${APP}/submit/`, needs: ['applications:write'], permitted: [400, 'invalid_request'] },
  // An invalid body: 422, no credential issued.
  { method: 'POST', path: `client-intake-applications/${APP}/file-uploads/`, needs: ['applications:write'], body: {}, permitted: [422, 'validation_failed'] },
];

describe('authentication (test environment)', () => {
  const ctx = setupSandbox();

  it('refuses a request without Authorization with 401 and the error body', async () => {
    const res = await ctx.client.get('businesses/', { key: null });
    const err = expectError(res, 401, 'unauthenticated');
    expect(err.details).toEqual([{ code: 'invalid_api_key', message: err.message, parameter: 'Authorization' }]);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="portal"');
    expect(res.headers.get('request-id')).toMatch(/^req_[0-9a-f]{24}$/);
  });

  it.each([
    ['a non-Bearer scheme', `Basic ${Buffer.from('user:pass').toString('base64')}`],
    ['the key without a scheme', KEYS.full],
    ['Bearer without a key', 'Bearer'],
    ['two tokens', `Bearer ${KEYS.full} extra`],
  ])('refuses a malformed Authorization header (%s)', async (_label, header) => {
    const res = await ctx.client.get('', { key: null, headers: { Authorization: header } });
    const err = expectError(res, 401, 'unauthenticated');
    expect(err.message).toBe('The Authorization header must be "Bearer <API key>".');
  });

  it('refuses an unknown key, and a known key with one character changed', async () => {
    for (const key of ['pk_test_nope', `${KEYS.full.slice(0, -1)}x`]) {
      const err = expectError(await ctx.client.get('', { key }), 401, 'unauthenticated');
      expect(err.message).toBe('The API key is not valid.');
    }
  });

  it('refuses a live key against the test sandbox', async () => {
    const err = expectError(await ctx.client.get('', { key: KEYS.live }), 401, 'unauthenticated');
    expect(err.message).toBe('A live key cannot authenticate against the test environment.');
  });

  it('accepts the scheme case-insensitively', async () => {
    const res = await ctx.client.get('', { key: null, headers: { Authorization: `bearer ${KEYS.full}` } });
    expect(res.status).toBe(200);
    expect(ApiRoot.parse(res.body).key.id).toBe('key_demofull');
  });

  it('checks authentication before routing: an unknown path without a key is 401, with a key 404', async () => {
    expectError(await ctx.client.get('no-such-thing/', { key: null }), 401, 'unauthenticated');
    expectError(await ctx.client.get('no-such-thing/'), 404, 'not_found');
  });
});

describe('authentication (live environment)', () => {
  const ctx = setupSandbox({ environment: 'live' });

  it('accepts the live key and reports the live environment', async () => {
    const { data } = await ctx.client.read(ApiRoot, '', { key: KEYS.live });
    expect(data.environment).toBe('live');
    expect(data.key.id).toBe('key_demolive');
    const { data: page } = await ctx.client.read(BusinessPage, 'businesses/', { key: KEYS.live });
    expect(page.items.length).toBe(13);
  });

  it('refuses every test key', async () => {
    for (const key of [KEYS.full, KEYS.source, KEYS.readonly]) {
      const err = expectError(await ctx.client.get('', { key }), 401, 'unauthenticated');
      expect(err.message).toBe('A test key cannot authenticate against the live environment.');
    }
  });
});

describe('permissions', () => {
  const ctx = setupSandbox({ keys: [...DEMO_KEYS, ...PERMISSION_KEYS] });

  it('reports exactly the key’s own permissions at the API root', async () => {
    for (const p of PERMISSIONS) {
      const { data } = await ctx.client.read(ApiRoot, '', { key: tokenOf(p) });
      expect(data.key).toEqual({ id: `key_perm_${p.replace(':', '_')}`, kind: 'portal', permissions: [p], channel_slugs: [] });
    }
  });

  for (const ep of ENDPOINTS) {
    it(`${ep.method} ${ep.path} needs ${ep.needs.join(' or ')}`, async () => {
      for (const held of PERMISSIONS) {
        const res = await ctx.client.call(ep.method, ep.path, { key: tokenOf(held), body: ep.body });
        const allowed = ep.needs.some((n) => grants(held, n));
        if (!allowed) {
          const err = expectError(res, 403, 'forbidden');
          expect(err.details).toEqual([{ code: 'missing_permission', message: `Requires ${ep.needs.join(' or ')}.` }]);
          continue;
        }
        const [status, code] = ep.permitted;
        if (code) expectError(res, status, code);
        else expect(res.status, `${held} on ${ep.method} ${ep.path}: ${res.text}`).toBe(status);
      }
    });
  }

  it('lets every key read the API root and its OpenAPI description', async () => {
    for (const p of PERMISSIONS) {
      expect((await ctx.client.get('', { key: tokenOf(p) })).status).toBe(200);
      expect((await ctx.client.get('openapi.json', { key: tokenOf(p) })).status).toBe(200);
    }
  });

  it('lets businesses:write list businesses and read a status (write includes read in its row)', async () => {
    const key = tokenOf('businesses:write');
    const { data } = await ctx.client.read(BusinessPage, 'businesses/', { key });
    expect(data.items.map((b) => b.id)).toContain(BIZ);
    const { data: status } = await ctx.client.read(BusinessStatusResult, `businesses/${BIZ}/status/`, { key });
    expect(status.business.id).toBe(BIZ);
    // … but not the people of a business: people:read is another row.
    expectError(await ctx.client.get(`businesses/${BIZ}/people/`, { key }), 403, 'forbidden');
  });

  it('lets a businesses:write key create a business, and the read-only key not', async () => {
    const { data } = await createBusiness(ctx.client, { name: 'Written By Write Key' }, tokenOf('businesses:write'));
    expect(data.business.name).toBe('Written By Write Key');
    const res = await ctx.client.post('businesses/', { key: KEYS.readonly, body: { name: 'Nope' }, idempotencyKey: newKey() });
    expectError(res, 403, 'forbidden');
  });
});

describe('the source key (leads:submit, write-only)', () => {
  const ctx = setupSandbox();
  const source = () => new SandboxClient(ctx.running, KEYS.source);

  it('shows its channel slugs at the API root', async () => {
    const { data } = await source().read(ApiRoot, '');
    expect(data).toEqual({
      object: 'api_root',
      portal: { id: 'portal_demo', name: 'Northwind Capital (demo)' },
      environment: 'test',
      key: { id: 'key_demosource', kind: 'source', permissions: ['leads:submit'], channel_slugs: ['partner-web', 'broker-network'] },
    });
  });

  it('creates a business with one of its channel slugs, then cannot read it', async () => {
    const { data } = await createBusiness(source(), { name: 'Lead From Partner', source_channel_id: 'partner-web' });
    expect(data.business.name).toBe('Lead From Partner');
    expectError(await source().get(`businesses/${data.business.id}/status/`), 403, 'forbidden');
    expectError(await source().get(`businesses/${data.business.id}/`), 403, 'forbidden');
    expectError(await source().get(`businesses/${data.business.id}/people/`), 403, 'forbidden');
    expectError(await source().get('businesses/'), 403, 'forbidden');
    expectError(await source().get(data.application.url), 403, 'forbidden');
    const stage = await source().post(`businesses/${data.business.id}/stage-transitions/`, {
      body: { stage_id: 'bstg_qualifying' },
      ifMatch: '"business-x-0"',
      idempotencyKey: newKey(),
    });
    expectError(stage, 403, 'forbidden');
    // The full key sees it.
    const { data: status } = await ctx.client.read(BusinessStatusResult, `businesses/${data.business.id}/status/`);
    expect(status.business.name).toBe('Lead From Partner');
  });

  it('requires source_channel_id', async () => {
    const res = await source().post('businesses/', { body: { name: 'No Channel' }, idempotencyKey: newKey() });
    const err = expectError(res, 422, 'validation_failed');
    expect(err.details).toEqual([
      { code: 'required', message: 'source_channel_id is required; one of: partner-web, broker-network.', parameter: 'source_channel_id' },
    ]);
  });

  it('refuses a channel slug outside its own (even one the Portal has)', async () => {
    for (const slug of ['events-2026', 'nope']) {
      const res = await source().post('businesses/', { body: { name: 'Wrong Channel', source_channel_id: slug }, idempotencyKey: newKey() });
      const err = expectError(res, 422, 'validation_failed');
      expect(err.details[0]).toMatchObject({ code: 'invalid_channel', parameter: 'source_channel_id' });
    }
  });

  it('lets a portal key name any of the Portal’s channels, and no other', async () => {
    const { data } = await createBusiness(ctx.client, { name: 'Event Lead', source_channel_id: 'events-2026' });
    expect(data.business.name).toBe('Event Lead');
    const res = await ctx.client.post('businesses/', { body: { name: 'X', source_channel_id: 'nope' }, idempotencyKey: newKey() });
    expect(expectError(res, 422, 'validation_failed').details[0]?.parameter).toBe('source_channel_id');
  });
});
