import 'server-only';
import { BoundedCache } from '@/lib/bounded-cache';
import type { RunsQuery, SuggestionsQuery } from '@/lib/bff/autofill';
import { AutofillRun, AutofillRunPage, AutofillSuggestionPage, type AutofillStartBody } from '@/lib/portal';
import type { IntakeLinks } from '@/server/applications/intake-application';
import { AppError } from '@/server/http/app-error';
import { portalRequest, readFilteredPage, urlBelow } from '@/server/portal';

/*
 * Runs are named by id in the browser; their URLs (url, retry_url, suggestions_url) come from run reads and
 * are kept per application and run, so a retry or a page of suggestions costs one upstream call. A run not
 * seen yet is read at `autofill_runs_url` + its id.
 */

interface RunLinks {
  url: string;
  retry: string;
  suggestions: string;
}

const cache = new BoundedCache<string, RunLinks>(10_000);
const keyOf = (applicationId: string, runId: string) => `${applicationId} ${runId}`;

/** Learns a run's URLs, but only from a run of this application (a Portal mix-up must not cross applications). */
function learn(applicationId: string, run: AutofillRun) {
  if (run.application.id !== applicationId) {
    throw new AppError('not_found', 'That Autofill run does not exist.');
  }
  const key = keyOf(applicationId, run.id);
  cache.set(key, { url: run.url, retry: run.retry_url, suggestions: run.suggestions_url });
  return run;
}

export async function listRuns(applicationId: string, links: IntakeLinks, query: RunsQuery) {
  const res = await portalRequest({ url: links.autofillRuns, schema: AutofillRunPage, query });
  const own = res.data.items.filter((run) => run.application.id === applicationId);
  for (const run of own) learn(applicationId, run);
  return { ...res, data: { ...res.data, items: own } };
}

export async function readRun(applicationId: string, links: IntakeLinks, runId: string) {
  const known = cache.get(keyOf(applicationId, runId));
  const res = await portalRequest({ url: known?.url ?? urlBelow(links.autofillRuns, runId), schema: AutofillRun });
  learn(applicationId, res.data);
  return res;
}

async function runLinks(applicationId: string, links: IntakeLinks, runId: string): Promise<RunLinks> {
  const known = cache.get(keyOf(applicationId, runId));
  if (known) return known;
  await readRun(applicationId, links, runId);
  return cache.get(keyOf(applicationId, runId))!;
}

/** Starts a run at the preparation's start_url; the browser's Idempotency-Key goes on unchanged. */
export async function startRun(
  applicationId: string,
  startUrl: string,
  body: AutofillStartBody,
  idempotencyKey: string,
) {
  const res = await portalRequest({ method: 'POST', url: startUrl, schema: AutofillRun, body, idempotencyKey });
  learn(applicationId, res.data);
  return res;
}

/** A new attempt of a failed run, at its retry_url (409 from the Portal unless can_retry). */
export async function retryRun(applicationId: string, links: IntakeLinks, runId: string, idempotencyKey: string) {
  const { retry } = await runLinks(applicationId, links, runId);
  const res = await portalRequest({ method: 'POST', url: retry, schema: AutofillRun, idempotencyKey });
  learn(applicationId, res.data);
  return res;
}

export async function listSuggestions(
  applicationId: string,
  links: IntakeLinks,
  runId: string,
  query: SuggestionsQuery,
) {
  const { suggestions } = await runLinks(applicationId, links, runId);
  return readFilteredPage({ url: suggestions, schema: AutofillSuggestionPage, query });
}
