import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FundingMatchPage, MatchRun, MatchRunPage, MatchRunProgressEventData, Project } from '@/lib/portal';
import type { SandboxEvent } from '@/server/sandbox/events';
import { configureMatching } from '@/server/sandbox/funding/state';
import { createBusiness } from './support/businesses';
import {
  COMPLETE_CRITERIA,
  createProject,
  cw,
  mustStartRun,
  mustWriteCriteria,
  readCriteria,
  startRun,
  waitForRun,
} from './support/projects';
import { expectError, newKey, setupSandbox } from './support/sandbox';

/*
 * Conformance of match runs (DESIGN.md §6): start (Idempotency-Key, expected_criteria_revision), progress on the
 * sandbox clock (units = funders screened) and its events (at most one a second), completion, the failure
 * trigger, retry, and the project's status.
 */

const ctx = setupSandbox();
const FAST = 1_000;

const events: SandboxEvent[] = [];
let unsubscribe = () => {};
beforeAll(() => {
  ctx.running.sandbox.clock.setSpeed(FAST);
  unsubscribe = ctx.running.sandbox.events.subscribe((e) => events.push(e));
});
afterAll(() => unsubscribe());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A run's events since `seen`, in order of publication. */
const runEvents = (seen: number, runId: string) => events.slice(seen).filter((e) => e.type.startsWith('match_run.') && e.data.run_id === runId);

/** Checks a run's progress events: well-formed, at most one a second, never going back. */
function expectProgressEvents(progress: SandboxEvent[]) {
  const data = progress.map((e) => MatchRunProgressEventData.parse(e.data));
  const at = progress.map((e) => Date.parse(e.timestamp));
  // Published 1 s apart at least (the timestamp is taken a moment after the check, so allow a few ms).
  for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!, `gap before progress event ${i}`).toBeGreaterThanOrEqual(995);
  const units = data.map((d) => d.progress.completed_units);
  expect(units).toEqual([...units].sort((a, b) => a - b));
  return data;
}

/** A project of a new business whose criteria are complete (plus `extra`). */
async function readyProject(extra: ReturnType<typeof cw>[] = []) {
  const { data } = await createBusiness(ctx.client, { name: 'Runs Test Ltd' });
  const project = await createProject(ctx.client, data.business.id, 'Run project');
  await mustWriteCriteria(ctx.client, project, [...COMPLETE_CRITERIA, ...extra]);
  return project;
}

const readProject = async (project: Project) => (await ctx.client.read(Project, project.url)).data;

describe('starting a run', () => {
  it('moves pending → running (funders screened) → completed on the sandbox clock, and the project draft → matching → matched', async () => {
    const project = await readyProject();
    const { criteria } = await readCriteria(ctx.client, project);
    // Slow enough to see each state even on a busy machine: queued 1 s, then 15 steps of 80 ms.
    ctx.running.sandbox.clock.setSpeed(0.5);
    const seen = events.length;
    let run: MatchRun;
    const progress: number[] = [];
    const statuses = new Set<string>();
    try {
      const res = await startRun(ctx.client, project, { revision: criteria.revision });
      expect(res.status).toBe(201);
      run = MatchRun.parse(res.body);
      expect(run).toMatchObject({
        object: 'match_run',
        project: { id: project.id, object: 'project' },
        status: 'pending',
        progress: { step: 'queued', completed_units: 0, total_units: 30 },
        match_count: 0,
        can_retry: false,
        attempt_sequence: 1,
        failure: null,
        url: `${ctx.client.baseUrl}match-runs/${run.id}/`,
        matches_url: `${ctx.client.baseUrl}match-runs/${run.id}/matches/`,
        retry_url: `${ctx.client.baseUrl}match-runs/${run.id}/retry/`,
      });
      expect(run.id).toMatch(/^mrun_[a-z0-9]+$/);
      expect(res.headers.get('location')).toBe(run.url);
      expect(res.headers.get('etag')).toBe(`"mrun-${run.id}-1"`);
      expect(await readProject(project)).toMatchObject({ status: 'matching', revision: 1 });
      // A run of this project is under way: no other may start.
      const again = await startRun(ctx.client, project, { revision: criteria.revision });
      expect(expectError(again, 409, 'conflict').details).toEqual([{ code: 'run_in_progress', message: `${run.id} is pending.` }]);

      for (;;) {
        const { res: r, data } = await ctx.client.read(MatchRun, run.url);
        expect(r.headers.get('etag')).toMatch(new RegExp(`^"mrun-${run.id}-\\d+"$`));
        statuses.add(data.status);
        if (data.status === 'running') {
          expect(data.progress.step).toBe('screening_funders');
          progress.push(data.progress.completed_units);
        }
        if (data.status === 'completed') {
          run = data;
          break;
        }
        await sleep(10);
      }
    } finally {
      ctx.running.sandbox.clock.setSpeed(FAST);
    }
    expect([...statuses]).toEqual(expect.arrayContaining(['pending', 'running', 'completed']));
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(new Set(progress).size).toBeGreaterThanOrEqual(2);
    expect(Math.max(...progress)).toBeLessThan(30);
    expect(run).toMatchObject({ status: 'completed', progress: { step: 'completed', completed_units: 30, total_units: 30 }, match_count: 20, can_retry: false });
    expect(await readProject(project)).toMatchObject({ status: 'matched', revision: 2 });

    const { data: page } = await ctx.client.read(FundingMatchPage, `${run.matches_url}?page_size=100`);
    expect(page.items).toHaveLength(20);
    expect(page.items.every((m) => m.run.id === run.id)).toBe(true);
    const { data: latest } = await ctx.client.read(FundingMatchPage, `${project.matches_url}?page_size=100`);
    expect(latest.items.map((m) => m.id)).toEqual(page.items.map((m) => m.id));

    // Progress while it ran (the first as it started screening), then its end.
    const ran = runEvents(seen, run.id);
    const announced = ran.filter((e) => e.type === 'match_run.progress');
    expect(ran.slice(0, announced.length)).toEqual(announced);
    expect(expectProgressEvents(announced)[0]).toEqual({
      run_id: run.id,
      project_id: project.id,
      business_id: project.business.id,
      status: 'running',
      attempt_sequence: 1,
      progress: { step: 'screening_funders', completed_units: 0, total_units: 30 },
    });
    expect(ran.slice(announced.length).map((e) => [e.type, e.data])).toEqual([
      [
        'match_run.completed',
        {
          run_id: run.id,
          project_id: project.id,
          business_id: project.business.id,
          match_count: 20,
          fit_counts: { strong: 2, good: 1, possible: 1, unlikely: 16 },
          best: { match_id: page.items[0]!.id, recipient_id: 'rcpt_ironbridge', score: 100, fit: 'strong' },
        },
      ],
    ]);
  });

  it('announces a running run’s progress at most once a second in real time, however fast its steps, and times one project’s runs apart', async () => {
    const slow = await readyProject();
    const fast = await readyProject();
    // 100 s a funder on a clock 1,000 times faster: steps of two funders every 200 ms, 3 s in all. Only this project's.
    configureMatching(ctx.running.sandbox, { funderMs: 100_000 }, slow.id);
    const seen = events.length;
    const slowRun = await mustStartRun(ctx.client, slow);
    const fastRun = await waitForRun(ctx.client, await mustStartRun(ctx.client, fast));
    expect(fastRun.status).toBe('completed');
    expect((await ctx.client.read(MatchRun, slowRun.url)).data.status).not.toBe('completed');
    const done = await waitForRun(ctx.client, slowRun);
    expect(done).toMatchObject({ status: 'completed', progress: { completed_units: 30 } });

    const ran = runEvents(seen, slowRun.id);
    expect(ran.at(-1)?.type).toBe('match_run.completed');
    const progress = expectProgressEvents(ran.slice(0, -1));
    expect(ran.slice(0, -1).every((e) => e.type === 'match_run.progress')).toBe(true);
    // Fifteen steps in about 3 s: a few events with what was screened by then, not one per step.
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.length).toBeLessThan(15);
    expect(progress.every((p) => p.status === 'running' && p.attempt_sequence === 1 && p.progress.total_units === 30)).toBe(true);
    expect(new Set(progress.map((p) => p.progress.completed_units)).size).toBe(progress.length);
    expect(Math.max(...progress.map((p) => p.progress.completed_units))).toBeLessThan(30);
  });

  it('lists a project’s runs newest first and reads each with its ETag', async () => {
    const project = await readyProject();
    const first = await waitForRun(ctx.client, await mustStartRun(ctx.client, project));
    const second = await waitForRun(ctx.client, await mustStartRun(ctx.client, project));
    const { data } = await ctx.client.read(MatchRunPage, project.match_runs_url);
    expect(data.items.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(data.items[1]).toEqual(first);
    const { data: paged } = await ctx.client.read(MatchRunPage, `${project.match_runs_url}?page_size=1`);
    expect(paged.items.map((r) => r.id)).toEqual([second.id]);
    const { data: next } = await ctx.client.read(MatchRunPage, `${project.match_runs_url}?page_size=1&cursor=${encodeURIComponent(paged.next_cursor!)}`);
    expect(next.items.map((r) => r.id)).toEqual([first.id]);
    // The project's matches are the latest completed run's.
    const { data: matches } = await ctx.client.read(FundingMatchPage, `${project.matches_url}?page_size=1`);
    expect(matches.items[0]?.run.id).toBe(second.id);
  });

  it('refuses a stale expected_criteria_revision with 412, and names the missing required criteria with 422', async () => {
    const { data } = await createBusiness(ctx.client, { name: 'Incomplete Ltd' });
    const project = await createProject(ctx.client, data.business.id);
    await mustWriteCriteria(ctx.client, project, [cw('funding_amount', 50_000), cw('can_offer_collateral', true)]);
    const { criteria } = await readCriteria(ctx.client, project);
    expect(criteria.revision).toBe(1);

    const stale = expectError(await startRun(ctx.client, project, { revision: 0 }), 412, 'precondition_failed');
    expect(stale.details).toEqual([{ code: 'stale_revision', message: 'Revision 0 is not the current revision (1).', parameter: 'expected_criteria_revision' }]);

    const missing = expectError(await startRun(ctx.client, project, { revision: 1 }), 422, 'validation_failed');
    expect(missing.message).toBe('10 required criteria answers are missing.');
    // collateral_types is visible because can_offer_collateral is true; purpose_details stays hidden (no "other" purpose).
    expect(missing.details.map((d) => `${d.schema_key}|${d.field_key}`)).toEqual([
      'funding_currency|value',
      'funding_purpose|value',
      'product_kinds|value',
      'funding_timeline|value',
      'date_established|value',
      'industry|value',
      'business_address|country',
      'annual_revenue|value',
      'credit_band|value',
      'collateral_types|value',
    ]);
    expect(missing.details.every((d) => d.code === 'required')).toBe(true);
    expect((await ctx.client.read(MatchRunPage, project.match_runs_url)).data.items).toEqual([]);
    expect(await readProject(project)).toMatchObject({ status: 'draft', revision: 0 });
  });

  it('requires an Idempotency-Key and a valid body; replays an identical retry; refuses a reused key', async () => {
    const project = await readyProject();
    const { criteria } = await readCriteria(ctx.client, project);
    const body = { expected_criteria_revision: criteria.revision };
    expect(expectError(await ctx.client.post(project.match_runs_url, { body }), 400, 'invalid_request').details[0]).toMatchObject({ parameter: 'Idempotency-Key' });
    expectError(await ctx.client.post(project.match_runs_url, { body: {}, idempotencyKey: newKey() }), 422, 'validation_failed');
    expectError(await ctx.client.post(project.match_runs_url, { body: { expected_criteria_revision: -1 }, idempotencyKey: newKey() }), 422, 'validation_failed');
    const extra = expectError(await ctx.client.post(project.match_runs_url, { body: { ...body, ai_mode: 'fast' }, idempotencyKey: newKey() }), 422, 'validation_failed');
    expect(extra.details[0]).toMatchObject({ code: 'unknown_property', parameter: 'ai_mode' });

    const key = newKey('run');
    const first = await ctx.client.post(project.match_runs_url, { body, idempotencyKey: key });
    expect(first.status).toBe(201);
    const again = await ctx.client.post(project.match_runs_url, { body, idempotencyKey: key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await ctx.client.read(MatchRunPage, project.match_runs_url)).data.items).toHaveLength(1);
    const reused = await ctx.client.post(project.match_runs_url, { body: { expected_criteria_revision: criteria.revision + 1 }, idempotencyKey: key });
    expectError(reused, 422, 'idempotency_key_reused');
    await waitForRun(ctx.client, MatchRun.parse(first.body));
  });
});

describe('a failed run', () => {
  it('fails half way through when a criteria text answer carries [[fail]], says why, and can be retried', async () => {
    const project = await readyProject([cw('notes_for_funders', 'Please call first [[fail]]')]);
    const seen = events.length;
    const run = await waitForRun(ctx.client, await mustStartRun(ctx.client, project));
    expect(run).toMatchObject({
      status: 'failed',
      progress: { step: 'failed', completed_units: 15, total_units: 30 },
      match_count: 0,
      can_retry: true,
      attempt_sequence: 1,
      failure: {
        code: 'matching_failed',
        message: "Matching failed after screening 15 of 30 funders: the criteria contain the sandbox's failure trigger [[fail]]. Remove it and retry the run.",
      },
    });
    expect(await readProject(project)).toMatchObject({ status: 'draft', revision: 2 });
    expect((await ctx.client.read(FundingMatchPage, project.matches_url)).data.items).toEqual([]);
    const ran = runEvents(seen, run.id);
    expect(ran.filter((e) => e.type !== 'match_run.progress').map((e) => [e.type, e.data])).toEqual([
      ['match_run.failed', { run_id: run.id, project_id: project.id, business_id: project.business.id, failure: run.failure, can_retry: true }],
    ]);
    // It started screening (announced), and nothing is announced of it after it failed.
    expect(ran[0]?.data).toMatchObject({ status: 'running', progress: { completed_units: 0 } });
    expect(ran.at(-1)?.type).toBe('match_run.failed');

    // Retried with the trigger still there: the second attempt fails the same way.
    expect(expectError(await ctx.client.post(run.retry_url), 400, 'invalid_request').details[0]).toMatchObject({ parameter: 'Idempotency-Key' });
    const retry = await ctx.client.post(run.retry_url, { idempotencyKey: newKey('retry') });
    expect(retry.status).toBe(200);
    expect(MatchRun.parse(retry.body)).toMatchObject({ id: run.id, status: 'pending', attempt_sequence: 2, failure: null, can_retry: false, progress: { completed_units: 0, total_units: 30 } });
    const second = await waitForRun(ctx.client, run);
    expect(second).toMatchObject({ status: 'failed', attempt_sequence: 2, can_retry: true });

    // Without the trigger, the third attempt completes.
    await mustWriteCriteria(ctx.client, project, [cw('notes_for_funders', 'Please call first')]);
    expect((await ctx.client.post(run.retry_url, { idempotencyKey: newKey('retry') })).status).toBe(200);
    const third = await waitForRun(ctx.client, run);
    expect(third).toMatchObject({ id: run.id, status: 'completed', attempt_sequence: 3, match_count: 20, can_retry: false, failure: null });
    expect(await readProject(project)).toMatchObject({ status: 'matched' });
    const { data: matches } = await ctx.client.read(FundingMatchPage, project.matches_url);
    expect(matches.items.every((m) => m.run.id === run.id && !m.stale)).toBe(true);
  });

  it('refuses to retry a run that did not fail, or that a newer run replaced', async () => {
    const project = await readyProject([cw('notes_for_funders', '[[fail]]')]);
    const failed = await waitForRun(ctx.client, await mustStartRun(ctx.client, project));
    expect(failed.status).toBe('failed');
    await mustWriteCriteria(ctx.client, project, [cw('notes_for_funders', null)]);
    const done = await waitForRun(ctx.client, await mustStartRun(ctx.client, project));
    expect(done.status).toBe('completed');
    expect(await readProject(project)).toMatchObject({ status: 'matched' });

    const notFailed = expectError(await ctx.client.post(done.retry_url, { idempotencyKey: newKey() }), 409, 'conflict');
    expect(notFailed.details).toEqual([{ code: 'not_retryable', message: 'can_retry is false.' }]);
    expect((await ctx.client.read(MatchRun, failed.url)).data.can_retry).toBe(false);
    const replaced = expectError(await ctx.client.post(failed.retry_url, { idempotencyKey: newKey() }), 409, 'conflict');
    expect(replaced.details).toEqual([{ code: 'not_retryable', message: `The latest run is ${done.id}.` }]);
  });

  it('keeps the project matched when a later run fails, with the earlier results still listed', async () => {
    const project = await readyProject();
    const done = await waitForRun(ctx.client, await mustStartRun(ctx.client, project));
    await mustWriteCriteria(ctx.client, project, [cw('notes_for_funders', 'x [[fail]] y')]);
    const failed = await waitForRun(ctx.client, await mustStartRun(ctx.client, project));
    expect(failed.status).toBe('failed');
    expect(await readProject(project)).toMatchObject({ status: 'matched' });
    const { data } = await ctx.client.read(FundingMatchPage, project.matches_url);
    expect(data.items[0]).toMatchObject({ run: { id: done.id }, stale: true });
  });

  it('names the required criteria missing at retry (422) and leaves the run failed', async () => {
    const project = await readyProject([cw('notes_for_funders', '[[fail]]')]);
    const failed = await waitForRun(ctx.client, await mustStartRun(ctx.client, project));
    await mustWriteCriteria(ctx.client, project, [cw('notes_for_funders', null), cw('credit_band', null)]);
    const error = expectError(await ctx.client.post(failed.retry_url, { idempotencyKey: newKey() }), 422, 'validation_failed');
    expect(error.details).toEqual([expect.objectContaining({ code: 'required', schema_key: 'credit_band', field_key: 'value' })]);
    expect((await ctx.client.read(MatchRun, failed.url)).data).toMatchObject({ status: 'failed', attempt_sequence: 1, can_retry: true });
  });

  it('lets the seeded failed run be retried to completion', async () => {
    const { data: run } = await ctx.client.read(MatchRun, 'match-runs/mrun_oakridgefreehold1/');
    expect(run).toMatchObject({ status: 'failed', can_retry: true, attempt_sequence: 1 });
    expect((await ctx.client.post(run.retry_url, { idempotencyKey: newKey() })).status).toBe(200);
    expect(await waitForRun(ctx.client, run)).toMatchObject({ status: 'completed', attempt_sequence: 2, match_count: 15 });
    const { data: project } = await ctx.client.read(Project, 'projects/proj_oakridgefreehold/');
    expect(project.status).toBe('matched');
    const { data } = await ctx.client.read(FundingMatchPage, `${project.matches_url}?fit=strong`);
    expect(data.items.map((m) => m.recipient.name)).toEqual(['Liberty SBA Partners', 'Redwood Healthcare Lending']);
  });
});
