import { MatchRun, MatchRunPage, MatchRunStartBody, PageQuery, LIMITS } from '@/lib/portal';
import { requirements } from '../domain/answers';
import { criteriaOf, projectOf } from '../funding/projects';
import { retryRun, runEtag, runInProgress, runView, startRun } from '../funding/runs';
import { fundingState } from '../funding/state';
import type { MatchRunRec, ProjectRec } from '../funding/types';
import type { RouteDef } from '../http/context';
import { SandboxError, notFound } from '../http/errors';
import { keysetPage } from '../http/paging';
import type { Sandbox } from '../sandbox';

/*
 * Match runs (DESIGN.md §6): start one for a project (Idempotency-Key, expected_criteria_revision), list a
 * project's runs, read one, retry a failed one. Reads need projects:read, start and retry projects:write.
 */

function runOf(sb: Sandbox, id: string): MatchRunRec {
  const r = fundingState(sb).runs[id];
  if (!r) throw notFound('match run');
  return r;
}

/** 422 naming every required criteria answer still missing (visibility taken into account). */
function assertCriteriaComplete(sb: Sandbox, p: ProjectRec) {
  const criteria = criteriaOf(sb, p);
  const missing = requirements(criteria, sb.index(criteria)).filter((r) => !r.done);
  if (missing.length > 0) {
    throw new SandboxError(
      'validation_failed',
      `${missing.length} required criteria answer${missing.length === 1 ? ' is' : 's are'} missing.`,
      missing.map((r) => r.detail),
    );
  }
  return criteria;
}

export const matchRunRoutes: RouteDef[] = [
  {
    // POST projects/{id}/match-runs/ – start a run for the criteria at expected_criteria_revision
    method: 'POST',
    path: 'projects/:id/match-runs/',
    access: ['projects:write'],
    idempotency: 'required',
    summary:
      'Start a match run (412 when expected_criteria_revision is not the criteria’s revision, 409 while a run is pending or running, 422 naming the required criteria still missing)',
    tag: 'projects',
    requestBody: MatchRunStartBody,
    response: MatchRun,
    successStatus: 201,
    handle: async (ctx) => {
      const { sb, params } = ctx;
      const p = projectOf(sb, params.id!);
      const body = await ctx.body(MatchRunStartBody);
      const criteria = criteriaOf(sb, p);
      if (body.expected_criteria_revision !== criteria.revision) {
        throw new SandboxError('precondition_failed', 'The criteria changed since you read them: re-read them and start with their current revision.', [
          {
            code: 'stale_revision',
            message: `Revision ${body.expected_criteria_revision} is not the current revision (${criteria.revision}).`,
            parameter: 'expected_criteria_revision',
          },
        ]);
      }
      const running = runInProgress(sb, p);
      if (running) {
        throw new SandboxError('conflict', `A match run of this project is ${running.status}; start another when it has finished.`, [
          { code: 'run_in_progress', message: `${running.id} is ${running.status}.` },
        ]);
      }
      assertCriteriaComplete(sb, p);
      const run = startRun(sb, p, criteria);
      return { status: 201, headers: { Location: sb.urls.matchRun(run.id), ETag: runEtag(run) }, body: runView(sb, run) };
    },
  },
  {
    // GET projects/{id}/match-runs/ – the project's runs, newest first
    method: 'GET',
    path: 'projects/:id/match-runs/',
    access: ['projects:read'],
    query: PageQuery,
    summary: 'List a project’s match runs, newest first',
    tag: 'projects',
    response: MatchRunPage,
    handle: ({ sb, params, query }) => {
      const p = projectOf(sb, params.id!);
      const runs = Object.values(fundingState(sb).runs)
        .filter((r) => r.project_id === p.id)
        .sort((a, b) => b.seq - a.seq);
      const page = keysetPage({
        sb,
        items: runs,
        keyOf: (r) => -r.seq,
        scope: `mruns:${p.id}`,
        pageSize: (query.page_size as number | undefined) ?? LIMITS.paging.default,
        cursor: query.cursor as string | undefined,
        backward: true,
      });
      return { status: 200, body: { ...page, items: page.items.map((r) => runView(sb, r)) } };
    },
  },
  {
    // GET match-runs/{id}/ – one run with its progress
    method: 'GET',
    path: 'match-runs/:id/',
    access: ['projects:read'],
    summary: 'Read a match run',
    tag: 'projects',
    response: MatchRun,
    handle: ({ sb, params }) => {
      const run = runOf(sb, params.id!);
      return { status: 200, headers: { ETag: runEtag(run) }, body: runView(sb, run) };
    },
  },
  {
    // POST match-runs/{id}/retry/ – a new attempt of the project's latest run when it failed
    method: 'POST',
    path: 'match-runs/:id/retry/',
    access: ['projects:write'],
    idempotency: 'required',
    summary:
      'Retry a failed run: a new attempt of the same run (attempt_sequence + 1) with the criteria and funders as they are now; 409 unless can_retry, 422 when required criteria are missing',
    tag: 'projects',
    response: MatchRun,
    handle: ({ sb, params }) => {
      const run = runOf(sb, params.id!);
      const p = projectOf(sb, run.project_id);
      if (run.status !== 'failed') {
        throw new SandboxError('conflict', `Only a failed run can be retried; this one is ${run.status}.`, [
          { code: 'not_retryable', message: 'can_retry is false.' },
        ]);
      }
      if (p.latest_run_id !== run.id) {
        throw new SandboxError('conflict', 'A newer run of this project exists; only the latest run can be retried.', [
          { code: 'not_retryable', message: `The latest run is ${p.latest_run_id}.` },
        ]);
      }
      const criteria = assertCriteriaComplete(sb, p);
      retryRun(sb, run, p, criteria);
      return { status: 200, headers: { ETag: runEtag(run) }, body: runView(sb, run) };
    },
  },
];
