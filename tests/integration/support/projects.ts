import {
  AnswerPage,
  CriteriaAnswersMutationResult,
  FundingMatch,
  FundingMatchPage,
  MatchRun,
  Project,
  ProjectCriteria,
  type AnswerItem,
} from '@/lib/portal';
import { newKey, type Res, type SandboxClient } from './sandbox';

/** Helpers for the funding project conformance tests (DESIGN.md §6). */

export interface Write {
  block_key: string;
  schema_key: string;
  field_key: string;
  value: unknown;
}
export const cw = (key: string, value: unknown, field_key = 'value'): Write => ({ block_key: key, schema_key: key, field_key, value });

/** A complete set of criteria (GB manufacturing, GBP 250,000 for equipment, term loans and equipment finance). */
export const COMPLETE_CRITERIA: Write[] = [
  cw('funding_amount', 250_000),
  cw('funding_currency', 'gbp'),
  cw('funding_purpose', ['equipment', 'working_capital']),
  cw('product_kinds', ['term_loan', 'equipment_finance']),
  cw('funding_timeline', 'within_one_month'),
  cw('preferred_term_months', 60),
  cw('date_established', '2015-03-01'),
  cw('industry', 'manufacturing'),
  cw('business_address', 'GB', 'country'),
  cw('business_address', 'West Yorkshire', 'region'),
  cw('annual_revenue', 1_850_000),
  cw('net_profit', 142_500.5),
  cw('credit_band', 'good'),
  cw('can_offer_collateral', true),
  cw('collateral_types', ['equipment', 'personal_guarantee']),
];

export async function createProject(client: SandboxClient, businessId: string, name = 'Conformance project', key?: string) {
  const res = await client.post('projects/', { body: { business_id: businessId, name }, idempotencyKey: newKey('proj'), key });
  if (res.status !== 201) throw new Error(`project create → ${res.status}: ${res.text}`);
  return Project.parse(res.body);
}

export async function readCriteria(client: SandboxClient, project: Project) {
  const { res, data } = await client.read(ProjectCriteria, project.criteria_url);
  return { etag: res.headers.get('etag')!, criteria: data };
}

/** Every criteria answer (one page of up to 500). */
export async function criteriaAnswers(client: SandboxClient, project: Project) {
  const { criteria } = await readCriteria(client, project);
  const { res, data } = await client.read(AnswerPage, `${criteria.answers_url}?page_size=500`);
  return { etag: res.headers.get('etag')!, revision: data.answers_revision, items: data.items };
}

export const valueOf = (items: AnswerItem[], schema: string, field = 'value') =>
  items.find((a) => a.schema_key === schema && a.field_key === field)?.value;

/** PATCH the criteria answers at the current revision and ETag; returns the raw response. */
export async function writeCriteria(client: SandboxClient, project: Project, answers: Write[], key?: string): Promise<Res> {
  const { criteria } = await readCriteria(client, project);
  const { etag, revision } = await criteriaAnswers(client, project);
  return client.patch(criteria.answers_url, { ifMatch: etag, body: { answers_revision: revision, answers }, key });
}

export async function mustWriteCriteria(client: SandboxClient, project: Project, answers: Write[]) {
  const res = await writeCriteria(client, project, answers);
  if (res.status !== 200) throw new Error(`criteria write → ${res.status}: ${res.text}`);
  return CriteriaAnswersMutationResult.parse(res.body);
}

/** POST match-runs/ quoting the criteria's current revision (or `revision`). */
export async function startRun(client: SandboxClient, project: Project, o: { revision?: number; idempotencyKey?: string; key?: string } = {}) {
  const revision = o.revision ?? (await readCriteria(client, project)).criteria.revision;
  return client.post(project.match_runs_url, { body: { expected_criteria_revision: revision }, idempotencyKey: o.idempotencyKey ?? newKey('run'), key: o.key });
}

export async function mustStartRun(client: SandboxClient, project: Project) {
  const res = await startRun(client, project);
  if (res.status !== 201) throw new Error(`run start → ${res.status}: ${res.text}`);
  return MatchRun.parse(res.body);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls a run until it has finished (completed or failed). */
export async function waitForRun(client: SandboxClient, run: MatchRun, timeoutMs = 20_000): Promise<MatchRun> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data } = await client.read(MatchRun, run.url);
    if (data.status === 'completed' || data.status === 'failed') return data;
    if (Date.now() > deadline) throw new Error(`timed out waiting for run ${run.id}: ${JSON.stringify(data)}`);
    await sleep(10);
  }
}

/** A project of a new business with complete criteria and a completed run. */
export async function matchedProject(client: SandboxClient, businessId: string, criteria: Write[] = COMPLETE_CRITERIA) {
  const project = await createProject(client, businessId);
  await mustWriteCriteria(client, project, criteria);
  const run = await waitForRun(client, await mustStartRun(client, project));
  if (run.status !== 'completed') throw new Error(`run ${run.id} ${run.status}: ${JSON.stringify(run.failure)}`);
  return { project, run };
}

/** Every match of a collection, walking forward with `pageSize`. */
export async function allMatches(client: SandboxClient, url: string, pageSize = 100, query = '') {
  const items: FundingMatch[] = [];
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const q = new URLSearchParams(query);
    q.set('page_size', String(pageSize));
    if (cursor) q.set('cursor', cursor);
    const { data } = await client.read(FundingMatchPage, `${url}?${q}`);
    items.push(...data.items);
    pages.push(data.items.map((m) => m.id));
    cursor = data.next_cursor;
  } while (cursor);
  return { items, pages };
}

export async function readMatch(client: SandboxClient, id: string) {
  const { res, data } = await client.read(FundingMatch, `matches/${id}/`);
  return { etag: res.headers.get('etag')!, match: data };
}
