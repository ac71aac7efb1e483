import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AnswerFilePage,
  BusinessFileUploadResult,
  BusinessPage,
  BusinessStageTransitionResult,
  BusinessStatusResult,
} from '@/lib/portal';
import { DEMO_KEYS, type ApiKeyDef } from '@/server/sandbox/keys';
import { startSandbox } from '@/server/sandbox/server';
import { createBusiness } from './support/businesses';
import { KEYS, SandboxClient, expectError, newKey, setupSandbox } from './support/sandbox';

const REQUEST_ID = /^req_[0-9a-f]{24}$/;

describe('Request-Id', () => {
  const ctx = setupSandbox();

  it('is on every response, unique, and equals request_id in error bodies', async () => {
    const { data: created, res: createRes } = await createBusiness(ctx.client, {
      name: 'Request Id Ltd',
      contact: { full_name: 'Rita Quest', email: 'rita@request.example' },
    });
    const upload = created.file_uploads.find((u) => u.multiple)!;
    const put = (url: string) =>
      fetch(url, { method: 'PUT', body: 'bytes', headers: { 'Content-Type': 'text/plain', 'Content-Disposition': 'attachment; filename="a.txt"' } });
    const okGet = await ctx.client.get('businesses/');
    const etag = okGet.headers.get('etag')!;
    const responses: Array<[string, Headers, number]> = [];
    const add = (label: string, r: { headers: Headers; status: number }) => responses.push([label, r.headers, r.status]);
    add('GET 200', okGet);
    add('POST 201', createRes);
    add('GET 304', await ctx.client.get('businesses/', { headers: { 'If-None-Match': etag } }));
    add('400', await ctx.client.get('businesses/?nope=1'));
    add('401', await ctx.client.get('businesses/', { key: null }));
    add('403', await ctx.client.get('businesses/', { key: KEYS.source }));
    add('404', await ctx.client.get('nothing/'));
    add('422', await ctx.client.post('businesses/', { body: {}, idempotencyKey: newKey() }));
    add('transfer 201', await put(upload.upload_url));
    add('transfer 403', await put(`${upload.upload_url}x`));
    add('public openapi', await fetch(`${ctx.running.origin}/generated/openapi.json`));
    add('outside /v1/ 404', await fetch(`${ctx.running.origin}/elsewhere`));
    add('invitation page', await fetch(created.invitation_url!));
    expect(responses.map(([label, , status]) => [label, status])).toEqual([
      ['GET 200', 200],
      ['POST 201', 201],
      ['GET 304', 304],
      ['400', 400],
      ['401', 401],
      ['403', 403],
      ['404', 404],
      ['422', 422],
      ['transfer 201', 201],
      ['transfer 403', 403],
      ['public openapi', 200],
      ['outside /v1/ 404', 404],
      ['invitation page', 200],
    ]);
    const ids = responses.map(([label, headers]) => {
      const id = headers.get('request-id');
      expect(id, label).toMatch(REQUEST_ID);
      return id;
    });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('matches request_id of every kind of error body', async () => {
    expectError(await ctx.client.get('businesses/?nope=1'), 400, 'invalid_request');
    expectError(await ctx.client.get('', { key: 'pk_test_unknown' }), 401, 'unauthenticated');
    expectError(await ctx.client.get('businesses/', { key: KEYS.source }), 403, 'forbidden');
    expectError(await ctx.client.get('businesses/biz_nope/status/'), 404, 'not_found');
    expectError(await ctx.client.post('businesses/', { body: { name: '' }, idempotencyKey: newKey() }), 422, 'validation_failed');
    const outside = await fetch(`${ctx.running.origin}/elsewhere`);
    const body = (await outside.json()) as { error: { request_id: string; code: string } };
    expect(body.error).toMatchObject({ code: 'not_found', request_id: outside.headers.get('request-id') });
  });
});

describe('unsupported query parameters', () => {
  const ctx = setupSandbox();

  it.each([
    ['GET', 'businesses/?sort=name'],
    ['GET', 'businesses/?page_size=5&sort=name'],
    ['GET', 'businesses/biz_harbourcafe/status/?sort=name'],
    ['GET', '?sort=name'],
    ['GET', 'openapi.json?sort=name'],
    ['GET', 'business-pipelines/?sort=name'],
    ['GET', 'businesses/biz_harbourcafe/people/?sort=name'],
    ['POST', 'businesses/?sort=name'],
  ])('%s %s → 400 invalid_request naming the parameter', async (method, path) => {
    const res = await ctx.client.call(method, path, method === 'POST' ? { body: { name: 'Query Ltd' }, idempotencyKey: newKey() } : {});
    const err = expectError(res, 400, 'invalid_request');
    expect(err.message).toBe('Unsupported query parameter: sort.');
    expect(err.details).toEqual([expect.objectContaining({ code: 'unsupported_parameter', parameter: 'sort' })]);
  });

  it('creates nothing when a POST is refused for its query', async () => {
    const before = (await ctx.client.read(BusinessPage, 'businesses/?page_size=100')).data.items.length;
    await ctx.client.post('businesses/?dry_run=1', { body: { name: 'Query Ltd' }, idempotencyKey: newKey() });
    expect((await ctx.client.read(BusinessPage, 'businesses/?page_size=100')).data.items.length).toBe(before);
  });

  it('refuses a parameter given twice', async () => {
    const err = expectError(await ctx.client.get('businesses/?page_size=5&page_size=6'), 400, 'invalid_request');
    expect(err.details).toEqual([{ code: 'duplicate_parameter', message: 'page_size is given twice.', parameter: 'page_size' }]);
  });
});

describe('ETag and If-None-Match', () => {
  const ctx = setupSandbox();

  const READS = [
    '',
    'openapi.json',
    'businesses/',
    'businesses/?page_size=3',
    'businesses/biz_harbourcafe/',
    'businesses/biz_harbourcafe/status/',
    'businesses/biz_harbourcafe/people/',
    'business-pipelines/',
    'business-pipelines/bpipe_onboarding/stages/',
    'client-intake-applications/ciappl_harbourcafe/',
    'client-intake-applications/ciappl_harbourcafe/contract/',
    'client-intake-applications/ciappl_harbourcafe/answers/',
    'client-intake-applications/ciappl_harbourcafe/files/',
  ];

  it.each(READS)('GET /v1/%s has an ETag and answers If-None-Match with 304', async (path) => {
    const first = await ctx.client.get(path);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    // A contract's ETag names its contract_version only (DESIGN.md §5): a weak one, equal across answer writes.
    expect(etag).toMatch(path.endsWith('/contract/') ? /^W\/"[^"]+"$/ : /^"[^"]+"$/);
    const opaque = etag!.replace(/^W\//, '');
    // Reads are stable: the same ETag twice.
    expect((await ctx.client.get(path)).headers.get('etag')).toBe(etag);

    for (const header of [etag!, `W/${opaque}`, opaque, `"other", ${etag}`, '*']) {
      const again = await ctx.client.get(path, { headers: { 'If-None-Match': header } });
      expect(again.status, header).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('request-id')).toMatch(REQUEST_ID);
    }
    const other = await ctx.client.get(path, { headers: { 'If-None-Match': '"something-else"' } });
    expect(other.status).toBe(200);
    expect(other.text).toBe(first.text);
  });

  it('gives the public OpenAPI document an ETag too', async () => {
    const r = await fetch(`${ctx.running.origin}/generated/openapi.json`);
    const etag = r.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect((await fetch(`${ctx.running.origin}/generated/openapi.json`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
  });

  it('changes the ETag when the resource changes', async () => {
    const list = await ctx.client.get('businesses/?page_size=100');
    const { data } = await createBusiness(ctx.client, { name: 'Etag Changer Ltd' });
    const after = await ctx.client.get('businesses/?page_size=100', { headers: { 'If-None-Match': list.headers.get('etag')! } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(list.headers.get('etag'));

    const statusPath = `businesses/${data.business.id}/status/`;
    const status = await ctx.client.get(statusPath);
    const move = await ctx.client.post(`businesses/${data.business.id}/stage-transitions/`, {
      body: { stage_id: 'bstg_qualifying' },
      ifMatch: status.headers.get('etag')!,
      idempotencyKey: newKey(),
    });
    BusinessStageTransitionResult.parse(move.body);
    const reread = await ctx.client.get(statusPath, { headers: { 'If-None-Match': status.headers.get('etag')! } });
    expect(reread.status).toBe(200);
    expect(reread.headers.get('etag')).toBe(move.headers.get('etag'));
    expect(BusinessStatusResult.parse(reread.body).business.revision).toBe(1);
  });

  it('does not apply If-None-Match to errors', async () => {
    const r = await ctx.client.get('businesses/biz_nope/status/', { headers: { 'If-None-Match': '*' } });
    expectError(r, 404, 'not_found');
    expect(r.headers.get('etag')).toBeNull();
  });
});

describe('rate limiting (sandbox-wide)', () => {
  const ctx = setupSandbox({ rateLimit: { perSecond: 2, burst: 3 } });

  it('answers 429 with Retry-After once the burst is spent, and recovers after waiting', async () => {
    // The burst of 3 passes (the bucket may refill a little meanwhile), then the key is throttled.
    const statuses: number[] = [];
    let limited = null;
    while (!limited && statuses.length < 20) {
      const r = await ctx.client.get('');
      statuses.push(r.status);
      if (r.status === 429) limited = r;
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.at(-1)).toBe(429);
    const err = expectError(limited!, 429, 'rate_limited');
    const retryAfter = Number(limited!.headers.get('retry-after'));
    expect(retryAfter).toBe(1);
    expect(err.message).toBe('Too many requests for this API key; wait 1 s before retrying.');
    expect(err.details).toEqual([]);

    // Another key has its own bucket.
    expect((await ctx.client.get('', { key: KEYS.readonly })).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    expect((await ctx.client.get('')).status).toBe(200);
  });

  it('throttles commands too, without consuming their Idempotency-Key', async () => {
    const body = { name: 'Throttled Lead', source_channel_id: 'partner-web' };
    let limited: { idem: string; retryAfter: number } | null = null;
    for (let i = 0; i < 20 && !limited; i++) {
      const idem = newKey('throttled');
      const r = await ctx.client.post('businesses/', { body, idempotencyKey: idem, key: KEYS.source });
      if (r.status === 429) {
        expectError(r, 429, 'rate_limited');
        limited = { idem, retryAfter: Number(r.headers.get('retry-after')) };
      } else expect(r.status).toBe(201);
    }
    expect(limited).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, limited!.retryAfter * 1000));
    const retried = await ctx.client.post('businesses/', { body, idempotencyKey: limited!.idem, key: KEYS.source });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('rate limiting (per key)', () => {
  const slow: ApiKeyDef = { ...DEMO_KEYS[0]!, id: 'key_slow', token: 'pk_test_slow', rate_per_second: 1 };
  const free: ApiKeyDef = { ...DEMO_KEYS[0]!, id: 'key_free', token: 'pk_test_free', rate_per_second: null };
  const ctx = setupSandbox({ keys: [...DEMO_KEYS, slow, free], rateLimit: { perSecond: 1, burst: 2 } });

  it('applies a key’s own rate and leaves a null-rate key unthrottled', async () => {
    expect((await ctx.client.get('', { key: slow.token })).status).toBe(200);
    expect((await ctx.client.get('', { key: slow.token })).status).toBe(200);
    const limited = await ctx.client.get('', { key: slow.token });
    expectError(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBe('1');
    const free10 = await Promise.all(Array.from({ length: 10 }, () => ctx.client.get('', { key: free.token })));
    expect(free10.map((r) => r.status)).toEqual(Array(10).fill(200));
  });
});

describe('rate limiting (a key’s own rate with the sandbox-wide limit off)', () => {
  const slow: ApiKeyDef = { ...DEMO_KEYS[0]!, id: 'key_slow', token: 'pk_test_slow', rate_per_second: 1 };
  const ctx = setupSandbox({ keys: [...DEMO_KEYS, slow] });

  it('throttles that key and no other', async () => {
    expect((await ctx.client.get('', { key: slow.token })).status).toBe(200);
    expectError(await ctx.client.get('', { key: slow.token }), 429, 'rate_limited');
    const full = await Promise.all(Array.from({ length: 10 }, () => ctx.client.get('')));
    expect(full.map((r) => r.status)).toEqual(Array(10).fill(200));
  });
});

describe('the data file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps businesses, stages, files and upload credentials across a restart', async () => {
    const dataFile = join(dir, 'nested', 'state.json');
    const first = await startSandbox({ port: 0, rateLimit: null, dataFile });
    const c1 = new SandboxClient(first);
    let created;
    try {
      created = (await createBusiness(c1, { name: 'Persistent Ltd', contact: { full_name: 'Per Sist', email: 'per@sist.example' } })).data;
      const move = await c1.post(`businesses/${created.business.id}/stage-transitions/`, {
        body: { stage_id: 'bstg_qualifying' },
        ifMatch: `"business-${created.business.id}-0"`,
        idempotencyKey: newKey(),
      });
      expect(move.status).toBe(200);
    } finally {
      await first.close();
    }
    const saved = JSON.parse(readFileSync(dataFile, 'utf8')) as { version: number; businesses: Record<string, unknown> };
    expect(saved.version).toBe(1);
    expect(Object.keys(saved.businesses)).toContain(created.business.id);

    const second = await startSandbox({ port: 0, rateLimit: null, dataFile });
    const c2 = new SandboxClient(second);
    try {
      const { data: status } = await c2.read(BusinessStatusResult, `businesses/${created.business.id}/status/`);
      expect(status.business).toMatchObject({ id: created.business.id, name: 'Persistent Ltd', revision: 1 });
      expect(status.business.workflow.stage).toEqual({ id: 'bstg_qualifying', name: 'Qualifying' });
      expect(status.application?.id).toBe(created.application.id);
      const { data: page } = await c2.read(BusinessPage, 'businesses/?page_size=100');
      expect(page.items.at(-1)?.id).toBe(created.business.id);
      expect(page.items).toHaveLength(14);

      // An upload credential issued before the restart still works (its URL now names the new origin).
      const upload = created.file_uploads.find((u) => u.multiple)!;
      const url = `${second.origin}${new URL(upload.upload_url).pathname}${new URL(upload.upload_url).search}`;
      const put = await fetch(url, { method: 'PUT', body: 'kept', headers: { 'Content-Type': 'text/plain', 'Content-Disposition': 'attachment; filename="kept.txt"' } });
      expect(put.status).toBe(201);
      expect(BusinessFileUploadResult.parse(await put.json())).toMatchObject({ filename: 'kept.txt', application_file_count: 1 });

      // New ids do not collide with the restored ones, and new businesses sort after them.
      const { data: another } = await createBusiness(c2, { name: 'After Restart Ltd' });
      expect(another.business.id).not.toBe(created.business.id);
      const { data: after } = await c2.read(BusinessPage, 'businesses/?page_size=100');
      expect(after.items.slice(-2).map((b) => b.id)).toEqual([created.business.id, another.business.id]);
    } finally {
      await second.close();
    }

    // And once more: the file written by the second run holds the upload too.
    const third = await startSandbox({ port: 0, rateLimit: null, dataFile });
    try {
      const { data: files } = await new SandboxClient(third).read(AnswerFilePage, `client-intake-applications/${created.application.id}/files/`);
      expect(files.items.map((f) => f.filename)).toEqual(['kept.txt']);
    } finally {
      await third.close();
    }
  });

  it('keeps Idempotency-Keys for 24 hours across a restart: an identical retry replays, a changed one is refused', async () => {
    const dataFile = join(dir, 'idempotency.json');
    const key = newKey('restart');
    const body = { name: 'Created Once Ltd' };
    const first = await startSandbox({ port: 0, rateLimit: null, dataFile });
    let created;
    try {
      created = await new SandboxClient(first).post('businesses/', { body, idempotencyKey: key });
      expect(created.status).toBe(201);
    } finally {
      await first.close();
    }
    const second = await startSandbox({ port: 0, rateLimit: null, dataFile });
    const c2 = new SandboxClient(second);
    try {
      const again = await c2.post('businesses/', { body, idempotencyKey: key });
      expect(again.status).toBe(201);
      expect(again.body).toEqual(created.body); // the first reply, replayed: no second business
      const { data: page } = await c2.read(BusinessPage, 'businesses/?page_size=100');
      expect(page.items.filter((b) => b.name === 'Created Once Ltd')).toHaveLength(1);
      expectError(await c2.post('businesses/', { body: { name: 'Another Ltd' }, idempotencyKey: key }), 422, 'idempotency_key_reused');
    } finally {
      await second.close();
    }
    // Keys older than 24 hours are not restored.
    const saved = JSON.parse(readFileSync(dataFile, 'utf8')) as { idempotency: Record<string, { at: number }> };
    expect(Object.keys(saved.idempotency)).toHaveLength(1);
    for (const e of Object.values(saved.idempotency)) e.at -= 24 * 60 * 60 * 1000 + 1000;
    writeFileSync(dataFile, JSON.stringify(saved));
    const third = await startSandbox({ port: 0, rateLimit: null, dataFile });
    try {
      const expired = await new SandboxClient(third).post('businesses/', { body, idempotencyKey: key });
      expect(expired.status).toBe(201);
      expect((expired.body as { business: { id: string } }).business.id).not.toBe((created.body as { business: { id: string } }).business.id);
    } finally {
      await third.close();
    }
  });

  it('refuses to start from a corrupt or foreign data file, naming it', async () => {
    const corrupt = join(dir, 'corrupt.json');
    writeFileSync(corrupt, '{"version": 1, "busin');
    await expect(startSandbox({ port: 0, rateLimit: null, dataFile: corrupt })).rejects.toThrow(`${corrupt}: the sandbox data file is not valid JSON`);
    const foreign = join(dir, 'foreign.json');
    writeFileSync(foreign, '{"version": 7}');
    await expect(startSandbox({ port: 0, rateLimit: null, dataFile: foreign })).rejects.toThrow(`${foreign}: unsupported sandbox data version 7`);
  });
});
