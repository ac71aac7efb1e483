import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WorkspaceBusinessPage } from '@/lib/bff/workspace';
import type { RunningSandbox } from '@/server/sandbox/server';
import { BffClient, bffStack, signedIn } from './support/bff';
import { createBusiness, createDeal } from './support/bff-businesses';
import { allMatches, matchedProject } from './support/projects';
import { KEYS, SandboxClient } from './support/sandbox';

/** The CSV exports over HTTP: what the file holds is what the list shows, in RFC 4180 with a BOM, formulas defused. */

const portal = () => new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full);

async function download(client: BffClient, path: string) {
  const res = await fetch(`${client.base}${path}`, { headers: { Cookie: client.cookieHeader() } });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** RFC 4180 records: quoted fields may hold commas, quotes (doubled) and line breaks; records end in CRLF. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (quoted && c === '"') quoted = false;
    else if (quoted) field += c;
    else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(field === '' && record.length === 0, 'the file ends with CRLF').toBe(true);
  return records;
}

/** The bytes as a spreadsheet reads them: a UTF-8 BOM first, then the records. */
function csvOf(bytes: Buffer) {
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parseCsv(bytes.subarray(3).toString('utf8'));
}

describe('CSV exports', () => {
  it('the businesses table: its search and sort, every row, every script, formulas neutralised', async () => {
    const { client } = await signedIn('staff');
    const token = `csv${randomBytes(4).toString('hex')}`;
    const names = [`${token} Société, "Quoted" Ltd`, `-${token}+1 Ltd`, `@${token} 深圳 مرحبا Ltd`];
    for (const name of names) await createBusiness(client, { name });

    const query = new URLSearchParams({ q: token, sort: 'name', dir: 'desc' });
    const shown = WorkspaceBusinessPage.parse((await client.get(`/api/workspace/businesses?${query}`)).body);
    expect(shown.items).toHaveLength(3);

    const { res, bytes } = await download(client, `/api/workspace/businesses/csv?${query}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
    expect(decodeURIComponent(res.headers.get('content-disposition')!.split("filename*=UTF-8''")[1]!)).toMatch(/^businesses – \d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...rows] = csvOf(bytes);
    expect(header![0]).toBe('Business');
    // Same rows, same order as on screen; a cell that would run as a formula starts with an apostrophe.
    const defuse = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
    expect(rows.map((r) => r[0])).toEqual(shown.items.map((b) => defuse(b.name!)));
    expect(rows.map((r) => r.at(-1))).toEqual(shown.items.map((b) => b.id));
    expect(rows.map((r) => r[0])).toContain(`${token} Société, "Quoted" Ltd`);
    expect(rows.map((r) => r[0])).toContain(`'-${token}+1 Ltd`);
    expect(rows.map((r) => r[0])).toContain(`'@${token} 深圳 مرحبا Ltd`);
  }, 60_000);

  it('the deals list, with the business each deal is for', async () => {
    const { client } = await signedIn('staff');
    const { created } = await createBusiness(client, { name: `Deals CSV ${randomBytes(3).toString('hex')} Ltd` });
    const { deal } = await createDeal(client, { business_id: created.business.id });
    const { res, bytes } = await download(client, '/api/deals/csv');
    expect(res.status).toBe(200);
    const [header, ...rows] = csvOf(bytes);
    expect(header).toEqual(['Deal', 'Business', 'For', 'Stage', 'Status', 'Created at', 'Sample', 'Deal id']);
    const row = rows.find((r) => r.at(-1) === deal.id);
    expect(row?.slice(0, 2)).toEqual([deal.name, created.business.name]);
  }, 60_000);

  it('a project’s matches, filtered as on screen, best first', async () => {
    const { client } = await signedIn('staff');
    const { created } = await createBusiness(client);
    const p = portal();
    const { project } = await matchedProject(p, created.business.id);
    const expected = (await allMatches(p, project.matches_url, 100, 'fit=strong')).items;
    expect(expected.length).toBeGreaterThan(0);

    const { res, bytes } = await download(client, `/api/projects/${project.id}/matches/csv?fit=strong`);
    expect(res.status).toBe(200);
    const [header, ...rows] = csvOf(bytes);
    expect(header!.slice(0, 5)).toEqual(['Funder', 'Product', 'Product kind', 'Score', 'Fit']);
    expect(rows.map((r) => r.at(-1))).toEqual(expected.map((m) => m.id));
    expect(rows.every((r) => r[4] === 'strong')).toBe(true);
    // A filter the list does not take is refused, not ignored.
    expect((await download(client, `/api/projects/${project.id}/matches/csv?fit=perfect`)).res.status).toBe(400);
  }, 90_000);
});
