import { afterEach, describe, expect, it } from 'vitest';
import { AnswersPageView, AnswersWriteResult } from '@/lib/bff/applications';
import { bffStack, signedIn } from './support/bff';
import { createBusiness } from './support/bff-businesses';
import { setSandboxFaults } from './support/sandbox-faults';

/*
 * Writes repeated after a failure, through the BFF as an editor meets it: while the Portal answers some writes with 503 or
 * drops the connection, answer writes through the app still succeed (the Portal client repeats writes guarded
 * by If-Match), so the person sees no error. The faults are confined to this test's own application.
 */

const faults = (body: Record<string, unknown> | null) => setSandboxFaults(bffStack().sandboxOrigin, body);

afterEach(async () => {
  await faults(null);
});

describe('answer writes through the BFF under upstream faults', () => {
  it('all succeed, each applied once, with no error shown', async () => {
    const { client } = await signedIn('staff');
    const { created } = await createBusiness(client);
    const appId = created.application.id;
    const base = `/api/applications/${appId}`;
    const first = AnswersPageView.parse((await client.get(`${base}/answers?page_size=500`)).body);
    const text = first.items.find((i) => i.value_type === 'string' && i.allowed_values.length === 0)!;
    const key = { block_key: text.block_key, schema_key: text.schema_key, field_key: text.field_key };
    // Only the answer writes of this application meet faults (seeded: the same ones on every run).
    await faults({ rate_5xx: 0.25, rate_drop: 0.15, status_5xx: 503, paths: [`client-intake-applications/${appId}/answers/`], seed: 3 });

    let { etag, answers_revision: revision } = first;
    const writes = 12;
    for (let i = 0; i < writes; i++) {
      const r = await client.patch(`${base}/answers`, { ifMatch: etag, body: { answers_revision: revision, answers: [{ ...key, value: `Edit ${i}` }] } });
      expect(r.status, `write ${i}: ${r.text}`).toBe(200);
      const written = AnswersWriteResult.parse(r.body);
      expect(written.answers_revision).toBe(revision + 1);
      ({ etag, answers_revision: revision } = written);
    }
    // The faults did strike; the client's repeats absorbed them.
    const view = (await (await fetch(`${bffStack().sandboxOrigin}/_sandbox/faults`)).json()) as { faults: { counts: Record<string, number> } };
    expect(view.faults.counts.server_errors! + view.faults.counts.dropped!).toBeGreaterThan(0);
    await faults(null);
    const last = AnswersPageView.parse((await client.get(`${base}/answers?page_size=500`)).body);
    expect(last.answers_revision).toBe(first.answers_revision + writes);
    expect(last.items.find((i) => i.schema_key === key.schema_key && i.field_key === key.field_key)?.value).toBe(`Edit ${writes - 1}`);
  });
});
