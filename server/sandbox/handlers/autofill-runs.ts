import {
  AutofillRun,
  AutofillRunPage,
  AutofillSuggestion,
  AutofillSuggestionPage,
  PageQuery,
  SuggestionAcceptResult,
  SuggestionsQuery,
  type AutofillSuggestion as Suggestion,
  type Permission,
} from '@/lib/portal';
import { preparationOf, runInProgress } from '../autofill/preparation';
import { retryRun, runReply, runView } from '../autofill/runs';
import { existingAutofillOf } from '../autofill/state';
import { assertPending, effectiveStatus, suggestionView, writeSuggestion } from '../autofill/suggestions';
import type { ApplicationAutofill } from '../autofill/types';
import { fileValues } from '../domain/answers';
import type { RouteDef } from '../http/context';
import { SandboxError, notFound } from '../http/errors';
import { keysetPage, pageQuery } from '../http/paging';
import type { Sandbox } from '../sandbox';
import { answersChanged } from './answers';
import { CLIENT_INTAKE, assertOpen } from './application-kinds';
import { belowApplication } from './application-routes';

/*
 * Autofill runs and suggestions (spec 2.12-2.13, DESIGN.md §5): list and read runs, retry a failed one,
 * list a run's suggestions, accept or dismiss one. Reads need applications:read; the rest autofill:write.
 */

const RUNS = 'autofill-runs/';
const SUGGESTION = 'autofill-suggestions/:suggestion/';
const AUTOFILL_WRITE: Permission[] = ['autofill:write'];

function runOf(a: ApplicationAutofill | undefined, runId: string) {
  const run = a?.runs[runId];
  if (!run) throw notFound('autofill run');
  return run;
}

function suggestionOf(sb: Sandbox, appId: string, suggestionId: string) {
  const a = existingAutofillOf(sb, appId);
  const s = a?.suggestions[suggestionId];
  if (!a || !s) throw notFound('autofill suggestion');
  return { a, s };
}

export const autofillRunRoutes: RouteDef[] = belowApplication(CLIENT_INTAKE, 'autofill', [
  {
    // GET client-intake-applications/{id}/autofill-runs/ – the application's runs, newest first
    method: 'GET',
    path: RUNS,
    query: PageQuery,
    summary: 'List Autofill runs, newest first',
    response: AutofillRunPage,
    handle: ({ sb, query }, app) => {
      const a = preparationOf(sb, app.id);
      const runs = Object.values(a.runs).sort((x, y) => y.seq - x.seq);
      const page = keysetPage({
        sb,
        items: runs,
        keyOf: (r) => -r.seq,
        scope: `afruns:${app.id}`,
        ...pageQuery(query),
        backward: true,
      });
      return { status: 200, body: { ...page, items: page.items.map((r) => runView(sb, r)) } };
    },
  },
  {
    // GET client-intake-applications/{id}/autofill-runs/{run_id}/ – one run with its progress
    method: 'GET',
    path: `${RUNS}:run/`,
    summary: 'Read an Autofill run',
    response: AutofillRun,
    handle: ({ sb, params }, app) => runReply(sb, runOf(existingAutofillOf(sb, app.id), params.run!)),
  },
  {
    // POST client-intake-applications/{id}/autofill-runs/{run_id}/retry/ – a new attempt of a failed run
    method: 'POST',
    path: `${RUNS}:run/retry/`,
    access: AUTOFILL_WRITE,
    open: true,
    idempotency: 'required',
    summary: 'Retry a failed run: a new attempt of the same run (attempt_sequence + 1) that reads the evidence again; 409 unless can_retry',
    response: AutofillRun,
    handle: ({ sb, params }, app) => {
      const a = existingAutofillOf(sb, app.id);
      const run = runOf(a, params.run!);
      if (run.status !== 'failed') {
        throw new SandboxError('conflict', `Only a failed run can be retried; this one is ${run.status}.`, [
          { code: 'not_retryable', message: 'can_retry is false.' },
        ]);
      }
      if (runInProgress(a!)) {
        throw new SandboxError('conflict', 'Another run of this application is in progress; retry when it has finished.', [
          { code: 'run_in_progress', message: 'Wait for the run in progress to finish.' },
        ]);
      }
      retryRun(sb, a!, run);
      return runReply(sb, run);
    },
  },
  {
    // GET client-intake-applications/{id}/autofill-runs/{run_id}/suggestions/ – the run's suggestions in contract order
    method: 'GET',
    path: `${RUNS}:run/suggestions/`,
    query: SuggestionsQuery,
    summary: 'List a run’s suggestions in contract order, optionally by status (stale is worked out on each read)',
    response: AutofillSuggestionPage,
    handle: ({ sb, params, query }, app) => {
      const a = existingAutofillOf(sb, app.id);
      const run = runOf(a, params.run!);
      const status = query.status as Suggestion['status'] | undefined;
      const files = fileValues(app);
      const all = Object.values(a!.suggestions)
        .filter((s) => s.run_id === run.id && (status === undefined || effectiveStatus(sb, app, s, files) === status))
        .sort((x, y) => x.seq - y.seq);
      const page = keysetPage({
        sb,
        items: all,
        keyOf: (s) => s.seq,
        scope: `afsug:${app.id}:${run.id}:${status ?? ''}`,
        ...pageQuery(query),
        backward: true,
      });
      return { status: 200, body: { ...page, items: page.items.map((s) => suggestionView(sb, app, s, files)) } };
    },
  },
  {
    // POST client-intake-applications/{id}/autofill-suggestions/{suggestion_id}/accept/ – write the proposed value
    method: 'POST',
    path: `${SUGGESTION}accept/`,
    access: AUTOFILL_WRITE,
    idempotency: 'optional',
    summary:
      'Accept a pending suggestion: its value is written as the answer (validated like an answer write; 422 when outside the value_schema); returns the suggestion and the new answers_revision. 409 when not pending (stale_suggestion when the answer changed after the run).',
    response: SuggestionAcceptResult,
    handle: ({ sb, params }, app) => {
      const { s } = suggestionOf(sb, app.id, params.suggestion!);
      assertOpen(app);
      assertPending(sb, app, s, 'accept');
      if (writeSuggestion(sb, app, s)) answersChanged(sb, app);
      s.status = 'accepted';
      s.updated_at = sb.now();
      sb.changed();
      return { status: 200, body: { suggestion: suggestionView(sb, app, s), answers_revision: app.answers_revision } };
    },
  },
  {
    // POST client-intake-applications/{id}/autofill-suggestions/{suggestion_id}/dismiss/ – set a suggestion aside
    method: 'POST',
    path: `${SUGGESTION}dismiss/`,
    access: AUTOFILL_WRITE,
    idempotency: 'optional',
    summary: 'Dismiss a pending suggestion (409 when not pending)',
    response: AutofillSuggestion,
    handle: ({ sb, params }, app) => {
      const { s } = suggestionOf(sb, app.id, params.suggestion!);
      assertPending(sb, app, s, 'dismiss');
      s.status = 'dismissed';
      s.updated_at = sb.now();
      sb.changed();
      return { status: 200, body: suggestionView(sb, app, s) };
    },
  },
]);
