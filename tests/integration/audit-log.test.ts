import { describe, expect, it } from 'vitest';
import { listAudit, recordAudit, type AuditEntry } from '@/server/audit/audit-log';
import { testDrivers, useTestDb } from '@/tests/support/postgres';

const T0 = new Date('2030-06-01T10:00:00Z');

function entry(n: number, applicationId: string | null = 'ciappl_a1'): AuditEntry {
  return {
    actorKind: n % 2 ? 'invitation' : 'user',
    actorId: n % 2 ? 'inv_1' : 'usr_1',
    actorLabel: n % 2 ? 'client@example.com' : 'staff@example.com',
    operation: 'answers.update',
    objectType: 'client_intake_application',
    objectId: applicationId,
    applicationId,
    upstreamRequestId: `req_${n}`,
    outcome: n % 3 ? 'success' : 'failure',
    status: n % 3 ? 200 : 412,
    detail: { n, fields: ['company_name'] },
    // Several entries share a timestamp: paging must still neither skip nor repeat any.
    at: new Date(T0.getTime() + Math.floor(n / 2) * 1000),
  };
}

describe.each(testDrivers())('audit log on %s', (driver) => {
  const t = useTestDb(driver);

  it('records an entry and returns it with its id', async () => {
    const record = await recordAudit(t.db, entry(1));
    expect(record).toEqual({
      id: 1,
      at: T0,
      actorKind: 'invitation',
      actorId: 'inv_1',
      actorLabel: 'client@example.com',
      operation: 'answers.update',
      objectType: 'client_intake_application',
      objectId: 'ciappl_a1',
      applicationId: 'ciappl_a1',
      upstreamRequestId: 'req_1',
      outcome: 'success',
      status: 200,
      detail: { n: 1, fields: ['company_name'] },
    });
  });

  it('stores optional fields as null', async () => {
    const record = await recordAudit(t.db, {
      actorKind: 'user',
      actorId: 'usr_1',
      actorLabel: 'staff@example.com',
      operation: 'business.create',
      objectType: 'business',
      outcome: 'failure',
      status: 502,
    });
    expect(record).toMatchObject({ objectId: null, applicationId: null, upstreamRequestId: null, detail: null });
    expect(record.at).toBeInstanceOf(Date);
  });

  it('lists one application newest first, paged by id', async () => {
    for (let n = 1; n <= 7; n++) {
      await recordAudit(t.db, entry(n));
      await recordAudit(t.db, entry(n, 'ciappl_other'));
    }
    const seen: number[] = [];
    let before: number | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof listAudit>> = await listAudit(t.db, 'ciappl_a1', { limit: 3, before });
      expect(page.items.length).toBeLessThanOrEqual(3);
      for (const item of page.items) {
        expect(item.applicationId).toBe('ciappl_a1');
        seen.push((item.detail as { n: number }).n);
      }
      before = page.nextBefore;
      pages++;
    } while (before !== null);
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(pages).toBe(3);
  });

  it('ends with nextBefore null when the last page is exactly full, and clamps the page size', async () => {
    for (let n = 1; n <= 4; n++) await recordAudit(t.db, entry(n));
    const first = await listAudit(t.db, 'ciappl_a1', { limit: 2 });
    const second = await listAudit(t.db, 'ciappl_a1', { limit: 2, before: first.nextBefore });
    expect(second.items).toHaveLength(2);
    expect(second.nextBefore).toBeNull();
    expect((await listAudit(t.db, 'ciappl_a1', { limit: 0 })).items).toHaveLength(1);
    expect((await listAudit(t.db, 'ciappl_a1', { limit: 10_000 })).items).toHaveLength(4);
    expect(await listAudit(t.db, 'ciappl_none')).toEqual({ items: [], nextBefore: null });
  });

  it('replaces an oversized detail with a marker', async () => {
    const record = await recordAudit(t.db, { ...entry(1), detail: { body: 'x'.repeat(20_000) } });
    expect(record.detail).toEqual({ truncated: true, original_chars: 20_011 });
  });
});
