import { describe, expect, it } from 'vitest';
import { AnswersWriteResult } from '@/lib/bff/applications';
import { FormSnapshotView } from '@/lib/bff/form-snapshot';
import { HistoryPageView } from '@/lib/bff/history';
import type { RunningSandbox } from '@/server/sandbox/server';
import { mustWriteAnswers, w } from './support/applications';
import { bffStack, clientSessionFor, signedIn, stackApplication, type BffClient } from './support/bff';
import { KEYS, SandboxClient } from './support/sandbox';

/*
 * The history of answers through HTTP against the stack: who changed a value and how, from a staff member's
 * write, the invited client's, and a write made straight to the Portal (outside the app).
 */

const portal = () => new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full);
const history = (appId: string, query = '') => `/api/applications/${appId}/answers/history${query}`;
const legalName = '?schema_key=legal_name&field_key=value';

async function save(client: BffClient, appId: string, value: string, schemaKey = 'legal_name') {
  const form = FormSnapshotView.parse((await client.get(`/api/applications/${appId}/form`)).body);
  const r = await client.patch(`/api/applications/${appId}/answers`, {
    ifMatch: form.answers.etag,
    body: { answers_revision: form.answers.answers_revision, answers: [w(schemaKey, value)] },
  });
  expect(r.status, r.text).toBe(200);
  return AnswersWriteResult.parse(r.body).answers_revision;
}

async function historyPage(client: BffClient, appId: string, query: string) {
  const r = await client.get(history(appId, query));
  expect(r.status, r.text).toBe(200);
  return HistoryPageView.parse(r.body);
}

describe('answer history through the BFF', () => {
  it('names each change: staff by name, the client, and a change made outside the app, newest first', async () => {
    const { client: staff } = await signedIn('staff');
    const appId = await stackApplication('History Test Ltd');
    const first = await save(staff, appId, 'History One Ltd');
    await save(staff, appId, 'History Two Ltd');
    const client = await clientSessionFor(appId);
    await save(client, appId, 'History Three Ltd');
    await mustWriteAnswers(portal(), appId, [w('legal_name', 'History Four Ltd')]);
    // The BFF learns of the outside write when it next reads the answers.
    expect((await staff.get(`/api/applications/${appId}/answers?page_size=500`)).status).toBe(200);

    const page = await historyPage(staff, appId, legalName);
    expect(page.entries.map((e) => [e.old.value, e.new_value, e.by.kind, e.by.name])).toEqual([
      ['History Three Ltd', 'History Four Ltd', 'outside', null],
      ['History Two Ltd', 'History Three Ltd', 'client', null],
      ['History One Ltd', 'History Two Ltd', 'staff', 'Test staff'],
      [null, 'History One Ltd', 'staff', 'Test staff'],
    ]);
    expect(page.entries.every((e) => e.old.known && !Number.isNaN(Date.parse(e.at)))).toBe(true);
    expect(page.entries.at(-1)!.answers_revision).toBe(first);
    expect(page.next_before).toBeNull();

    // The client reads its own application's history; pages go back with `before`.
    const newest = await historyPage(client, appId, `${legalName}&limit=1`);
    expect(newest.entries.map((e) => e.new_value)).toEqual(['History Four Ltd']);
    const older = await historyPage(client, appId, `${legalName}&limit=2&before=${newest.next_before}`);
    expect(older.entries.map((e) => e.new_value)).toEqual(['History Three Ltd', 'History Two Ltd']);
    // The whole application's history, and another field's (empty).
    expect((await historyPage(staff, appId, '')).entries.length).toBeGreaterThanOrEqual(4);
    expect((await historyPage(staff, appId, '?schema_key=trading_name&field_key=value')).entries).toEqual([]);

    // A choice is written as the form shows it: by its option's label, not its stored code.
    await save(staff, appId, 'llp', 'company_type');

    // The application's timeline page says the same in sentences, with the invitation the client came by.
    const timeline = await staff.get(`/applications/${appId}/timeline`, { headers: { Accept: 'text/html' } });
    expect(timeline.status).toBe(200);
    const text = timeline.text.replace(/<!-- -->/g, '');
    for (const line of [
      'Someone outside this app (in the Portal) changed “Legal business name”',
      'The client changed “Legal business name”',
      'Test staff changed “Legal business name”',
      'invited the client to complete the application',
      'Test staff changed “Type of business” from “<span class="timeline-value">(empty)</span>”',
      'to “<span class="timeline-value">LLP</span>”',
    ]) {
      expect(text).toContain(line);
    }
    expect(text.indexOf('Someone outside this app')).toBeLessThan(text.indexOf('The client changed'));
  });

  it('refuses a field without its question and another application to the client', async () => {
    const { client: staff } = await signedIn('staff');
    const appId = await stackApplication('History Refusals Ltd');
    const other = await stackApplication('History Other Ltd');
    expect((await staff.get(history(appId, '?field_key=value'))).status).toBe(400);
    expect((await staff.get(history(appId, '?item_id=item_x'))).status).toBe(400);
    expect((await staff.get(history(appId, '?limit=1000'))).status).toBe(400);
    const client = await clientSessionFor(appId);
    expect((await client.get(history(other))).status).toBe(404);
  });
});
