import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AnswerPage, ApplicationContract } from '@/lib/portal';
import { contractCache, readContract } from '@/server/applications/contract-cache';
import { portalRequest, portalRevalidate } from '@/server/portal';
import type { RunningSandbox } from '@/server/sandbox/server';
import { loopbackServer } from './support/loopback';
import { portalCapture } from './support/portal-capture';

/* Conditional GETs through the Portal client (portalRevalidate) and the contract cache over them. */

const SENTINEL = 'SENTINEL-revalidate-key-0a1b2c3d4e5f';
const capture = portalCapture(SENTINEL, 'portal-revalidate-test-session-secret-0123456789');
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await capture.start('Sentinel key of the revalidation tests');
  capture.configure(sandbox.baseUrl);
});

afterAll(() => capture.stop());

const contractUrl = (id: string) => `${sandbox.baseUrl}client-intake-applications/${id}/contract/`;

describe('portalRevalidate', () => {
  it('gets a 304 as not-modified while the ETag holds, and the full reply once it moved', async () => {
    const first = await portalRequest({ url: contractUrl('ciappl_harbourcafe'), schema: ApplicationContract });
    expect(first.etag).toMatch(/^(W\/)?"/);
    const same = await portalRevalidate({ url: contractUrl('ciappl_harbourcafe'), schema: ApplicationContract, ifNoneMatch: first.etag! });
    expect(same).toMatchObject({ notModified: true, data: undefined, status: 304, etag: first.etag });
    expect(same.requestId).toMatch(/^req_/);

    const moved = await portalRevalidate({ url: contractUrl('ciappl_harbourcafe'), schema: ApplicationContract, ifNoneMatch: '"not-the-current-one"' });
    expect(moved.notModified).toBeFalsy();
    if (moved.notModified) throw new Error('expected a full reply');
    expect(moved.status).toBe(200);
    expect(moved.data.contract_version).toBe(first.data.contract_version);

    const logged = capture.lines.map((l) => JSON.parse(l) as { msg: string; status: number }).filter((l) => l.msg === 'portal request');
    expect(logged.map((l) => l.status).slice(-3)).toEqual([200, 304, 200]);
  });

  it('refuses a malformed ETag and a method other than GET before sending anything', async () => {
    await expect(portalRevalidate({ url: contractUrl('ciappl_harbourcafe'), schema: ApplicationContract, ifNoneMatch: 'unquoted' })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(
      portalRevalidate({ method: 'POST' as 'GET', url: contractUrl('ciappl_harbourcafe'), schema: ApplicationContract, ifNoneMatch: '"x"' }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('still treats a 304 to an unconditional request as a redirect it does not follow', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = await loopbackServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(304, { ETag: '"x"', 'Request-Id': 'req_scripted_304' });
      res.end();
    });
    const base = server.baseUrl;
    try {
      capture.configure(base);
      await expect(portalRequest({ url: `${base}thing/`, schema: z.unknown() })).rejects.toMatchObject({ code: 'upstream_redirect' });
      expect(seen[0]!['if-none-match']).toBeUndefined();
      const ok = await portalRevalidate({ url: `${base}thing/`, schema: z.unknown(), ifNoneMatch: '"x"' });
      expect(ok.notModified).toBe(true);
      expect(seen[1]!['if-none-match']).toBe('"x"');
    } finally {
      capture.configure(sandbox.baseUrl);
      await server.close();
    }
  });
});

describe('the contract cache against the sandbox', () => {
  it('reads, revalidates to a 304, and still to a 304 after an answer write (the ETag names contract_version only)', async () => {
    const url = contractUrl('ciappl_greenleaf');
    contractCache.forget(url);
    const first = await readContract(url, { maxAgeMs: 0 });
    expect(first.upstream).toBe('fetched');
    expect((await readContract(url)).upstream).toBe('none');
    const again = await readContract(url, { maxAgeMs: 0 });
    expect(again).toMatchObject({ upstream: 'not_modified', etag: first.etag });
    expect(again.contract).toBe(first.contract);

    const answers = await portalRequest({ url: first.contract.operations.read_answers_url, schema: AnswerPage, query: { page_size: 500 } });
    const field = answers.data.items.find((i) => i.value_type === 'string' && i.allowed_values.length === 0)!;
    await portalRequest({
      method: 'PATCH',
      url: first.contract.operations.update_answers_url,
      schema: z.unknown(),
      ifMatch: answers.etag!,
      body: {
        answers_revision: answers.data.answers_revision,
        answers: [{ block_key: field.block_key, schema_key: field.schema_key, field_key: field.field_key, value: 'Moved Ltd' }],
      },
    });
    const after = await readContract(url, { maxAgeMs: 0 });
    expect(after).toMatchObject({ upstream: 'not_modified', etag: first.etag });
    // The kept copy's answers_revision is the one it was read with: callers take the revision from answers.
    expect(after.contract.answers_revision).toBe(first.contract.answers_revision);
  });
});
