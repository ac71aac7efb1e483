import { beforeAll, describe, expect, it } from 'vitest';
import { BusinessCreateResult, BusinessPage, BusinessStagePage } from '@/lib/portal';
import { expectError, newKey, setupSandbox, type SandboxClient } from './support/sandbox';

const TOTAL = 1_000;
const BATCH = 50;
const PAGE = 37;

/** Creates `count` businesses in parallel batches; returns the batch index of each id (batches run one after another). */
async function createMany(client: SandboxClient, count: number, label: string, batchOf: Map<string, number>, firstBatch = 0) {
  for (let start = 0; start < count; start += BATCH) {
    const batch = firstBatch + start / BATCH;
    const n = Math.min(BATCH, count - start);
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        client.post('businesses/', { body: { name: `${label} ${String(start + i).padStart(4, '0')}` }, idempotencyKey: newKey(label) }),
      ),
    );
    for (const r of results) {
      if (r.status !== 201) throw new Error(`create → ${r.status}: ${r.text}`);
      batchOf.set(BusinessCreateResult.parse(r.body).business.id, batch);
    }
  }
}

const pagePath = (pageSize: number | null, cursor: string | null) => {
  const q = new URLSearchParams();
  if (pageSize !== null) q.set('page_size', String(pageSize));
  if (cursor !== null) q.set('cursor', cursor);
  const qs = q.toString();
  return qs ? `businesses/?${qs}` : 'businesses/';
};

async function page(client: SandboxClient, pageSize: number | null, cursor: string | null) {
  return (await client.read(BusinessPage, pagePath(pageSize, cursor))).data;
}

/** Walks forward from the first page; returns the pages. */
async function walkForward(client: SandboxClient, pageSize: number, between?: (pageIndex: number) => Promise<void>) {
  const pages = [];
  let cursor: string | null = null;
  for (let i = 0; i < 1_000; i++) {
    const p = await page(client, pageSize, cursor);
    pages.push(p);
    if (p.next_cursor === null) return pages;
    cursor = p.next_cursor;
    await between?.(i);
  }
  throw new Error('the walk did not end');
}

describe('paging 1,000+ businesses', () => {
  const ctx = setupSandbox({ seed: 'empty' });
  const batchOf = new Map<string, number>();

  it('starts empty', async () => {
    expect(await page(ctx.client, null, null)).toEqual({ object: 'list', items: [], next_cursor: null, previous_cursor: null });
  });

  describe('with 1,000 businesses', () => {
    let forward: string[] = [];

    beforeAll(async () => {
      await createMany(ctx.client, TOTAL, 'Bulk', batchOf);
    });

    it('walks forward with page_size 37: nothing missed or repeated, creation order', async () => {
      const pages = await walkForward(ctx.client, PAGE);
      expect(pages).toHaveLength(Math.ceil(TOTAL / PAGE));
      pages.forEach((p, i) => {
        const last = i === pages.length - 1;
        expect(p.items).toHaveLength(last ? TOTAL % PAGE || PAGE : PAGE);
        expect(p.previous_cursor === null).toBe(i === 0);
        expect(p.next_cursor === null).toBe(last);
      });
      forward = pages.flatMap((p) => p.items.map((b) => b.id));
      expect(forward).toHaveLength(TOTAL);
      expect(new Set(forward).size).toBe(TOTAL);
      expect(new Set(forward)).toEqual(new Set(batchOf.keys()));
      // Batches ran one after another, so the order keeps them together and in sequence.
      const batches = forward.map((id) => batchOf.get(id)!);
      expect(batches).toEqual([...batches].sort((a, b) => a - b));
      // Every summary is the strict shape with its own URL.
      for (const b of pages[3]!.items) expect(b.url).toBe(`${ctx.client.baseUrl}businesses/${b.id}/`);
    });

    it('keeps the order stable: a second walk gives the same sequence', async () => {
      const again = (await walkForward(ctx.client, PAGE)).flatMap((p) => p.items.map((b) => b.id));
      expect(again).toEqual(forward);
      const big = (await walkForward(ctx.client, 100)).flatMap((p) => p.items.map((b) => b.id));
      expect(big).toEqual(forward);
    });

    it('walks backwards with previous_cursor to the first page', async () => {
      const pages = await walkForward(ctx.client, PAGE);
      const last = pages.at(-1)!;
      const back = [last];
      let cursor = last.previous_cursor;
      while (cursor !== null) {
        const p = await page(ctx.client, PAGE, cursor);
        back.push(p);
        cursor = p.previous_cursor;
      }
      expect(back).toHaveLength(pages.length);
      back.reverse().forEach((p, i) => {
        expect(p.items.map((b) => b.id)).toEqual(pages[i]!.items.map((b) => b.id));
      });
      // The first page reached backwards has a next_cursor that continues forward again.
      expect(back[0]!.previous_cursor).toBeNull();
      expect((await page(ctx.client, PAGE, back[0]!.next_cursor)).items.map((b) => b.id)).toEqual(forward.slice(PAGE, 2 * PAGE));
    });

    it('uses a default page size of 25 and allows 1 and 100', async () => {
      const first = await page(ctx.client, null, null);
      expect(first.items.map((b) => b.id)).toEqual(forward.slice(0, 25));
      const second = await page(ctx.client, 25, first.next_cursor);
      expect(second.items.map((b) => b.id)).toEqual(forward.slice(25, 50));
      expect((await page(ctx.client, 1, null)).items.map((b) => b.id)).toEqual(forward.slice(0, 1));
      expect((await page(ctx.client, 100, null)).items).toHaveLength(100);
    });

    it.each(['0', '101', 'abc', '-1', '2.5', ''])('refuses page_size=%j with 400 naming page_size', async (value) => {
      const err = expectError(await ctx.client.get(`businesses/?page_size=${value}`), 400, 'invalid_request');
      expect(err.details.map((d) => d.parameter)).toEqual(['page_size']);
    });

    it('refuses tampered, foreign and malformed cursors with 400 naming cursor', async () => {
      const first = await page(ctx.client, PAGE, null);
      const cursor = first.next_cursor!;
      const [data, sig] = cursor.split('.') as [string, string];
      const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
      // A payload rewritten to jump ahead, signed with nothing.
      const forged = `${Buffer.from(JSON.stringify(['businesses', 999999, 'next', PAGE])).toString('base64url')}.${sig}`;
      const stages = (await ctx.client.read(BusinessStagePage, 'business-pipelines/bpipe_onboarding/stages/?page_size=2')).data.next_cursor!;
      const bad = [`${data}.${flip(sig, 3)}`, `${flip(data, 5)}.${sig}`, forged, 'abc', `${data}.`, stages];
      for (const c of bad) {
        const err = expectError(await ctx.client.get(pagePath(PAGE, c)), 400, 'invalid_request');
        expect(err.details.map((d) => d.parameter), c).toEqual(['cursor']);
      }
      const empty = expectError(await ctx.client.get('businesses/?cursor='), 400, 'invalid_request');
      expect(empty.details.map((d) => d.parameter)).toEqual(['cursor']);
    });

    it('refuses a cursor with another page_size (including the default)', async () => {
      const first = await page(ctx.client, PAGE, null);
      for (const path of [pagePath(38, first.next_cursor), pagePath(null, first.next_cursor)]) {
        const err = expectError(await ctx.client.get(path), 400, 'invalid_request');
        expect(err.details).toEqual([
          {
            code: 'invalid_parameter',
            message: 'The cursor is not valid for this request: page_size changed while paging; start again from the first page.',
            parameter: 'cursor',
          },
        ]);
      }
    });

    it('does not repeat or miss anything when businesses are created mid-walk', async () => {
      const before = (await walkForward(ctx.client, 100)).flatMap((p) => p.items.map((b) => b.id));
      const added = new Map<string, number>();
      const pages = await walkForward(ctx.client, PAGE, async (i) => {
        if (i === 4 || i === 20) await createMany(ctx.client, 10, `Mid${i}`, added, 1_000 + i);
      });
      const seen = pages.flatMap((p) => p.items.map((b) => b.id));
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toHaveLength(before.length + 20);
      expect(seen.slice(0, before.length)).toEqual(before);
      const tail = seen.slice(before.length);
      expect(new Set(tail)).toEqual(new Set(added.keys()));
      expect(tail.map((id) => added.get(id))).toEqual([...Array(10).fill(1_004), ...Array(10).fill(1_020)]);
    });
  });
});
