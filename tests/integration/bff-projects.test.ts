import { describe, expect, it } from 'vitest';
import { AnswersWriteResult, ApplicationView, CurrentAnswers } from '@/lib/bff/applications';
import { FormSnapshotView } from '@/lib/bff/form-snapshot';
import { DealView } from '@/lib/bff/deals';
import { MatchPageView, MatchRunListView, MatchRunView, MatchView, ProjectListView, ProjectView } from '@/lib/bff/projects';
import { randomBytes } from 'node:crypto';
import { bffStack, signedIn, type BffClient } from './support/bff';
import { auditRows, clientSession, expectNoPortalUrl, newIdempotencyKey } from './support/bff-businesses';
import { COMPLETE_CRITERIA, cw } from './support/projects';
import { errorOf } from './support/route-catalog';
import { KEYS, SandboxClient } from './support/sandbox';
import { openEventStream, postDelivery, signedDelivery } from './support/sse';
import { callsSince } from './support/upstream-log';
import { poller } from '../support/poller';
import { FundingMatchPage } from '@/lib/portal';
import type { RunningSandbox } from '@/server/sandbox/server';

/*
 * The funding project routes (DESIGN.md §6) over HTTP against `next start` and the sandbox: projects, their
 * criteria as the third application kind, match runs, matches and decisions, and a deal from a match.
 */

const until = poller({ timeoutMs: 30_000, everyMs: 50 });
const portal = () => new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full);

async function newProject(client: BffClient, businessId = 'biz_meridian', key = newIdempotencyKey('project')) {
  const r = await client.post<{ project: unknown }>('/api/projects', { body: { business_id: businessId, name: 'Test funding' }, idempotencyKey: key });
  expect(r.status, r.text).toBe(201);
  return { reply: r, project: ProjectView.parse(r.body.project) };
}

async function criteriaOf(client: BffClient, projectId: string) {
  const r = await client.get<{ application: unknown }>(`/api/projects/${projectId}/criteria`);
  expect(r.status, r.text).toBe(200);
  return ApplicationView.parse(r.body.application);
}

async function answers(client: BffClient, projectId: string) {
  const r = await client.get(`/api/projects/${projectId}/criteria/answers?page_size=500`);
  expect(r.status, r.text).toBe(200);
  return CurrentAnswers.parse(r.body);
}

async function writeCriteria(client: BffClient, projectId: string, writes: typeof COMPLETE_CRITERIA) {
  const now = await answers(client, projectId);
  const r = await client.patch(`/api/projects/${projectId}/criteria/answers`, { ifMatch: now.etag, body: { answers_revision: now.answers_revision, answers: writes } });
  expect(r.status, r.text).toBe(200);
  return AnswersWriteResult.parse(r.body);
}

async function startRun(client: BffClient, projectId: string) {
  const { revision } = await criteriaOf(client, projectId);
  return client.post<{ run: unknown }>(`/api/projects/${projectId}/runs`, { body: { expected_criteria_revision: revision }, idempotencyKey: newIdempotencyKey('run') });
}

async function finished(client: BffClient, projectId: string, runId: string) {
  return until(
    async () => MatchRunView.parse((await client.get<{ run: unknown }>(`/api/projects/${projectId}/runs/${runId}`)).body.run),
    (r) => r.status === 'completed' || r.status === 'failed',
    `run ${runId}`,
  );
}

async function matchedProject(client: BffClient) {
  const { project } = await newProject(client);
  await writeCriteria(client, project.id, COMPLETE_CRITERIA);
  const started = await startRun(client, project.id);
  expect(started.status, started.text).toBe(201);
  const run = await finished(client, project.id, MatchRunView.parse(started.body.run).id);
  expect(run.status).toBe('completed');
  return { project, run };
}

const matchesOf = async (client: BffClient, projectId: string, query = '') => {
  const r = await client.get(`/api/projects/${projectId}/matches${query}`);
  expect(r.status, r.text).toBe(200);
  expectNoPortalUrl(r);
  return MatchPageView.parse(r.body);
};

describe('project routes', () => {
  it('creates a project with an Idempotency-Key (a retry replays it), audited, and reads and lists it', async () => {
    const { client, email } = await signedIn('staff');
    const key = newIdempotencyKey('project');
    const { reply, project } = await newProject(client, 'biz_meridian', key);
    expect(project).toMatchObject({ status: 'draft', business: { id: 'biz_meridian', name: expect.any(String) } });
    expectNoPortalUrl(reply);
    const again = await newProject(client, 'biz_meridian', key);
    expect(again.project.id).toBe(project.id);

    const read = await client.get<{ project: unknown }>(`/api/projects/${project.id}`);
    expect(read.status).toBe(200);
    expect(ProjectView.parse(read.body.project)).toEqual(project);
    expectNoPortalUrl(read);

    const listed = await client.get('/api/projects?business_id=biz_meridian&page_size=100');
    expect(listed.status).toBe(200);
    const list = ProjectListView.parse(listed.body);
    expect(list.items.map((p) => p.id)).toContain(project.id);
    // The seeded project is matched: its best fit comes with it.
    expect(list.items.find((p) => p.id === 'proj_meridiancnc')?.best_match).toMatchObject({ fit: expect.any(String), score: expect.any(Number) });
    expect(list.items.find((p) => p.id === project.id)?.best_match).toBeNull();

    expect(await auditRows('project.create', project.id)).toEqual([
      expect.objectContaining({ object_type: 'project', outcome: 'success', status: 201, actor_label: email }),
      expect.objectContaining({ object_type: 'project', outcome: 'success', status: 201, actor_label: email }),
    ]);
  });

  it('refuses a create without a key (428) or with a bad body (422), and an unknown project is 404', async () => {
    const { client } = await signedIn('staff');
    const noKey = await client.post('/api/projects', { body: { business_id: 'biz_meridian', name: 'x' } });
    expect(noKey.status).toBe(428);
    expect(errorOf(noKey)?.code).toBe('precondition_required');
    const bad = await client.post('/api/projects', { body: { business_id: 'biz_meridian', name: '' }, idempotencyKey: newIdempotencyKey() });
    expect(bad.status).toBe(422);
    const unknown = await client.post('/api/projects', { body: { business_id: 'biz_nosuchbiz', name: 'x' }, idempotencyKey: newIdempotencyKey() });
    expect(unknown.status).toBe(422);
    expect((unknown.body as { error: { details: Array<{ parameter?: string }> } }).error.details[0]?.parameter).toBe('business_id');
    for (const path of ['/api/projects/proj_nosuchproject', '/api/projects/proj_nosuchproject/criteria', '/api/projects/proj_nosuchproject/matches']) {
      const r = await client.get(path);
      expect(r.status, path).toBe(404);
    }
    expect((await client.get('/api/projects/not-a-project')).status).toBe(400);
  });

  it('lets reviewers read projects and nothing more; clients get nothing', async () => {
    const { client: reviewer } = await signedIn('reviewer');
    expect((await reviewer.get('/api/projects/proj_meridiancnc')).status).toBe(200);
    expect((await reviewer.get('/api/projects/proj_meridiancnc/matches')).status).toBe(200);
    expect((await reviewer.get('/api/projects/proj_meridiancnc/criteria/form')).status).toBe(200);
    const write = await reviewer.post('/api/projects', { body: { business_id: 'biz_meridian', name: 'x' }, idempotencyKey: newIdempotencyKey() });
    expect(write.status).toBe(403);
    const client = await clientSession();
    for (const path of ['/api/projects', '/api/projects/proj_meridiancnc', '/api/projects/proj_meridiancnc/criteria']) {
      expect((await client.get(path)).status, path).toBe(403);
    }
  });
});

describe('criteria', () => {
  it('open in the form with the answers prefilled from the intake application, and save with If-Match (412 carries the current answers)', async () => {
    const { client, email } = await signedIn('staff');
    const { project } = await newProject(client);
    const form = await client.get(`/api/projects/${project.id}/criteria/form`);
    expect(form.status).toBe(200);
    expectNoPortalUrl(form);
    const snapshot = FormSnapshotView.parse(form.body);
    expect(snapshot.application).toMatchObject({ kind: 'criteria', submitted_at: null });
    const prefilled = snapshot.application.prefilled_answers ?? [];
    expect(prefilled.map((a) => a.schema_key)).toEqual(expect.arrayContaining(['funding_amount', 'industry']));
    expect(snapshot.answers.items.find((a) => a.schema_key === 'funding_amount')?.value).not.toBeNull();
    expect(snapshot.contract.questions.map((q) => q.schema_key)).toContain('credit_band');

    const start = await answers(client, project.id);
    const saved = await writeCriteria(client, project.id, [cw('credit_band', 'good')]);
    expect(saved.answers_revision).toBe(start.answers_revision + 1);
    const stale = await client.patch(`/api/projects/${project.id}/criteria/answers`, {
      ifMatch: start.etag,
      body: { answers_revision: start.answers_revision, answers: [cw('credit_band', 'fair')] },
    });
    expect(stale.status).toBe(412);
    const current = CurrentAnswers.parse((stale.body as { current: unknown }).current);
    expect(current.items.find((a) => a.schema_key === 'credit_band')?.value).toBe('good');
    const invalid = await client.patch(`/api/projects/${project.id}/criteria/answers`, {
      ifMatch: current.etag,
      body: { answers_revision: current.answers_revision, answers: [cw('credit_band', 'superb')] },
    });
    expect(invalid.status).toBe(422);
    expect((invalid.body as { error: { details: Array<{ schema_key?: string }> } }).error.details[0]?.schema_key).toBe('credit_band');
    expect(await auditRows('project.criteria_update', project.id)).toEqual([
      expect.objectContaining({ object_type: 'project_criteria', outcome: 'success', actor_label: email }),
      expect.objectContaining({ outcome: 'failure', status: 412 }),
      expect.objectContaining({ outcome: 'failure', status: 422 }),
    ]);
  });
});

describe('match runs and matches', () => {
  it('starts a run at the criteria revision: stale is 412 with the criteria now, incomplete is 422, then it completes', async () => {
    const { client } = await signedIn('staff');
    const { project } = await newProject(client);
    const incomplete = await startRun(client, project.id);
    expect(incomplete.status).toBe(422);
    const noKey = await client.post(`/api/projects/${project.id}/runs`, { body: { expected_criteria_revision: 1 } });
    expect(noKey.status).toBe(428);

    await writeCriteria(client, project.id, COMPLETE_CRITERIA);
    const criteria = await criteriaOf(client, project.id);
    const stale = await client.post(`/api/projects/${project.id}/runs`, {
      body: { expected_criteria_revision: criteria.revision - 1 },
      idempotencyKey: newIdempotencyKey('run'),
    });
    expect(stale.status).toBe(412);
    expect(ApplicationView.parse((stale.body as { current: unknown }).current).revision).toBe(criteria.revision);

    const key = newIdempotencyKey('run');
    const started = await client.post<{ run: unknown }>(`/api/projects/${project.id}/runs`, { body: { expected_criteria_revision: criteria.revision }, idempotencyKey: key });
    expect(started.status).toBe(201);
    const run = MatchRunView.parse(started.body.run);
    const replay = await client.post<{ run: unknown }>(`/api/projects/${project.id}/runs`, { body: { expected_criteria_revision: criteria.revision }, idempotencyKey: key });
    expect(MatchRunView.parse(replay.body.run).id).toBe(run.id);
    const done = await finished(client, project.id, run.id);
    expect(done).toMatchObject({ status: 'completed', can_retry: false, failure: null });
    expect(done.progress.completed_units).toBe(done.progress.total_units);
    const runs = MatchRunListView.parse((await client.get(`/api/projects/${project.id}/runs`)).body);
    expect(runs.items[0]?.id).toBe(run.id);
    expect((await auditRows('match_run.start', project.id)).filter((r) => r.status === 201)).toHaveLength(2);

    // Another project's run named below this project's path does not exist here.
    expect((await client.get(`/api/projects/proj_meridiancnc/runs/${run.id}`)).status).toBe(404);
  });

  it('says why a run failed and retries it', async () => {
    const { client } = await signedIn('staff');
    const { project } = await newProject(client);
    await writeCriteria(client, project.id, [...COMPLETE_CRITERIA, cw('notes_for_funders', 'Call first [[fail]]')]);
    const started = await startRun(client, project.id);
    const failed = await finished(client, project.id, MatchRunView.parse(started.body.run).id);
    expect(failed).toMatchObject({ status: 'failed', can_retry: true, failure: { code: 'matching_failed', message: expect.stringContaining('[[fail]]') } });
    await writeCriteria(client, project.id, [cw('notes_for_funders', 'Call first')]);
    const noKey = await client.post(`/api/projects/${project.id}/runs/${failed.id}/retry`);
    expect(noKey.status).toBe(428);
    const retried = await client.post<{ run: unknown }>(`/api/projects/${project.id}/runs/${failed.id}/retry`, { idempotencyKey: newIdempotencyKey('retry') });
    expect(retried.status, retried.text).toBe(200);
    expect(MatchRunView.parse(retried.body.run).attempt_sequence).toBe(2);
    expect(await finished(client, project.id, failed.id)).toMatchObject({ status: 'completed', attempt_sequence: 2 });
    const again = await client.post(`/api/projects/${project.id}/runs/${failed.id}/retry`, { idempotencyKey: newIdempotencyKey('retry') });
    expect(again.status).toBe(409);
  });

  it('pages matches by score with reasons, filters them, and goes stale when the criteria change', async () => {
    const { client } = await signedIn('staff');
    const { project } = await matchedProject(client);
    const all = await matchesOf(client, project.id, '?page_size=100');
    expect(all.items.length).toBeGreaterThan(3);
    const scores = all.items.map((m) => m.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const unlikely = all.items.find((m) => m.fit === 'unlikely');
    expect(unlikely?.criteria.some((c) => c.status === 'not_met' && c.expected !== '')).toBe(true);

    const strong = await matchesOf(client, project.id, '?fit=strong&page_size=100');
    expect(strong.items.every((m) => m.fit === 'strong')).toBe(true);
    const loans = await matchesOf(client, project.id, '?product_kind=term_loan&page_size=100');
    expect(loans.items.every((m) => m.product.kind === 'term_loan')).toBe(true);
    const first = await matchesOf(client, project.id, '?page_size=2');
    const second = await matchesOf(client, project.id, `?page_size=2&cursor=${encodeURIComponent(first.next_cursor!)}`);
    expect(second.items.map((m) => m.id)).toEqual(all.items.slice(2, 4).map((m) => m.id));
    expect((await client.get(`/api/projects/${project.id}/matches?fit=perfect`)).status).toBe(400);

    expect(all.items.every((m) => !m.stale)).toBe(true);
    await writeCriteria(client, project.id, [cw('credit_band', 'fair')]);
    expect((await matchesOf(client, project.id)).items.every((m) => m.stale)).toBe(true);
  });

  it('shortlists and dismisses with If-Match (428 without, 412 with the match now when stale), then makes a deal for a shortlisted match', async () => {
    const { client, email } = await signedIn('staff');
    const { project } = await matchedProject(client);
    const [a, b] = (await matchesOf(client, project.id)).items as [MatchView, MatchView];
    const base = `/api/projects/${project.id}/matches`;

    expect((await client.post(`${base}/${a.id}/shortlist`)).status).toBe(428);
    // The page's etag is the match's ETag (its revision): the decision goes upstream without a read of the match.
    expect(a.etag).toBe(`"${a.revision}"`);
    const seen = (await callsSince(`/matches/${a.id}/`, 0)).length;
    const shortlisted = await client.post<{ match: unknown }>(`${base}/${a.id}/shortlist`, { ifMatch: a.etag });
    expect(shortlisted.status, shortlisted.text).toBe(200);
    expect(await callsSince(`/matches/${a.id}/`, seen)).toEqual([{ method: 'POST', path: `/v1/matches/${a.id}/shortlist/`, status: 200 }]);
    const now = MatchView.parse(shortlisted.body.match);
    expect(now.decision).toBe('shortlisted');
    expect(now.etag).toBe(`"${now.revision}"`);
    const stale = await client.post(`${base}/${a.id}/dismiss`, { ifMatch: a.etag });
    expect(stale.status).toBe(412);
    expect(MatchView.parse((stale.body as { current: unknown }).current)).toMatchObject({ id: a.id, decision: 'shortlisted', etag: now.etag });
    const dismissed = await client.post<{ match: unknown }>(`${base}/${b.id}/dismiss`, { ifMatch: b.etag });
    expect(MatchView.parse(dismissed.body.match).decision).toBe('dismissed');
    expect(await auditRows('match.shortlist', a.id)).toEqual([
      expect.objectContaining({ outcome: 'failure', status: 428 }),
      expect.objectContaining({ object_type: 'match', outcome: 'success', actor_label: email }),
    ]);
    // Another project's match below this project's path does not exist here.
    const seeded = (await matchesOf(client, 'proj_meridiancnc')).items[0]!;
    expect((await client.post(`${base}/${seeded.id}/shortlist`, { ifMatch: seeded.etag })).status).toBe(404);

    const deal = await client.post<{ deal: unknown }>('/api/deals', {
      body: { name: `Deal with ${a.recipient.name}`, business_id: 'biz_meridian', recipient_id: a.recipient.id, project_id: project.id, match_id: a.id },
      idempotencyKey: newIdempotencyKey('deal'),
    });
    expect(deal.status, deal.text).toBe(201);
    expect(DealView.parse(deal.body.deal)).toMatchObject({ recipient: { id: a.recipient.id }, project: { id: project.id, name: project.name } });
    const after = (await matchesOf(client, project.id)).items.find((m) => m.id === a.id)!;
    expect(after.deal?.id).toBe(DealView.parse(deal.body.deal).id);
    const notShortlisted = await client.post('/api/deals', {
      body: { name: 'Deal', business_id: 'biz_meridian', recipient_id: b.recipient.id, project_id: project.id, match_id: b.id },
      idempotencyKey: newIdempotencyKey('deal'),
    });
    expect(notShortlisted.status).toBe(409);

    // The deal's page names its match, read through the link the deal carries (not by walking the project's matches).
    const dealId = DealView.parse(deal.body.deal).id;
    const before = (await callsSince(`/matches/${a.id}/`, 0)).length;
    const page = await client.get(`/deals/${dealId}`, { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain(`${a.recipient.name} – ${a.product.name}`);
    expect(await callsSince(`/matches/${a.id}/`, before)).toEqual([{ method: 'GET', path: `/v1/matches/${a.id}/`, status: 200 }]);
  });

  it('decides on a match this process never listed after one read of it, and refuses another project’s (404) before any write', async () => {
    const { client } = await signedIn('staff');
    const { project } = await matchedProject(client);
    const { project: other } = await matchedProject(client);
    // The other project's matches, read straight from the Portal: the BFF has never seen them.
    const upstreamOther = await portal().read(FundingMatchPage, `projects/${other.id}/matches/?page_size=2`);
    const [m] = upstreamOther.data.items;
    const fragment = `/matches/${m!.id}/`;
    const etag = `"${m!.revision}"`;

    const wrong = await client.post(`/api/projects/${project.id}/matches/${m!.id}/shortlist`, { ifMatch: etag });
    expect(wrong.status, wrong.text).toBe(404);
    const read = await callsSince(fragment, 0);
    expect(read).toEqual([{ method: 'GET', path: `/v1/matches/${m!.id}/`, status: 200 }]);

    // Below its own project it is taken; the read above taught this process whose it is, so no read again.
    const right = await client.post<{ match: unknown }>(`/api/projects/${other.id}/matches/${m!.id}/shortlist`, { ifMatch: etag });
    expect(right.status, right.text).toBe(200);
    expect(MatchView.parse(right.body.match)).toMatchObject({ id: m!.id, decision: 'shortlisted' });
    expect(await callsSince(fragment, read.length)).toEqual([{ method: 'POST', path: `/v1/matches/${m!.id}/shortlist/`, status: 200 }]);
  });
});

describe('live updates of a project', () => {
  it('carries a running match run’s progress from the Portal’s webhooks to the project’s stream, then its end', async () => {
    const { client } = await signedIn('staff');
    const { project } = await newProject(client);
    await writeCriteria(client, project.id, COMPLETE_CRITERIA);
    const stream = await openEventStream(client, `project_id=${project.id}`);
    try {
      expect(stream.status).toBe(200);
      const started = await startRun(client, project.id);
      expect(started.status, started.text).toBe(201);
      const run = MatchRunView.parse(started.body.run);
      await stream.next((m) => m.type === 'match_run.completed' && m.id !== undefined && (m as { project_id?: string }).project_id === project.id);
      // The first progress event goes out as the run starts screening; the clock's speed decides how many follow.
      const progress = await stream.next((m) => m.type === 'match_run.progress');
      expect(progress).toMatchObject({
        project_id: project.id,
        business_id: project.business.id,
        run_progress: { run_id: run.id, attempt_sequence: 1, status: 'running', step: 'screening_funders', total_units: 30 },
      });
      const units = stream.messages
        .filter((m) => m.type === 'match_run.progress')
        .sort((x, y) => String(x.occurred_at).localeCompare(String(y.occurred_at)))
        .map((m) => (m.run_progress as { completed_units: number }).completed_units);
      expect(units).toEqual([...units].sort((x, y) => x - y));
      expect(Math.max(...units)).toBeLessThan(30);
    } finally {
      stream.close();
    }
  });

  it('streams a project’s events to staff and reviewers (its criteria, runs and matches), and to nobody else', async () => {
    const { url, webhookSecret } = bffStack();
    const tag = randomBytes(5).toString('hex');
    const { client: staff } = await signedIn('staff');
    const { client: reviewer } = await signedIn('reviewer');
    const client = await clientSession();
    expect((await openEventStream(client, `project_id=proj_${tag}`)).status).toBe(404);
    expect((await openEventStream(staff, 'project_id=biz_nope')).status).toBe(400);
    const [mine, theirs, other] = await Promise.all([
      openEventStream(staff, `project_id=proj_${tag}`),
      openEventStream(reviewer, `project_id=proj_${tag}`),
      openEventStream(staff, `project_id=proj_other${tag}`),
    ]);
    try {
      expect([mine.status, theirs.status, other.status]).toEqual([200, 200, 200]);
      const d = signedDelivery(webhookSecret, {
        type: 'project.criteria_updated',
        data: { project_id: `proj_${tag}`, business_id: `biz_${tag}`, criteria_id: `pcrit_${tag}`, revision: 3, answers_revision: 2 },
      });
      expect((await postDelivery(url, d)).status).toBe(200);
      for (const s of [mine, theirs]) {
        expect(await s.next((m) => m.id === d.id)).toMatchObject({ type: 'project.criteria_updated', project_id: `proj_${tag}`, business_id: `biz_${tag}`, answers_revision: 2 });
      }
      const marker = signedDelivery(webhookSecret, { type: 'match_run.completed', data: { project_id: `proj_other${tag}`, run_id: `mrun_${tag}` } });
      expect((await postDelivery(url, marker)).status).toBe(200);
      await other.next((m) => m.id === marker.id);
      expect(other.messages.map((m) => m.id)).toEqual([marker.id]);
    } finally {
      for (const s of [mine, theirs, other]) s.close();
    }
  });
});
