import { describe, expect, it } from 'vitest';
import { UploadResultView } from '@/lib/bff/businesses';
import { AnswerFilePage } from '@/lib/portal';
import { BffClient, bffDb, bffStack, signedIn } from './support/bff';
import { anotherInstance } from './support/another-instance';
import { createBusiness } from './support/bff-businesses';
import { KEYS } from './support/sandbox';

/*
 * The document slots of a new business live in the app's database, so behind a load
 * balancer any instance takes the upload. Two instances of the app on one PostgreSQL: the business is created
 * through the shared test instance, the document goes to a second one.
 */

const second = anotherInstance({ name: 'slots-b', without: ['WEBHOOK_SECRET'] });

describe('upload slots of a new business', () => {
  it('are taken by another instance than the one that created the business', async () => {
    const { client } = await signedIn('staff');
    const { created } = await createBusiness(client);
    const slot = created.uploads.find((u) => u.multiple)!;
    // The same session on instance B: sessions live in the shared database too.
    const onB = new BffClient(second().url);
    onB.cookies = client.cookies;
    const body = new TextEncoder().encode('%PDF-1.4 sent to another instance');
    const r = await onB.post(`/api/businesses/${created.business.id}/uploads/${slot.id}?filename=statement.pdf`, {
      body,
      headers: { 'Content-Type': 'application/pdf' },
    });
    expect(r.status, r.text).toBe(201);
    expect(UploadResultView.parse((r.body as { upload: unknown }).upload)).toMatchObject({ filename: 'statement.pdf', application_file_count: 1 });

    const res = await fetch(`${bffStack().sandboxBaseUrl}client-intake-applications/${created.application.id}/files/`, {
      headers: { Authorization: `Bearer ${KEYS.full}` },
    });
    expect(AnswerFilePage.parse(await res.json()).items.map((f) => f.filename)).toEqual(['statement.pdf']);
  });

  it('keep the signed URL sealed in the database: no Portal address or token in the row', async () => {
    const { client } = await signedIn('staff');
    const { created } = await createBusiness(client);
    const rows = await (await bffDb()).query<{ upload_id: string; sealed_url: string }>(
      'SELECT upload_id, sealed_url FROM upload_slots WHERE business_id = $1 ORDER BY upload_id',
      [created.business.id],
    );
    expect(rows.map((r) => r.upload_id)).toEqual(created.uploads.map((u) => u.id).sort());
    const portalHost = new URL(bffStack().sandboxBaseUrl).host;
    for (const { sealed_url } of rows) {
      expect(sealed_url).not.toContain(portalHost);
      expect(sealed_url).not.toMatch(/token=|\/transfers\//);
    }
  });

  it('are gone once expired, on every instance', async () => {
    const { client } = await signedIn('staff');
    const { created } = await createBusiness(client);
    const slot = created.uploads[0]!;
    await (await bffDb()).query("UPDATE upload_slots SET expires_at = now() - interval '1 second' WHERE business_id = $1", [created.business.id]);
    const file = { body: new TextEncoder().encode('%PDF-1.4 late'), headers: { 'Content-Type': 'application/pdf' } };
    for (const base of [bffStack().url, second().url]) {
      const browser = new BffClient(base);
      browser.cookies = client.cookies;
      expect((await browser.post(`/api/businesses/${created.business.id}/uploads/${slot.id}?filename=a.pdf`, file)).status).toBe(404);
    }
  });
});
