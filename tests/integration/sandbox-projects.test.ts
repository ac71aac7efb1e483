import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnswerPage,
  ApplicationContract,
  ApplicationEnvelope,
  FileUploadCredential,
  FundingMatchPage,
  MatchRun,
  MatchRunPage,
  PERMISSIONS,
  Project,
  ProjectCriteria,
  ProjectPage,
  type Permission,
} from '@/lib/portal';
import type { SandboxEvent } from '@/server/sandbox/events';
import { DEMO_KEYS, type ApiKeyDef } from '@/server/sandbox/keys';
import { startSandbox } from '@/server/sandbox/server';
import { freshApplication, mustWriteAnswers, w } from './support/applications';
import { createBusiness } from './support/businesses';
import {
  COMPLETE_CRITERIA,
  criteriaAnswers,
  cw,
  createProject,
  mustWriteCriteria,
  readCriteria,
  valueOf,
  waitForRun,
  writeCriteria,
} from './support/projects';
import { KEYS, SandboxClient, expectError, newKey, setupSandbox } from './support/sandbox';

/*
 * Conformance of funding projects and their criteria (DESIGN.md §6): every reply parsed with the strict
 * lib/portal schemas. Match runs and matches: sandbox-projects-runs and sandbox-projects-matches.
 */

/** One key per permission, each holding only that permission. */
const tokenOf = (p: Permission) => `pk_test_only_${p.replace(':', '_')}`;
const PERMISSION_KEYS: ApiKeyDef[] = PERMISSIONS.map((p) => ({
  id: `key_only_${p.replace(':', '_')}`,
  token: tokenOf(p),
  kind: 'portal',
  environment: 'test',
  permissions: [p],
  channel_slugs: [],
  label: `Only ${p}`,
}));
const IMPLIES: Partial<Record<Permission, Permission>> = {
  'businesses:write': 'businesses:read',
  'applications:write': 'applications:read',
  'deals:write': 'deals:read',
  'projects:write': 'projects:read',
};

const ctx = setupSandbox({ keys: [...DEMO_KEYS, ...PERMISSION_KEYS] });

const events: SandboxEvent[] = [];
let unsubscribe = () => {};
beforeAll(() => {
  unsubscribe = ctx.running.sandbox.events.subscribe((e) => events.push(e));
});
afterAll(() => unsubscribe());

async function newBusiness(name = 'Projects Test Ltd') {
  const { data } = await createBusiness(ctx.client, { name });
  return { businessId: data.business.id, appId: data.application.id };
}

async function allProjects(client: SandboxClient, query = '') {
  const { data } = await client.read(ProjectPage, `projects/?page_size=100${query}`);
  expect(data.next_cursor).toBeNull();
  return data.items;
}

describe('seeded projects', () => {
  it('lists the demo projects oldest first, at their states', async () => {
    const items = await allProjects(ctx.client);
    expect(items.slice(0, 3).map((p) => [p.id, p.business.id, p.name, p.status])).toEqual([
      ['proj_meridiancnc', 'biz_meridian', 'Second CNC line and working capital', 'matched'],
      ['proj_oakridgefreehold', 'biz_oakridge', 'Freehold purchase and dispensary refit', 'draft'],
      ['proj_fairwayxray', 'biz_fairwayvets', 'Digital X-ray suite', 'draft'],
    ]);
  });

  it('has a matched project with a shortlisted match, a failed run, and a draft with prefilled criteria', async () => {
    const { data: matches } = await ctx.client.read(FundingMatchPage, 'projects/proj_meridiancnc/matches/?page_size=100');
    expect(matches.items.filter((m) => m.decision === 'shortlisted').map((m) => m.recipient.id)).toEqual(['rcpt_ironbridge', 'rcpt_summitcredit']);
    expect(matches.items.filter((m) => m.decision === 'dismissed').map((m) => m.recipient.id)).toEqual(['rcpt_evergreen']);
    expect(matches.items.every((m) => !m.stale)).toBe(true);

    const { data: runs } = await ctx.client.read(MatchRunPage, 'projects/proj_oakridgefreehold/match-runs/');
    expect(runs.items.map((r) => [r.id, r.status, r.can_retry, r.failure?.code])).toEqual([['mrun_oakridgefreehold1', 'failed', true, 'funder_directory_unavailable']]);

    const { data: draft } = await ctx.client.read(ProjectCriteria, 'project-criteria/pcrit_fairwayxray/');
    expect(draft.prefilled_from?.application.id).toBe('ciappl_fairwayvets');
    expect(draft.prefilled_from?.answers.map((a) => a.schema_key)).toContain('funding_amount');
    const { data: fairwayRuns } = await ctx.client.read(MatchRunPage, 'projects/proj_fairwayxray/match-runs/');
    expect(fairwayRuns.items).toEqual([]);
  });
});

describe('projects', () => {
  it('creates a draft project (201, Location, ETag) that reads back and is announced', async () => {
    const { businessId } = await newBusiness('Created Project Ltd');
    const seen = events.length;
    const res = await ctx.client.post('projects/', { body: { business_id: businessId, name: '  Bakery ovens  ' }, idempotencyKey: newKey('proj') });
    expect(res.status).toBe(201);
    const project = Project.parse(res.body);
    expect(project).toMatchObject({
      object: 'project',
      revision: 0,
      business: { id: businessId, object: 'business', name: 'Created Project Ltd', url: `${ctx.client.baseUrl}businesses/${businessId}/` },
      name: 'Bakery ovens',
      status: 'draft',
      url: `${ctx.client.baseUrl}projects/${project.id}/`,
      match_runs_url: `${ctx.client.baseUrl}projects/${project.id}/match-runs/`,
      matches_url: `${ctx.client.baseUrl}projects/${project.id}/matches/`,
    });
    expect(project.id).toMatch(/^proj_[a-z0-9]+$/);
    expect(project.criteria_url).toMatch(new RegExp(`^${ctx.client.baseUrl}project-criteria/pcrit_[a-z0-9]+/$`));
    expect(project.created_at).toBe(project.updated_at);
    expect(res.headers.get('location')).toBe(project.url);
    expect(res.headers.get('etag')).toBe(`"project-${project.id}-0"`);

    const read = await ctx.client.read(Project, project.url);
    expect(read.data).toEqual(project);
    expect(read.res.headers.get('etag')).toBe(`"project-${project.id}-0"`);
    expect((await ctx.client.get(project.url, { headers: { 'If-None-Match': `"project-${project.id}-0"` } })).status).toBe(304);
    expect((await allProjects(ctx.client, `&business_id=${businessId}`)).map((p) => p.id)).toEqual([project.id]);

    const { criteria } = await readCriteria(ctx.client, project);
    expect(events.slice(seen).filter((e) => e.type === 'project.created').map((e) => e.data)).toEqual([
      { project_id: project.id, business_id: businessId, name: 'Bakery ovens', status: 'draft', criteria_id: criteria.id, prefilled_answer_count: 0 },
    ]);
  });

  it('replays an identical retry and refuses a reused key for another body', async () => {
    const { businessId } = await newBusiness();
    const key = newKey('proj');
    const body = { business_id: businessId, name: 'Replayed' };
    const first = await ctx.client.post('projects/', { body, idempotencyKey: key });
    expect(first.status).toBe(201);
    const again = await ctx.client.post('projects/', { body, idempotencyKey: key });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(await allProjects(ctx.client, `&business_id=${businessId}`)).toHaveLength(1);

    const reused = await ctx.client.post('projects/', { body: { ...body, name: 'Another' }, idempotencyKey: key });
    expect(expectError(reused, 422, 'idempotency_key_reused').details).toEqual([expect.objectContaining({ parameter: 'Idempotency-Key' })]);
    expect(await allProjects(ctx.client, `&business_id=${businessId}`)).toHaveLength(1);
  });

  it('requires an Idempotency-Key and a valid body naming a business that exists', async () => {
    const missing = await ctx.client.post('projects/', { body: { business_id: 'biz_meridian', name: 'No key' } });
    expect(expectError(missing, 400, 'invalid_request').details).toEqual([expect.objectContaining({ code: 'missing_header', parameter: 'Idempotency-Key' })]);
    const before = (await allProjects(ctx.client)).length;
    const post = (body: unknown) => ctx.client.post('projects/', { body, idempotencyKey: newKey('proj') });
    let error = expectError(await post({ business_id: 'biz_doesnotexist', name: 'Ghost' }), 422, 'validation_failed');
    expect(error.details).toEqual([{ code: 'unknown_business', message: 'No business biz_doesnotexist exists.', parameter: 'business_id' }]);
    error = expectError(await post({ business_id: 'biz_meridian', name: '   ' }), 422, 'validation_failed');
    expect(error.details.map((d) => d.parameter)).toEqual(['name']);
    error = expectError(await post({ business_id: 'not-a-business', name: 'X' }), 422, 'validation_failed');
    expect(error.details.map((d) => d.parameter)).toEqual(['business_id']);
    error = expectError(await post({ business_id: 'biz_meridian', name: 'X', status: 'matched' }), 422, 'validation_failed');
    expect(error.details).toEqual([expect.objectContaining({ code: 'unknown_property', parameter: 'status' })]);
    expectError(await ctx.client.post('projects/', { body: {}, idempotencyKey: newKey('proj'), headers: {} }), 422, 'validation_failed');
    expect(await allProjects(ctx.client)).toHaveLength(before);
  });

  it('answers 404 for a project, criteria, run or match that does not exist', async () => {
    for (const path of [
      'projects/proj_nope/',
      'projects/proj_nope/matches/',
      'projects/proj_nope/match-runs/',
      'project-criteria/pcrit_nope/',
      'project-criteria/pcrit_nope/contract/',
      'project-criteria/pcrit_nope/answers/',
      'match-runs/mrun_nope/',
      'match-runs/mrun_nope/matches/',
      'matches/match_nope/',
      // An intake application is not found at a criteria path, nor criteria at an intake path.
      'project-criteria/ciappl_meridian/',
      'client-intake-applications/pcrit_meridiancnc/contract/',
    ]) {
      expectError(await ctx.client.get(path), 404, 'not_found');
    }
    expectError(await ctx.client.post('projects/proj_nope/match-runs/', { body: { expected_criteria_revision: 0 }, idempotencyKey: newKey() }), 404, 'not_found');
    expectError(await ctx.client.post('match-runs/mrun_nope/retry/', { idempotencyKey: newKey() }), 404, 'not_found');
    expectError(await ctx.client.post('matches/match_nope/shortlist/', { ifMatch: '"x"' }), 404, 'not_found');
  });

  it('pages a business’s projects forward and back, with cursors bound to the filter', async () => {
    const { businessId } = await newBusiness('Many Projects Ltd');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createProject(ctx.client, businessId, `Project ${i}`)).id);
    const path = `projects/?business_id=${businessId}&page_size=2`;
    let { data } = await ctx.client.read(ProjectPage, path);
    const forward = [data.items.map((p) => p.id)];
    expect(data.previous_cursor).toBeNull();
    const firstCursor = data.next_cursor!;
    while (data.next_cursor) {
      ({ data } = await ctx.client.read(ProjectPage, `${path}&cursor=${encodeURIComponent(data.next_cursor)}`));
      forward.push(data.items.map((p) => p.id));
    }
    expect(forward).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);
    const backward = [data.items.map((p) => p.id)];
    while (data.previous_cursor) {
      ({ data } = await ctx.client.read(ProjectPage, `${path}&cursor=${encodeURIComponent(data.previous_cursor)}`));
      backward.unshift(data.items.map((p) => p.id));
    }
    expect(backward).toEqual(forward);

    // The cursor belongs to this filter and page size.
    for (const other of ['projects/?page_size=2', 'projects/?business_id=biz_meridian&page_size=2', `projects/?business_id=${businessId}&page_size=3`]) {
      const error = expectError(await ctx.client.get(`${other}&cursor=${encodeURIComponent(firstCursor)}`), 400, 'invalid_request');
      expect(error.details[0]).toMatchObject({ parameter: 'cursor' });
    }
    expect(expectError(await ctx.client.get('projects/?status=draft'), 400, 'invalid_request').details[0]).toMatchObject({ code: 'unsupported_parameter', parameter: 'status' });
    expect(expectError(await ctx.client.get('projects/?business_id=meridian'), 400, 'invalid_request').details[0]).toMatchObject({ parameter: 'business_id' });
  });
});

describe('criteria', () => {
  it('have a contract like an intake application’s, whose submit_url is the project’s match runs', async () => {
    const { businessId } = await newBusiness();
    const project = await createProject(ctx.client, businessId);
    const { criteria, etag } = await readCriteria(ctx.client, project);
    expect(criteria).toEqual({
      object: 'project_criteria',
      id: criteria.id,
      revision: 0,
      answers_revision: 0,
      updated_at: project.created_at,
      url: project.criteria_url,
      answers_url: `${project.criteria_url}answers/`,
      contract_url: `${project.criteria_url}contract/`,
      prefilled_from: null,
    });
    expect(etag).toBe(`"criteria-${criteria.id}-0-0"`);

    const { res, data: contract } = await ctx.client.read(ApplicationContract, criteria.contract_url);
    expect(res.headers.get('etag')).toBe(`W/"contract-${criteria.id}-funding-criteria-2026.11"`);
    expect(contract.resource).toEqual({ id: criteria.id, object: 'project_criteria' });
    expect(contract.operations).toEqual({
      read_answers_url: criteria.answers_url,
      update_answers_url: criteria.answers_url,
      repeatable_items_url: `${criteria.url}repeatable-items/`,
      file_uploads_url: `${criteria.url}file-uploads/`,
      files_url: `${criteria.url}files/`,
      submit_url: project.match_runs_url,
    });
    expect(contract.sections.map((s) => s.section_key)).toEqual(['request', 'business', 'financials', 'security']);
    const required = contract.questions.filter((q) => q.is_required).map((q) => q.schema_key);
    expect(required).toEqual([
      'funding_amount',
      'funding_currency',
      'funding_purpose',
      'purpose_details',
      'product_kinds',
      'funding_timeline',
      'date_established',
      'industry',
      'business_address',
      'annual_revenue',
      'credit_band',
      'can_offer_collateral',
      'collateral_types',
    ]);
    expect(contract.questions.filter((q) => q.visibility.rule === 'conditional').map((q) => q.schema_key)).toEqual(['purpose_details', 'collateral_types']);

    // Questions shared with the intake contract have the same schema_key, field_key and value_schema.
    const intake = (await ctx.client.read(ApplicationContract, 'client-intake-applications/ciappl_meridian/contract/')).data;
    const intakeFields = new Map(intake.questions.flatMap((q) => q.fields.map((f) => [`${q.schema_key}|${f.field_key}`, f.value_schema])));
    const shared = contract.questions.flatMap((q) => q.fields.filter((f) => intakeFields.has(`${q.schema_key}|${f.field_key}`)).map((f) => `${q.schema_key}|${f.field_key}`));
    expect(shared).toEqual([
      'funding_amount|value',
      'funding_purpose|value',
      'purpose_details|value',
      'funding_timeline|value',
      'preferred_term_months|value',
      'date_established|value',
      'industry|value',
      'business_address|country',
      'business_address|region',
      'annual_revenue|value',
      'net_profit|value',
      'can_offer_collateral|value',
    ]);
    for (const q of contract.questions) for (const f of q.fields) if (intakeFields.has(`${q.schema_key}|${f.field_key}`)) expect(f.value_schema).toEqual(intakeFields.get(`${q.schema_key}|${f.field_key}`));

  });

  it('are prefilled from the visible intake answers that share a schema_key, and say which', async () => {
    const { businessId, appId } = await newBusiness('Prefilled Pottery Ltd');
    await mustWriteAnswers(ctx.client, appId, [w('funding_purpose', ['other']), w('purpose_details', 'Hidden once the purpose changes')]);
    await mustWriteAnswers(ctx.client, appId, [
      w('legal_name', 'Prefilled Pottery Ltd'),
      w('funding_amount', 180_000),
      w('funding_purpose', ['equipment', 'expansion']),
      w('funding_timeline', 'within_three_months'),
      w('date_established', '2019-05-01'),
      w('industry', 'retail'),
      w('business_address', '1 Harbour Row', 'line1'),
      w('business_address', 'St Ives', 'city'),
      w('business_address', 'Cornwall', 'region'),
      w('business_address', 'TR26 1AA', 'postal_code'),
      w('business_address', 'GB', 'country'),
      w('annual_revenue', 640_000),
      w('net_profit', -12_000),
      w('can_offer_collateral', false),
    ]);
    const seen = events.length;
    const project = await createProject(ctx.client, businessId, 'Kilns');
    const { criteria } = await readCriteria(ctx.client, project);
    const copied = [
      ['funding_amount', 'value', 180_000],
      ['funding_purpose', 'value', ['equipment', 'expansion']],
      ['funding_timeline', 'value', 'within_three_months'],
      ['date_established', 'value', '2019-05-01'],
      ['industry', 'value', 'retail'],
      ['business_address', 'country', 'GB'],
      ['business_address', 'region', 'Cornwall'],
      ['annual_revenue', 'value', 640_000],
      ['net_profit', 'value', -12_000],
      ['can_offer_collateral', 'value', false],
    ] as const;
    expect(criteria).toMatchObject({ revision: 1, answers_revision: 1 });
    expect(criteria.prefilled_from).toEqual({
      application: { id: appId, object: 'client_intake_application', url: `${ctx.client.baseUrl}client-intake-applications/${appId}/` },
      answers_revision: 2,
      prefilled_at: project.created_at,
      answers: copied.map(([schema_key, field_key]) => ({ block_key: schema_key, schema_key, field_key })),
    });
    const { items } = await criteriaAnswers(ctx.client, project);
    for (const [schema, field, value] of copied) expect(valueOf(items, schema, field)).toEqual(value);
    // Hidden in the intake application (purpose no longer "other"), unanswered there, or only asked by the criteria.
    for (const schema of ['purpose_details', 'preferred_term_months', 'funding_currency', 'product_kinds', 'credit_band']) expect(valueOf(items, schema)).toBeNull();
    expect(events.slice(seen).find((e) => e.type === 'project.created')?.data.prefilled_answer_count).toBe(10);

    // An answer changed since is no longer listed as prefilled; the others still are.
    await mustWriteCriteria(ctx.client, project, [cw('annual_revenue', 700_000)]);
    const after = (await readCriteria(ctx.client, project)).criteria;
    expect(after.prefilled_from?.answers.map((a) => `${a.schema_key}|${a.field_key}`)).toEqual(
      copied.filter(([s]) => s !== 'annual_revenue').map(([s, f]) => `${s}|${f}`),
    );
    // The intake application is untouched.
    expect((await ctx.client.read(AnswerPage, `client-intake-applications/${appId}/answers/?page_size=1`)).data.answers_revision).toBe(2);
  });

  it('take answer writes exactly as an intake application does: If-Match, answers_revision, all-or-nothing 422', async () => {
    const { businessId } = await newBusiness();
    const project = await createProject(ctx.client, businessId);
    const { criteria } = await readCriteria(ctx.client, project);
    const url = criteria.answers_url;
    const body = { answers_revision: 0, answers: [cw('funding_amount', 1_000)] };

    expectError(await ctx.client.patch(url, { body }), 428, 'precondition_required');
    expectError(await ctx.client.patch(url, { body, ifMatch: `"answers-${criteria.id}-7"` }), 412, 'precondition_failed');
    const stale = expectError(await ctx.client.patch(url, { body: { ...body, answers_revision: 3 }, ifMatch: `"answers-${criteria.id}-0"` }), 412, 'precondition_failed');
    expect(stale.details).toEqual([expect.objectContaining({ code: 'stale_revision', parameter: 'answers_revision' })]);

    const invalid = await writeCriteria(ctx.client, project, [
      cw('funding_amount', -5),
      cw('funding_currency', 'chf'),
      cw('business_address', 'gb', 'country'),
      cw('product_kinds', []),
      cw('no_such_question', 1),
      cw('credit_band', 'good'),
    ]);
    const error = expectError(invalid, 422, 'validation_failed');
    expect(error.details.map((d) => [d.code, d.block_key, d.schema_key, d.field_key])).toEqual([
      ['minimum', 'funding_amount', 'funding_amount', 'value'],
      ['enum', 'funding_currency', 'funding_currency', 'value'],
      ['pattern', 'business_address', 'business_address', 'country'],
      ['min_items', 'product_kinds', 'product_kinds', 'value'],
      ['unknown_field', 'no_such_question', 'no_such_question', 'value'],
    ]);
    // Nothing was written, not even the valid answer.
    const { items, revision } = await criteriaAnswers(ctx.client, project);
    expect(revision).toBe(0);
    expect(valueOf(items, 'credit_band')).toBeNull();

    const seen = events.length;
    const ok = await mustWriteCriteria(ctx.client, project, [cw('credit_band', 'good'), cw('funding_amount', 90_000)]);
    expect(ok).toEqual({
      object: 'project_criteria_answers',
      application: { id: criteria.id, object: 'project_criteria' },
      answers_revision: 1,
      updated_answers: [cw('credit_band', 'good'), cw('funding_amount', 90_000)],
      affected_section_keys: ['request', 'financials'],
    });
    const read = await readCriteria(ctx.client, project);
    expect(read.criteria).toMatchObject({ revision: 1, answers_revision: 1 });
    expect(read.etag).toBe(`"criteria-${criteria.id}-1-1"`);
    // Writing the same values again changes nothing.
    await mustWriteCriteria(ctx.client, project, [cw('credit_band', 'good')]);
    expect((await readCriteria(ctx.client, project)).criteria.revision).toBe(1);
    expect(events.slice(seen).map((e) => [e.type, e.data])).toEqual([
      [
        'project.criteria_updated',
        { project_id: project.id, business_id: businessId, criteria_id: criteria.id, revision: 1, answers_revision: 1, project_status: 'draft' },
      ],
    ]);
  });

  it('apply visibility: a hidden question is neither required nor read', async () => {
    const { businessId } = await newBusiness();
    const project = await createProject(ctx.client, businessId);
    const { criteria } = await readCriteria(ctx.client, project);
    const all = COMPLETE_CRITERIA.filter((a) => a.schema_key !== 'collateral_types' && a.schema_key !== 'can_offer_collateral');
    await mustWriteCriteria(ctx.client, project, [...all, cw('can_offer_collateral', true)]);
    // collateral_types is visible and required now: a run is refused naming it.
    const refused = await ctx.client.post(project.match_runs_url, { body: { expected_criteria_revision: 1 }, idempotencyKey: newKey('run') });
    expect(expectError(refused, 422, 'validation_failed').details).toEqual([
      { code: 'required', message: 'Answer “What security can it offer?”.', block_key: 'collateral_types', schema_key: 'collateral_types', field_key: 'value' },
    ]);
    // Hidden (no security offered): not required any more.
    await mustWriteCriteria(ctx.client, project, [cw('can_offer_collateral', false)]);
    const { criteria: now } = await readCriteria(ctx.client, project);
    const started = await ctx.client.post(project.match_runs_url, { body: { expected_criteria_revision: now.revision }, idempotencyKey: newKey('run') });
    expect(started.status).toBe(201);
    expect(criteria.id).toBe(now.id);
  });

  it('have the item and file operations of an application, with nothing to add to them', async () => {
    const base = 'project-criteria/pcrit_meridiancnc/';
    expectError(await ctx.client.get(`${base}repeatable-items/owners/`), 404, 'not_found');
    const files = await ctx.client.get(`${base}files/`);
    expect(files.status).toBe(200);
    expect(files.body).toEqual({ object: 'list', items: [], next_cursor: null, previous_cursor: null });
    const upload = await ctx.client.post(`${base}file-uploads/`, { body: { block_key: 'funding_amount', schema_key: 'funding_amount', field_key: 'value' } });
    expect(expectError(upload, 422, 'validation_failed').details[0]).toMatchObject({ code: 'not_a_file_field' });
    expect(FileUploadCredential.safeParse(upload.body).success).toBe(false);
  });
});

describe('permissions', () => {
  let matchId = '';
  beforeAll(async () => {
    const { data } = await ctx.client.read(FundingMatchPage, 'projects/proj_meridiancnc/matches/?page_size=1');
    matchId = data.items[0]!.id;
  });

  interface Endpoint {
    method: 'GET' | 'POST' | 'PATCH';
    /** `{match}` stands for a seeded match id. */
    path: string;
    needs: Permission;
    body?: unknown;
    /** What a permitted call gets (writes stop right after the permission check). */
    permitted: [number, string | null];
  }
  const C = 'project-criteria/pcrit_meridiancnc/';
  const ENDPOINTS: Endpoint[] = [
    { method: 'GET', path: 'projects/', needs: 'projects:read', permitted: [200, null] },
    { method: 'POST', path: 'projects/', needs: 'projects:write', body: { business_id: 'biz_meridian', name: 'X' }, permitted: [400, 'invalid_request'] },
    { method: 'GET', path: 'projects/proj_meridiancnc/', needs: 'projects:read', permitted: [200, null] },
    { method: 'GET', path: C, needs: 'projects:read', permitted: [200, null] },
    { method: 'GET', path: `${C}contract/`, needs: 'projects:read', permitted: [200, null] },
    { method: 'GET', path: `${C}answers/`, needs: 'projects:read', permitted: [200, null] },
    { method: 'PATCH', path: `${C}answers/`, needs: 'projects:write', body: { answers_revision: 0, answers: [] }, permitted: [428, 'precondition_required'] },
    { method: 'GET', path: `${C}files/`, needs: 'projects:read', permitted: [200, null] },
    { method: 'POST', path: `${C}file-uploads/`, needs: 'projects:write', body: {}, permitted: [422, 'validation_failed'] },
    { method: 'POST', path: 'projects/proj_meridiancnc/match-runs/', needs: 'projects:write', body: { expected_criteria_revision: 1 }, permitted: [400, 'invalid_request'] },
    { method: 'GET', path: 'projects/proj_meridiancnc/match-runs/', needs: 'projects:read', permitted: [200, null] },
    { method: 'GET', path: 'match-runs/mrun_meridiancnc1/', needs: 'projects:read', permitted: [200, null] },
    { method: 'POST', path: 'match-runs/mrun_meridiancnc1/retry/', needs: 'projects:write', permitted: [400, 'invalid_request'] },
    { method: 'GET', path: 'match-runs/mrun_meridiancnc1/matches/', needs: 'projects:read', permitted: [200, null] },
    { method: 'GET', path: 'projects/proj_meridiancnc/matches/', needs: 'projects:read', permitted: [200, null] },
    { method: 'GET', path: 'matches/{match}/', needs: 'projects:read', permitted: [200, null] },
    { method: 'POST', path: 'matches/{match}/shortlist/', needs: 'projects:write', permitted: [428, 'precondition_required'] },
    { method: 'POST', path: 'matches/{match}/dismiss/', needs: 'projects:write', permitted: [428, 'precondition_required'] },
  ];

  for (const ep of ENDPOINTS) {
    it(`${ep.method} ${ep.path} needs ${ep.needs}`, async () => {
      const path = ep.path.replace('{match}', matchId);
      for (const held of PERMISSIONS) {
        const res = await ctx.client.call(ep.method, path, { key: tokenOf(held), body: ep.body });
        if (held !== ep.needs && IMPLIES[held] !== ep.needs) {
          const err = expectError(res, 403, 'forbidden');
          expect(err.details).toEqual([{ code: 'missing_permission', message: `Requires ${ep.needs}.` }]);
          continue;
        }
        const [status, code] = ep.permitted;
        if (code) expectError(res, status, code);
        else expect(res.status, `${held} on ${ep.method} ${path}: ${res.text}`).toBe(status);
      }
      // Without a key: 401.
      expectError(await ctx.client.call(ep.method, path, { key: null, body: ep.body }), 401, 'unauthenticated');
    });
  }

  it('lets the read-only demo key read projects and refuses its writes', async () => {
    const ro = new SandboxClient(ctx.running, KEYS.readonly);
    expect((await ro.get('projects/')).status).toBe(200);
    expect((await ro.get(`matches/${matchId}/`)).status).toBe(200);
    expectError(await ro.post('projects/', { body: { business_id: 'biz_meridian', name: 'No' }, idempotencyKey: newKey() }), 403, 'forbidden');
    expectError(await ro.post(`matches/${matchId}/shortlist/`, { ifMatch: '"x"' }), 403, 'forbidden');
    expectError(await new SandboxClient(ctx.running, KEYS.source).get('projects/'), 403, 'forbidden');
  });
});

describe('OpenAPI', () => {
  const PROJECT_OPERATIONS = [
    'GET /projects/',
    'POST /projects/',
    'GET /projects/{id}/',
    'GET /projects/{id}/match-runs/',
    'POST /projects/{id}/match-runs/',
    'GET /projects/{id}/matches/',
    'GET /project-criteria/{id}/',
    'GET /project-criteria/{id}/contract/',
    'GET /project-criteria/{id}/answers/',
    'PATCH /project-criteria/{id}/answers/',
    'GET /project-criteria/{id}/repeatable-items/{block}/',
    'POST /project-criteria/{id}/repeatable-items/{block}/',
    'PATCH /project-criteria/{id}/repeatable-items/{block}/{item}/',
    'DELETE /project-criteria/{id}/repeatable-items/{block}/{item}/',
    'POST /project-criteria/{id}/file-uploads/',
    'GET /project-criteria/{id}/files/',
    'DELETE /project-criteria/{id}/files/{file}/',
    'GET /match-runs/{id}/',
    'POST /match-runs/{id}/retry/',
    'GET /match-runs/{id}/matches/',
    'GET /matches/{id}/',
    'POST /matches/{id}/shortlist/',
    'POST /matches/{id}/dismiss/',
  ].sort();

  type Doc = {
    paths: Record<
      string,
      Record<
        string,
        {
          'x-permissions': string[];
          parameters: Array<{ name: string; in: string; required: boolean; description?: string }>;
          responses: Record<string, { headers: Record<string, { description?: string }>; content: { 'application/json': { schema: Record<string, unknown> } } }>;
        }
      >
    >;
    webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { schema: Record<string, unknown> } } } } }>;
  };
  const operationsOf = (doc: Doc) =>
    Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .filter((o) => /\/(projects|project-criteria|match-runs|matches)\//.test(o))
      .sort();

  it('describes every project operation to the full key and in the public document, reads to the read-only key', async () => {
    const full = (await ctx.client.get<Doc>('openapi.json')).body;
    expect(operationsOf(full)).toEqual(PROJECT_OPERATIONS);
    const pub = (await (await fetch(`${ctx.running.origin}/generated/openapi.json`)).json()) as Doc;
    expect(operationsOf(pub)).toEqual(PROJECT_OPERATIONS);
    const ro = (await ctx.client.get<Doc>('openapi.json', { key: KEYS.readonly })).body;
    expect(operationsOf(ro)).toEqual(PROJECT_OPERATIONS.filter((o) => o.startsWith('GET ')));

    const start = pub.paths['/projects/{id}/match-runs/']!.post!;
    expect(start['x-permissions']).toEqual(['projects:write']);
    expect(start.parameters).toContainEqual({ name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string', maxLength: 255 } });
    // A match's ETag is its revision, quoted: said where it is quoted and where it is given.
    const shortlist = pub.paths['/matches/{id}/shortlist/']!.post!;
    const etagIs = expect.stringContaining('The match revision, quoted');
    expect(shortlist.parameters).toContainEqual({ name: 'If-Match', in: 'header', required: true, schema: { type: 'string' }, description: etagIs });
    expect(pub.paths['/matches/{id}/']!.get!.responses['200']!.headers.ETag).toEqual({ schema: { type: 'string' }, description: etagIs });
    const list = pub.paths['/projects/{id}/matches/']!.get!;
    expect(list.parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(['page_size', 'cursor', 'fit', 'product_kind']);
    const item = (list.responses['200']!.content['application/json'].schema as { properties: { items: { items: { properties: Record<string, unknown> } } } }).properties.items.items;
    expect(item.properties.fit).toEqual({ type: 'string', enum: ['strong', 'good', 'possible', 'unlikely'] });
    expect(item.properties.id).toEqual({ type: 'string', pattern: '^match_[a-z0-9]+$' });
    expect(item.properties.url).toEqual({ type: 'string', format: 'uri' });
    expect((item as { required?: string[] }).required).toContain('url');
    // A deal names the match it was made from.
    const deal = pub.paths['/deals/{id}/']!.get!.responses['200']!.content['application/json'].schema as { properties: Record<string, unknown> };
    expect(JSON.stringify(deal.properties.match)).toContain('funding_match');
    // The match run events, with their data, to keys that may read projects.
    expect(Object.keys(pub.webhooks).sort()).toEqual(['match_run.completed', 'match_run.failed', 'match_run.progress']);
    const progress = pub.webhooks['match_run.progress']!.post.requestBody.content['application/json'].schema as {
      properties: { type: unknown; data: { properties: Record<string, unknown>; required: string[] } };
    };
    expect(progress.properties.type).toEqual({ type: 'string', const: 'match_run.progress' });
    expect(progress.properties.data.required.sort()).toEqual(['attempt_sequence', 'business_id', 'progress', 'project_id', 'run_id', 'status']);
    expect(Object.keys(ro.webhooks)).toHaveLength(3);
    const source = (await ctx.client.get<Doc>('openapi.json', { key: KEYS.source })).body;
    expect(source.webhooks).toEqual({});
    const patch = pub.paths['/project-criteria/{id}/answers/']!.patch!;
    const result = patch.responses['200']!.content['application/json'].schema as { properties: { object: unknown } };
    expect(result.properties.object).toEqual({ type: 'string', const: 'project_criteria_answers' });
  });
});

describe('projects in the data file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-projects-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps projects, criteria answers, runs and decisions across a restart; a reset goes back to the seed', async () => {
    const dataFile = join(dir, 'state.json');
    const first = await startSandbox({ port: 0, rateLimit: null, dataFile, controls: true });
    let project: Project;
    let matchId = '';
    try {
      const c1 = new SandboxClient(first);
      project = await createProject(c1, 'biz_greenleaf', 'Persistent project');
      await mustWriteCriteria(c1, project, [cw('credit_band', 'fair')]);
      const { data } = await c1.read(FundingMatchPage, 'projects/proj_meridiancnc/matches/?fit=good');
      matchId = data.items[0]!.id;
      const etag = (await c1.get(`matches/${matchId}/`)).headers.get('etag')!;
      expect((await c1.post(`matches/${matchId}/shortlist/`, { ifMatch: etag })).status).toBe(200);
    } finally {
      await first.close();
    }
    const second = await startSandbox({ port: 0, rateLimit: null, dataFile, controls: true });
    try {
      const c2 = new SandboxClient(second);
      const { data: again } = await c2.read(Project, `projects/${project.id}/`);
      expect(again).toMatchObject({ name: 'Persistent project', status: 'draft' });
      const { items } = await criteriaAnswers(c2, again);
      expect(valueOf(items, 'credit_band')).toBe('fair');
      expect(valueOf(items, 'date_established')).toBe('2018-03-05');
      const { data } = await c2.read(FundingMatchPage, 'projects/proj_meridiancnc/matches/?page_size=100');
      expect(data.items.find((m) => m.id === matchId)?.decision).toBe('shortlisted');

      const reset = await fetch(`${second.origin}/_sandbox/reset`, { method: 'POST' });
      expect(reset.status).toBe(200);
      expectError(await c2.get(`projects/${project.id}/`), 404, 'not_found');
      expect((await allProjects(c2)).map((p) => p.id)).toEqual(['proj_meridiancnc', 'proj_oakridgefreehold', 'proj_fairwayxray']);
    } finally {
      await second.close();
    }
  });
});

describe('older data files and restarts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-projects-old-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives a data file written before projects existed the funders, the criteria contract and no projects', async () => {
    const dataFile = join(dir, 'old.json');
    const first = await startSandbox({ port: 0, rateLimit: null, dataFile });
    await first.close();
    const state = JSON.parse(readFileSync(dataFile, 'utf8')) as { funding?: unknown; contracts: Record<string, unknown>; recipients: Array<{ id: string }> };
    delete state.funding;
    delete state.contracts['funding-criteria-2026.11'];
    state.recipients = state.recipients.slice(0, 5);
    writeFileSync(dataFile, JSON.stringify(state));

    const second = await startSandbox({ port: 0, rateLimit: null, dataFile });
    try {
      const c = new SandboxClient(second);
      // The funders are recipients from the start, before any project operation.
      expect((await c.get<{ items: unknown[] }>('recipients/?page_size=100')).body.items).toHaveLength(30);
      expect(await allProjects(c)).toEqual([]);
      const project = await createProject(c, 'biz_meridian', 'After the upgrade');
      expect((await readCriteria(c, project)).criteria.prefilled_from?.answers.length).toBeGreaterThan(5);
      expect((await c.get<{ items: unknown[] }>('recipients/?page_size=100')).body.items).toHaveLength(30);
    } finally {
      await second.close();
    }
  });

  it('carries on a run that was under way when the sandbox stopped', async () => {
    const dataFile = join(dir, 'running.json');
    const first = await startSandbox({ port: 0, rateLimit: null, dataFile });
    let runUrl = '';
    try {
      const c1 = new SandboxClient(first);
      const project = await createProject(c1, 'biz_meridian', 'Interrupted');
      await mustWriteCriteria(c1, project, COMPLETE_CRITERIA);
      // Nothing moves on this clock before the restart.
      first.sandbox.clock.setSpeed(0.001);
      const res = await c1.post(project.match_runs_url, { body: { expected_criteria_revision: 2 }, idempotencyKey: newKey('run') });
      expect(res.status).toBe(201);
      runUrl = `match-runs/${MatchRun.parse(res.body).id}/`;
    } finally {
      await first.close();
    }
    const second = await startSandbox({ port: 0, rateLimit: null, dataFile });
    try {
      second.sandbox.clock.setSpeed(1_000);
      const c2 = new SandboxClient(second);
      const { data } = await c2.read(MatchRun, runUrl);
      expect(data.status).toBe('pending');
      expect(await waitForRun(c2, data)).toMatchObject({ status: 'completed', match_count: 20 });
    } finally {
      await second.close();
    }
  });
});

describe('an empty seed', () => {
  const empty = setupSandbox({ seed: 'empty' });

  it('has no projects; a new business’s project starts with nothing prefilled', async () => {
    expect(await allProjects(empty.client)).toEqual([]);
    const appId = await freshApplication(empty.client, 'First Project Ltd');
    const { data } = await empty.client.read(ApplicationEnvelope, `client-intake-applications/${appId}/`);
    const project = await createProject(empty.client, data.application.business.id, 'First project');
    expect((await readCriteria(empty.client, project)).criteria).toMatchObject({ revision: 0, answers_revision: 0, prefilled_from: null });
    expect((await allProjects(empty.client)).map((p) => p.id)).toEqual([project.id]);
  });
});
