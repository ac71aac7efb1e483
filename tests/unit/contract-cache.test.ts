import { describe, expect, it } from 'vitest';
import type { ApplicationContract } from '@/lib/portal';
import { CONTRACT_FRESH_MS, createContractCache, type ContractFetch } from '@/server/applications/contract-cache';

const URL_A = 'https://portal.example/v1/client-intake-applications/ciappl_a/contract/';

/** Only what the cache looks at: it never reads inside a contract. */
const contract = (answersRevision: number) => ({ contract_version: 'v1', answers_revision: answersRevision }) as unknown as ApplicationContract;

/** A scripted upstream: answers 304 while the ETag sent is the current one, else the current contract. */
function upstream() {
  const state = { etag: '"c-1"', contract: contract(1), calls: [] as Array<string | undefined> };
  const fetch: ContractFetch = async (_url, etag) => {
    state.calls.push(etag);
    if (etag === state.etag) return { notModified: true, etag: state.etag, requestId: `req_${state.calls.length}` };
    return { notModified: false, contract: state.contract, etag: state.etag, requestId: `req_${state.calls.length}` };
  };
  return { state, fetch };
}

describe('contract cache', () => {
  it('reads once, reuses the copy within the freshness window, then revalidates with If-None-Match', async () => {
    const up = upstream();
    let now = 1_000_000;
    const cache = createContractCache({ fetch: up.fetch, now: () => now });

    const first = await cache.read(URL_A);
    expect(first).toMatchObject({ upstream: 'fetched', etag: '"c-1"', requestId: 'req_1' });
    expect(up.state.calls).toEqual([undefined]);

    now += CONTRACT_FRESH_MS - 1;
    const reused = await cache.read(URL_A);
    expect(reused).toMatchObject({ upstream: 'none', etag: '"c-1"', requestId: null });
    expect(reused.contract).toBe(first.contract);
    expect(up.state.calls).toHaveLength(1);

    now += 1;
    const revalidated = await cache.read(URL_A);
    expect(revalidated).toMatchObject({ upstream: 'not_modified', etag: '"c-1"', requestId: 'req_2' });
    expect(revalidated.contract).toBe(first.contract);
    expect(up.state.calls).toEqual([undefined, '"c-1"']);

    // The 304 restarted the window.
    now += CONTRACT_FRESH_MS - 1;
    expect((await cache.read(URL_A)).upstream).toBe('none');
  });

  it('always asks with maxAgeMs 0, and takes any kept copy with Infinity', async () => {
    const up = upstream();
    const cache = createContractCache({ fetch: up.fetch, now: () => 0 });
    await cache.read(URL_A, { maxAgeMs: Infinity }); // nothing kept yet: a read
    expect((await cache.read(URL_A, { maxAgeMs: 0 })).upstream).toBe('not_modified');
    expect((await cache.read(URL_A, { maxAgeMs: Infinity })).upstream).toBe('none');
    expect(up.state.calls).toEqual([undefined, '"c-1"']);
  });

  it('replaces the copy when the ETag moved (a 200 to the conditional read)', async () => {
    const up = upstream();
    const cache = createContractCache({ fetch: up.fetch, now: () => 0 });
    await cache.read(URL_A);
    up.state.etag = '"c-2"';
    up.state.contract = contract(2);
    const changed = await cache.read(URL_A, { maxAgeMs: 0 });
    expect(changed).toMatchObject({ upstream: 'fetched', etag: '"c-2"' });
    expect(changed.contract.answers_revision).toBe(2);
    expect(cache.peek(URL_A)?.answers_revision).toBe(2);
    expect((await cache.read(URL_A, { maxAgeMs: 0 })).upstream).toBe('not_modified');
    expect(up.state.calls).toEqual([undefined, '"c-1"', '"c-2"']);
  });

  it('keeps no copy it could not revalidate (no ETag), and is bounded', async () => {
    const calls: string[] = [];
    const fetch: ContractFetch = async (url) => {
      calls.push(url);
      return { notModified: false, contract: contract(0), etag: url.endsWith('no-etag/') ? null : '"e"', requestId: null };
    };
    const cache = createContractCache({ fetch, now: () => 0, max: 2 });
    await cache.read('https://p.example/v1/no-etag/');
    await cache.read('https://p.example/v1/no-etag/');
    expect(calls).toHaveLength(2);
    expect(cache.size).toBe(0);
    for (const n of [1, 2, 3]) await cache.read(`https://p.example/v1/a${n}/`);
    expect(cache.size).toBe(2);
    expect(cache.peek('https://p.example/v1/a1/')).toBeUndefined();
  });

  it('does not let a late 304 replace a newer copy stored meanwhile', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let n = 0;
    const fetch: ContractFetch = async (_url, etag) => {
      n += 1;
      if (etag === undefined) return { notModified: false, contract: contract(1), etag: '"c-1"', requestId: null };
      if (n === 2) {
        await gate; // the slow revalidation
        return { notModified: true, etag: '"c-1"', requestId: null };
      }
      return { notModified: false, contract: contract(3), etag: '"c-3"', requestId: null };
    };
    const cache = createContractCache({ fetch, now: () => 0 });
    await cache.read(URL_A);
    const slow = cache.read(URL_A, { maxAgeMs: 0 });
    await cache.read(URL_A, { maxAgeMs: 0 }); // stores c-3
    release();
    expect((await slow).contract.answers_revision).toBe(1); // the caller gets the copy its 304 confirmed
    expect(cache.peek(URL_A)?.answers_revision).toBe(3); // but the newer copy stays
  });
});
