import { describe, expect, it } from 'vitest';
import { isAnswered, isVisible } from '@/lib/contract';
import {
  AnswerFilePage,
  AnswerPage,
  AnswersMutationResult,
  ApplicationContract,
  ApplicationEnvelope,
  FileUploadCredential,
  RepeatableItemPage,
  type AnswerValue,
  type RepeatableItem,
} from '@/lib/portal';
import {
  answersEtag,
  appPath,
  freshApplication,
  mustWriteAnswers,
  readAllAnswers,
  readApplication,
  readContract,
  w,
} from './support/applications';
import { KEYS, expectError, newKey, setupSandbox, type SandboxClient } from './support/sandbox';
import { contractOperations } from '../support/contract-operations';

const ctx = setupSandbox();

/**
 * Progress worked out from the public reads alone (contract, answers, items) with lib/contract's visibility:
 * visible required fields at the top level and in every item, plus one requirement per group with min_items > 0
 * (per parent item for nested groups). Used to cross-check the sandbox on the 1,000-field contract.
 */
async function progressFromReads(client: SandboxClient, appId: string) {
  const contract = await readContract(client, appId);
  const top = new Map((await readAllAnswers(client, appId)).items.map((a) => [`${a.schema_key}|${a.field_key}`, a.value]));
  let total = 0;
  let done = 0;
  const count = (questions: typeof contract.questions, lookup: (s: string, f: string) => AnswerValue | undefined) => {
    for (const q of questions) {
      if (!q.is_required || !isVisible(q.visibility, lookup)) continue;
      for (const f of q.fields) {
        if (!f.is_required) continue;
        total += 1;
        if (isAnswered(lookup(q.schema_key, f.field_key))) done += 1;
      }
    }
  };
  count(
    contract.questions.filter((q) => !q.is_repeatable),
    (s, f) => top.get(`${s}|${f}`),
  );
  const itemsOf = new Map<string, RepeatableItem[]>();
  for (const g of contract.repeatable_groups) {
    const { data } = await client.read(RepeatableItemPage, `${contract.operations.repeatable_items_url}${g.block_key}/?page_size=500`);
    expect(data.next_cursor).toBeNull();
    itemsOf.set(g.block_key, data.items);
  }
  const visit = (blockKey: string, parent: RepeatableItem | null, chain: RepeatableItem[]) => {
    const g = contract.repeatable_groups.find((x) => x.block_key === blockKey)!;
    const mine = itemsOf.get(blockKey)!.filter((i) => i.parent_item_id === (parent?.item_id ?? null));
    if ((g.min_items ?? 0) > 0) {
      total += 1;
      if (mine.length >= g.min_items!) done += 1;
    }
    for (const item of mine) {
      const links = [item, ...chain];
      count(
        contract.questions.filter((q) => q.is_repeatable && q.block_key === blockKey),
        (s, f) => {
          for (const it of links) {
            const a = it.answers.find((x) => x.schema_key === s && x.field_key === f);
            if (a) return a.value;
          }
          return top.get(`${s}|${f}`);
        },
      );
      for (const child of contract.repeatable_groups.filter((x) => x.parent_block_key === blockKey)) visit(child.block_key, item, links);
    }
  };
  for (const g of contract.repeatable_groups.filter((x) => x.parent_block_key === null)) visit(g.block_key, null, []);
  return { completed_items: done, total_items: total, percent: total === 0 ? 100 : Math.floor((done * 100) / total) };
}

describe('application read', () => {
  it('returns an empty application (Harbour Street Café) with zero progress and status not_started', async () => {
    const { client } = ctx;
    const res = await client.get(appPath('ciappl_harbourcafe'));
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"app-ciappl_harbourcafe-0-0"');
    const { application: app } = ApplicationEnvelope.parse(res.body);
    const base = client.baseUrl;
    expect(app).toMatchObject({
      id: 'ciappl_harbourcafe',
      object: 'client_intake_application',
      revision: 0,
      answers_revision: 0,
      business: { id: 'biz_harbourcafe', object: 'business', name: 'Harbour Street Café', url: `${base}businesses/biz_harbourcafe/` },
      status: { key: 'not_started', label: 'Not started', updated_at: null },
      progress: { completed_items: 0, total_items: 26, percent: 0 },
      submitted_at: null,
      url: `${base}client-intake-applications/ciappl_harbourcafe/`,
      answers_url: `${base}client-intake-applications/ciappl_harbourcafe/answers/`,
      contract_url: `${base}client-intake-applications/ciappl_harbourcafe/contract/`,
      submit_url: `${base}client-intake-applications/ciappl_harbourcafe/submit/`,
      autofill_preparation_url: `${base}client-intake-applications/ciappl_harbourcafe/autofill-preparation/`,
      autofill_runs_url: `${base}client-intake-applications/ciappl_harbourcafe/autofill-runs/`,
    });
  });

  it('gives the partially filled demo applications their exact progress', async () => {
    const { client } = ctx;
    // Greenleaf answered the business section only: 10 of the 26 requirements of an unregistered business.
    const greenleaf = (await readApplication(client, 'ciappl_greenleaf')).application;
    expect(greenleaf.progress).toEqual({ completed_items: 10, total_items: 26, percent: 38 });
    expect(greenleaf.status?.key).toBe('in_progress');
    expect(greenleaf.status?.updated_at).not.toBeNull();
    expect(greenleaf.submitted_at).toBeNull();
    // Brightpath is a limited company with debt and two owners (one guarantor with an address): declarations are missing.
    const brightpath = await readApplication(client, 'ciappl_brightpath');
    expect(brightpath.application.progress).toEqual({ completed_items: 40, total_items: 44, percent: 90 });
    expect(brightpath.etag).toBe('"app-ciappl_brightpath-0-1"');
  });

  it('shows a submitted application (Meridian) as complete, with status submitted', async () => {
    const { client } = ctx;
    const { etag, application: app } = await readApplication(client, 'ciappl_meridian');
    expect(etag).toBe('"app-ciappl_meridian-1-1"');
    expect(app.progress).toEqual({ completed_items: 61, total_items: 61, percent: 100 });
    expect(app.status).toEqual({ key: 'submitted', label: 'Submitted', updated_at: app.submitted_at });
    expect(app.submitted_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(app.revision).toBe(1);
  });

  it('computes progress of the large-contract application (Atlas) as the public reads imply', async () => {
    const { client } = ctx;
    const { application: app } = await readApplication(client, 'ciappl_atlaslogistics');
    const contract = await readContract(client, 'ciappl_atlaslogistics');
    expect(contract.contract_version).toBe('large-1000-v1');
    const expected = await progressFromReads(client, 'ciappl_atlaslogistics');
    expect(app.progress).toEqual(expected);
    expect(expected.total_items).toBeGreaterThan(200);
    expect(expected.completed_items).toBeGreaterThan(0);
    expect(expected.completed_items).toBeLessThan(expected.total_items);
  });

  it('agrees with the public reads on progress for every demo funding application', async () => {
    const { client } = ctx;
    for (const id of ['ciappl_harbourcafe', 'ciappl_greenleaf', 'ciappl_fairwayvets', 'ciappl_brightpath', 'ciappl_meridian', 'ciappl_bluewave', 'ciappl_stonebridge']) {
      const { application } = await readApplication(client, id);
      expect({ id, progress: application.progress }).toEqual({ id, progress: await progressFromReads(client, id) });
    }
  });

  it('moves answers_revision, status and the ETag when an answer is written', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const before = await readApplication(client, appId);
    expect(before.etag).toBe(`"app-${appId}-0-0"`);
    expect(before.application.status).toEqual({ key: 'not_started', label: 'Not started', updated_at: null });
    await mustWriteAnswers(client, appId, [w('legal_name', 'Etag Movers Ltd')]);
    const after = await readApplication(client, appId);
    expect(after.etag).toBe(`"app-${appId}-0-1"`);
    expect(after.application.revision).toBe(0);
    expect(after.application.answers_revision).toBe(1);
    expect(after.application.status?.key).toBe('in_progress');
    expect(after.application.status?.updated_at).toBe(after.application.updated_at);
    expect(after.application.progress).toEqual({ completed_items: 1, total_items: 26, percent: 3 });
  });

  it('answers 404 for an unknown application and 403 for a key without applications:read', async () => {
    const { client } = ctx;
    expectError(await client.get(appPath('ciappl_doesnotexist')), 404, 'not_found');
    expectError(await client.get(appPath('ciappl_harbourcafe'), { key: KEYS.source }), 403, 'forbidden');
    expectError(await client.get(appPath('ciappl_harbourcafe'), { key: null }), 401, 'unauthenticated');
    const readonly = await client.get(appPath('ciappl_harbourcafe'), { key: KEYS.readonly });
    expect(readonly.status).toBe(200);
  });

  it('refuses unknown query parameters on the application read', async () => {
    const res = await ctx.client.get(`${appPath('ciappl_harbourcafe')}?expand=all`);
    const error = expectError(res, 400, 'invalid_request');
    expect(error.details.map((d) => d.parameter)).toEqual(['expand']);
  });
});

describe('application contract', () => {
  it('parses strictly and describes the funding application', async () => {
    const { client } = ctx;
    const res = await client.get(`${appPath('ciappl_greenleaf')}contract/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('W/"contract-ciappl_greenleaf-funding-intake-2026.11"');
    const contract = ApplicationContract.parse(res.body);
    expect(contract.object).toBe('application_contract');
    expect(contract.contract_version).toBe('funding-intake-2026.11');
    expect(contract.answers_revision).toBe(1);
    expect(contract.resource).toEqual({ id: 'ciappl_greenleaf', object: 'client_intake_application' });
    expect(contract.sections.map((s) => [s.section_key, s.order])).toEqual([
      ['business', 1],
      ['contact', 2],
      ['funding', 3],
      ['financials', 4],
      ['owners', 5],
      ['assets', 6],
      ['declarations', 7],
    ]);
    expect(contract.repeatable_groups.map((g) => [g.block_key, g.parent_block_key, g.min_items, g.max_items])).toEqual([
      ['owners', null, 1, 4],
      ['owner_addresses', 'owners', 0, 3],
      ['assets', null, 0, 10],
    ]);
    // Schema keys are unique, and every repeatable question belongs to a declared group.
    const keys = contract.questions.map((q) => q.schema_key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const q of contract.questions.filter((x) => x.is_repeatable)) {
      const g = contract.repeatable_groups.find((x) => x.block_key === q.block_key);
      expect(g?.item_question_keys).toContain(q.schema_key);
    }
    const base = `${client.baseUrl}client-intake-applications/ciappl_greenleaf/`;
    expect(contract.operations).toEqual(contractOperations(base));
  });

  it('gives the Atlas application the large contract', async () => {
    const contract = await readContract(ctx.client, 'ciappl_atlaslogistics');
    expect(contract.sections).toHaveLength(46);
    expect(contract.questions.filter((q) => !q.is_repeatable)).toHaveLength(900);
    expect(contract.repeatable_groups.map((g) => [g.block_key, g.parent_block_key])).toEqual([
      ['ga', null],
      ['gb', 'ga'],
    ]);
  });

  it("has operation URLs that lead to working endpoints", async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const { application } = await readApplication(client, appId);
    const contract = ApplicationContract.parse((await client.get(application.contract_url)).body);
    const ops = contract.operations;
    expect(ops.read_answers_url).toBe(application.answers_url);
    expect(ops.submit_url).toBe(application.submit_url);

    const answers = await client.get(ops.read_answers_url);
    expect(answers.status).toBe(200);
    AnswerPage.parse(answers.body);

    const update = await client.patch(ops.update_answers_url, {
      ifMatch: answersEtag(appId, 0),
      body: { answers_revision: 0, answers: [w('trading_name', 'Ops Test')] },
    });
    expect(update.status).toBe(200);
    expect(AnswersMutationResult.parse(update.body).answers_revision).toBe(1);

    const items = await client.get(`${ops.repeatable_items_url}owners/`);
    expect(items.status).toBe(200);
    expect(RepeatableItemPage.parse(items.body).items).toEqual([]);

    const upload = await client.post(ops.file_uploads_url, { body: { block_key: 'bank_statements', schema_key: 'bank_statements', field_key: 'files' } });
    expect(upload.status).toBe(201);
    FileUploadCredential.parse(upload.body);

    const files = await client.get(ops.files_url);
    expect(files.status).toBe(200);
    expect(AnswerFilePage.parse(files.body).items).toEqual([]);

    // Submit is reachable: refused for what is missing, not for where it was sent.
    const { etag } = await readApplication(client, appId);
    const submit = await client.post(ops.submit_url, { ifMatch: etag, idempotencyKey: newKey('submit') });
    expectError(submit, 422, 'validation_failed');
  });

  it('follows answers_revision in the contract, while its ETag names contract_version only (a kept copy revalidates to 304)', async () => {
    const { client } = ctx;
    const appId = await freshApplication(client);
    const first = await client.get(`${appPath(appId)}contract/`);
    await mustWriteAnswers(client, appId, [w('legal_name', 'Revision Ltd')]);
    const second = await client.get(`${appPath(appId)}contract/`);
    expect(ApplicationContract.parse(first.body).answers_revision).toBe(0);
    expect(ApplicationContract.parse(second.body).answers_revision).toBe(1);
    const etag = first.headers.get('etag')!;
    expect(etag).toBe(`W/"contract-${appId}-funding-intake-2026.11"`);
    expect(second.headers.get('etag')).toBe(etag);
    const revalidated = await client.get(`${appPath(appId)}contract/`, { headers: { 'If-None-Match': etag } });
    expect(revalidated.status).toBe(304);
    // Another application of the same version has an ETag of its own.
    expect((await client.get(`${appPath('ciappl_greenleaf')}contract/`)).headers.get('etag')).not.toBe(etag);
  });
});
