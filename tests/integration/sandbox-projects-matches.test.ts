import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deal, DealProjectRef, FITS, FundingMatch, FundingMatchPage, MatchRun, PRODUCT_KINDS, RecipientPage } from '@/lib/portal';
import type { SandboxEvent } from '@/server/sandbox/events';
import { DEMO_KEYS } from '@/server/sandbox/keys';
import { uploadFile } from './support/applications';
import { createBusiness } from './support/businesses';
import {
  COMPLETE_CRITERIA,
  allMatches,
  createProject,
  cw,
  matchedProject,
  mustStartRun,
  mustWriteCriteria,
  readMatch,
  waitForRun,
} from './support/projects';
import { SandboxClient, expectError, newKey, setupSandbox, keyWith } from './support/sandbox';

/*
 * Conformance of matches (DESIGN.md §6): the deterministic ranking and reasons, filters and cursors bound to them,
 * staleness, shortlist and dismiss with If-Match, a deal made from a match, and a paging walk over the matches of
 * 1,000 generated funders.
 */

const DEALS_ONLY = keyWith('deals only', ['deals:write', 'businesses:read']);

const ctx = setupSandbox({ keys: [...DEMO_KEYS, DEALS_ONLY], controls: true });

const events: SandboxEvent[] = [];
let unsubscribe = () => {};
beforeAll(() => {
  ctx.running.sandbox.clock.setSpeed(1_000);
  unsubscribe = ctx.running.sandbox.events.subscribe((e) => events.push(e));
});
afterAll(() => unsubscribe());

async function newBusiness(name = 'Matches Test Ltd') {
  const { data } = await createBusiness(ctx.client, { name });
  return { businessId: data.business.id, appId: data.application.id };
}

/** Whole months from 2015-03-01 (COMPLETE_CRITERIA's date_established) to today (UTC). */
function monthsTradingToday() {
  const [y, m] = new Date().toISOString().slice(0, 10).split('-').map(Number) as [number, number];
  return (y - 2015) * 12 + (m - 3);
}

const idOf = (m: FundingMatch) => `${m.recipient.id}|${m.product.name}`;

describe('ranking and reasons', () => {
  it('ranks the seeded funders for a known set of criteria, best first, with a stable tie-break', async () => {
    const { businessId } = await newBusiness();
    const { project, run } = await matchedProject(ctx.client, businessId);
    const { items } = await allMatches(ctx.client, project.matches_url, 7);
    expect(items.map((m) => [idOf(m), m.score, m.fit])).toEqual([
      ['rcpt_ironbridge|Equipment hire purchase', 100, 'strong'],
      ['rcpt_summitcredit|Growth loan', 100, 'strong'],
      ['rcpt_harbourbank|Business term loan', 93, 'good'],
      ['rcpt_thistle|Enterprise loan', 72, 'possible'],
      ['rcpt_lantern|Refit and expansion loan', 38, 'unlikely'],
      ['rcpt_meadowbank|Farm machinery finance', 38, 'unlikely'],
      ['rcpt_oakmere|Clinical equipment finance', 38, 'unlikely'],
      ['rcpt_oakmere|Practice loan', 38, 'unlikely'],
      ['rcpt_cascade|Commercial term loan', 36, 'unlikely'],
      ['rcpt_continental|Equipment lease', 36, 'unlikely'],
      ['rcpt_empirestate|Small business loan', 36, 'unlikely'],
      ['rcpt_goldengate|Equipment loan', 36, 'unlikely'],
      ['rcpt_liffey|SME loan', 36, 'unlikely'],
      ['rcpt_evergreen|Community business loan', 35, 'unlikely'],
      ['rcpt_redwood|Practice acquisition and real estate loan', 35, 'unlikely'],
      ['rcpt_liberty|SBA-backed term loan', 34, 'unlikely'],
      ['rcpt_pennine|Expansion loan', 29, 'unlikely'],
      ['rcpt_meadowbank|Farm land and buildings loan', 28, 'unlikely'],
      ['rcpt_crown|Property investment loan', 26, 'unlikely'],
      ['rcpt_northgate|Commercial mortgage', 26, 'unlikely'],
    ]);
    for (const m of items) {
      expect(m).toMatchObject({ object: 'funding_match', revision: 0, run: { id: run.id, object: 'match_run' }, decision: 'none', deal: null, stale: false });
      expect(m.id).toMatch(/^match_[a-z0-9]+$/);
      // Every match of a page carries its own url, which reads it.
      expect(m.url).toBe(`${ctx.client.baseUrl}matches/${m.id}/`);
      expect(['term_loan', 'equipment_finance']).toContain(m.product.kind);
    }
  });

  it('gives every reason: what the funder expects, what the criteria say, and whether that fits', async () => {
    const { businessId } = await newBusiness();
    const { project } = await matchedProject(ctx.client, businessId);
    const { items } = await allMatches(ctx.client, project.matches_url);
    const months = `${monthsTradingToday()} months`;

    const thistle = items.find((m) => m.recipient.id === 'rcpt_thistle')!;
    const { match, etag } = await readMatch(ctx.client, thistle.id);
    expect(match).toEqual(thistle);
    expect((await ctx.client.read(FundingMatch, thistle.url)).data).toEqual(thistle);
    // The ETag is the revision alone, quoted: what the page showed.
    expect(etag).toBe(`"${thistle.revision}"`);
    expect(match).toMatchObject({
      recipient: { id: 'rcpt_thistle', object: 'recipient', name: 'Thistle Enterprise Finance' },
      product: { name: 'Enterprise loan', kind: 'term_loan' },
      score: 72,
      fit: 'possible',
      amount_range: { min: 10_000, max: 400_000, currency: 'GBP' },
      rate_range: { min: 7, max: 12 },
      term_months: { min: 12, max: 48 },
    });
    expect(match.criteria).toEqual([
      { key: 'amount', label: 'Amount', status: 'met', expected: 'GBP 10,000 – 400,000', actual: 'GBP 250,000', message: 'The amount is within what this product lends.' },
      { key: 'currency', label: 'Currency', status: 'met', expected: 'GBP', actual: 'GBP', message: 'Lends in GBP.' },
      { key: 'purpose', label: 'Purpose', status: 'met', expected: 'Any purpose', actual: 'Equipment and working capital', message: 'Funds any purpose.' },
      { key: 'time_trading', label: 'Time trading', status: 'met', expected: 'At least 24 months', actual: months, message: 'Trading for long enough.' },
      { key: 'annual_revenue', label: 'Annual revenue', status: 'met', expected: 'At least 100,000', actual: '1,850,000', message: 'Revenue meets the minimum.' },
      { key: 'profitability', label: 'Profitability', status: 'met', expected: 'Not required', actual: 'Profit of 142,500.5', message: 'Lends to loss-making businesses too.' },
      { key: 'credit_band', label: 'Credit rating', status: 'met', expected: 'Excellent, good or fair', actual: 'Good', message: 'The credit rating is accepted.' },
      { key: 'industry', label: 'Industry', status: 'met', expected: 'Any industry', actual: 'Manufacturing', message: 'Lends to manufacturing.' },
      { key: 'region', label: 'Region', status: 'met', expected: 'GB', actual: 'GB, West Yorkshire', message: 'Lends in GB.' },
      {
        key: 'collateral',
        label: 'Security',
        status: 'not_met',
        expected: 'Required: property',
        actual: 'Offered: equipment and personal guarantee',
        message: 'Accepts property, not equipment or personal guarantee.',
      },
      {
        key: 'timeline',
        label: 'Time to funds',
        status: 'not_met',
        expected: 'About 35 days',
        actual: 'Within one month',
        message: 'Usually takes 35 days; the funds are needed within one month.',
      },
      { key: 'term', label: 'Term', status: 'not_met', expected: '12 – 48 months', actual: '60 months', message: 'Terms run 12 – 48 months.' },
    ]);
    expect(match.documents).toEqual([
      { key: 'bank_statements', label: 'Business bank statements', status: 'missing' },
      { key: 'annual_accounts', label: 'Latest annual accounts', status: 'missing' },
    ]);

    const pennine = items.find((m) => m.recipient.id === 'rcpt_pennine')!;
    expect(pennine.criteria.filter((c) => c.status !== 'met')).toEqual([
      {
        key: 'purpose',
        label: 'Purpose',
        status: 'not_met',
        expected: 'Expansion or acquisition',
        actual: 'Equipment and working capital',
        message: 'Does not fund equipment or working capital.',
      },
      {
        key: 'annual_revenue',
        label: 'Annual revenue',
        status: 'not_met',
        expected: 'At least 2,000,000',
        actual: '1,850,000',
        message: 'Below the minimum annual revenue of 2,000,000.',
      },
      {
        key: 'timeline',
        label: 'Time to funds',
        status: 'not_met',
        expected: 'About 60 days',
        actual: 'Within one month',
        message: 'Usually takes 60 days; the funds are needed within one month.',
      },
    ]);
    expect(pennine.criteria.find((c) => c.key === 'region')).toMatchObject({ expected: 'GB except Northern Ireland', status: 'met' });
    const evergreen = items.find((m) => m.recipient.id === 'rcpt_evergreen')!;
    expect(evergreen.criteria.filter((c) => c.status !== 'met').map((c) => [c.key, c.message])).toEqual([['amount', "Above this product's maximum of GBP 150,000."]]);
    const cascade = items.find((m) => m.recipient.id === 'rcpt_cascade')!;
    expect(cascade.criteria.filter((c) => c.status !== 'met').map((c) => [c.key, c.message])).toEqual([
      ['currency', 'Lends in USD only, not GBP.'],
      ['region', 'Does not lend in GB.'],
    ]);
  });

  it('leaves a criterion unknown (half its weight) when an optional answer is not given', async () => {
    const { businessId } = await newBusiness();
    const criteria = COMPLETE_CRITERIA.filter((a) => a.schema_key !== 'net_profit' && a.schema_key !== 'preferred_term_months');
    const { project } = await matchedProject(ctx.client, businessId, criteria);
    const { items } = await allMatches(ctx.client, project.matches_url);
    const harbour = items.find((m) => m.recipient.id === 'rcpt_harbourbank')!;
    // Harbour requires a profit (12) and has a term (7): both unknown, timeline (7) not met: 100 - 6 - 3.5 - 7 = 83.5
    expect([harbour.score, harbour.fit]).toEqual([84, 'good']);
    expect(harbour.criteria.filter((c) => c.status === 'unknown')).toEqual([
      { key: 'profitability', label: 'Profitability', status: 'unknown', expected: 'A profit in the last financial year', actual: null, message: 'Net profit is not given.' },
      { key: 'term', label: 'Term', status: 'unknown', expected: '12 – 120 months', actual: null, message: 'No preferred term is given.' },
    ]);
  });

  it('lists a funder’s required documents as provided once the intake application has files for them', async () => {
    const { businessId, appId } = await newBusiness('Documented Ltd');
    await uploadFile(ctx.client, appId, { block_key: 'bank_statements', schema_key: 'bank_statements', field_key: 'files' });
    const { project } = await matchedProject(ctx.client, businessId);
    const { items } = await allMatches(ctx.client, project.matches_url);
    expect(items.find((m) => m.recipient.id === 'rcpt_harbourbank')!.documents).toEqual([
      { key: 'bank_statements', label: 'Business bank statements', status: 'provided' },
      { key: 'annual_accounts', label: 'Latest annual accounts', status: 'missing' },
      { key: 'owner_id', label: 'ID for each owner', status: 'missing' },
    ]);
  });

  it('has no matches before a run completes', async () => {
    const { businessId } = await newBusiness();
    const project = await createProject(ctx.client, businessId);
    const { data } = await ctx.client.read(FundingMatchPage, project.matches_url);
    expect(data).toEqual({ object: 'list', items: [], next_cursor: null, previous_cursor: null });
  });
});

describe('filters and cursors', () => {
  it('filters by fit and product kind, in rank order', async () => {
    const { businessId } = await newBusiness();
    const { project } = await matchedProject(ctx.client, businessId);
    const { items: all } = await allMatches(ctx.client, project.matches_url);
    const { items: strong } = await allMatches(ctx.client, project.matches_url, 100, 'fit=strong');
    expect(strong.map(idOf)).toEqual(['rcpt_ironbridge|Equipment hire purchase', 'rcpt_summitcredit|Growth loan']);
    const { items: equipment } = await allMatches(ctx.client, project.matches_url, 2, 'product_kind=equipment_finance');
    expect(equipment.map((m) => m.id)).toEqual(all.filter((m) => m.product.kind === 'equipment_finance').map((m) => m.id));
    expect(equipment.length).toBe(5);
    const { items: both } = await allMatches(ctx.client, project.matches_url, 100, 'fit=unlikely&product_kind=equipment_finance');
    expect(both.map((m) => m.id)).toEqual(all.filter((m) => m.fit === 'unlikely' && m.product.kind === 'equipment_finance').map((m) => m.id));
    const { items: none } = await allMatches(ctx.client, project.matches_url, 100, 'product_kind=grant');
    expect(none).toEqual([]);

    for (const [query, parameter] of [
      ['fit=great', 'fit'],
      ['product_kind=mortgage', 'product_kind'],
      ['score=90', 'score'],
      ['page_size=0', 'page_size'],
      ['page_size=101', 'page_size'],
    ]) {
      const error = expectError(await ctx.client.get(`${project.matches_url}?${query}`), 400, 'invalid_request');
      expect(error.details.map((d) => d.parameter)).toContain(parameter);
    }
  });

  it('binds a cursor to its run, filters and page size: any other gets 400', async () => {
    const { businessId } = await newBusiness();
    const { project, run } = await matchedProject(ctx.client, businessId);
    const { data } = await ctx.client.read(FundingMatchPage, `${project.matches_url}?fit=unlikely&page_size=5`);
    const cursor = encodeURIComponent(data.next_cursor!);
    const { data: next } = await ctx.client.read(FundingMatchPage, `${project.matches_url}?fit=unlikely&page_size=5&cursor=${cursor}`);
    expect(next.items.every((m) => m.fit === 'unlikely')).toBe(true);
    // The run's own matches_url pages the same list.
    expect((await ctx.client.read(FundingMatchPage, `${run.matches_url}?fit=unlikely&page_size=5&cursor=${cursor}`)).data).toEqual(next);
    for (const query of ['fit=strong&page_size=5', 'page_size=5', 'fit=unlikely&product_kind=term_loan&page_size=5', 'fit=unlikely&page_size=6']) {
      const error = expectError(await ctx.client.get(`${project.matches_url}?${query}&cursor=${cursor}`), 400, 'invalid_request');
      expect(error.details).toEqual([expect.objectContaining({ code: 'invalid_parameter', parameter: 'cursor' })]);
    }
    // Another project's matches, and a cursor altered by one character.
    expectError(await ctx.client.get(`projects/proj_meridiancnc/matches/?fit=unlikely&page_size=5&cursor=${cursor}`), 400, 'invalid_request');
    const altered = data.next_cursor!.slice(0, -1) + (data.next_cursor!.endsWith('A') ? 'B' : 'A');
    expectError(await ctx.client.get(`${project.matches_url}?fit=unlikely&page_size=5&cursor=${encodeURIComponent(altered)}`), 400, 'invalid_request');

    // A newer completed run starts a new collection: the old cursor no longer pages the project's matches.
    await waitForRun(ctx.client, await mustStartRun(ctx.client, project));
    expectError(await ctx.client.get(`${project.matches_url}?fit=unlikely&page_size=5&cursor=${cursor}`), 400, 'invalid_request');
  });
});

describe('staleness and decisions', () => {
  it('marks every match stale once the criteria change after the run, and a recalculation is current again', async () => {
    const { businessId } = await newBusiness();
    const { project, run } = await matchedProject(ctx.client, businessId);
    const { items } = await allMatches(ctx.client, project.matches_url);
    const first = items[0]!;
    const before = await readMatch(ctx.client, first.id);
    expect(before.etag).toBe('"0"');
    expect((await ctx.client.post(`matches/${first.id}/shortlist/`, { ifMatch: before.etag })).status).toBe(200);

    await mustWriteCriteria(ctx.client, project, [cw('funding_amount', 120_000)]);
    const { items: stale } = await allMatches(ctx.client, project.matches_url);
    expect(stale.map((m) => m.id)).toEqual(items.map((m) => m.id));
    expect(stale.every((m) => m.stale)).toBe(true);
    // Going stale changes no match: its ETag follows its revision alone.
    const after = await readMatch(ctx.client, first.id);
    expect(after.etag).toBe('"1"');
    expect(after.match).toMatchObject({ revision: 1, stale: true });
    // So a decision quoting the revision of a page read before the change is taken, and says the match is stale.
    const second = items[1]!;
    const taken = await ctx.client.post(`matches/${second.id}/shortlist/`, { ifMatch: `"${second.revision}"` });
    expect(taken.status).toBe(200);
    expect(taken.headers.get('etag')).toBe('"1"');
    expect(FundingMatch.parse(taken.body)).toMatchObject({ decision: 'shortlisted', stale: true, revision: 1 });

    // Recalculate: new matches, current, keeping the decisions of the same funder's product.
    const recalculated = await waitForRun(ctx.client, await mustStartRun(ctx.client, project));
    const { items: current } = await allMatches(ctx.client, project.matches_url);
    expect(current.every((m) => !m.stale && m.run.id === recalculated.id)).toBe(true);
    expect(current.filter((m) => m.decision === 'shortlisted').map(idOf).sort()).toEqual([idOf(first), idOf(second)].sort());
    expect(current.find((m) => m.recipient.id === 'rcpt_evergreen')).toMatchObject({ fit: 'strong', score: 100 });
    // The earlier run's matches can still be read, and stay stale.
    expect((await readMatch(ctx.client, first.id)).match).toMatchObject({ run: { id: run.id }, stale: true });
  });

  it('shortlists and dismisses with If-Match: 428 without, 412 when stale, 409 when unchanged', async () => {
    const { businessId } = await newBusiness();
    const { project } = await matchedProject(ctx.client, businessId);
    const { items } = await allMatches(ctx.client, project.matches_url);
    const id = items[3]!.id;
    const url = (action: string) => `matches/${id}/${action}/`;
    expectError(await ctx.client.post(url('shortlist')), 428, 'precondition_required');
    expectError(await ctx.client.post(url('shortlist'), { ifMatch: '"5"' }), 412, 'precondition_failed');
    // Only the quoted revision is the ETag: not the bare number, nor another shape around it.
    expectError(await ctx.client.post(url('shortlist'), { ifMatch: '0' }), 412, 'precondition_failed');
    expectError(await ctx.client.post(url('shortlist'), { ifMatch: `"match-${id}-0"` }), 412, 'precondition_failed');

    const key = newKey('shortlist');
    const res = await ctx.client.post(url('shortlist'), { ifMatch: '"0"', idempotencyKey: key });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"1"');
    const shortlisted = FundingMatch.parse(res.body);
    expect(shortlisted).toMatchObject({ id, decision: 'shortlisted', revision: 1, stale: false });
    expect(shortlisted.updated_at >= shortlisted.created_at).toBe(true);
    // An identical retry is replayed; a new shortlist of a shortlisted match is a conflict.
    const replay = await ctx.client.post(url('shortlist'), { ifMatch: '"0"', idempotencyKey: key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(res.body);
    const same = expectError(await ctx.client.post(url('shortlist'), { ifMatch: '"1"' }), 409, 'conflict');
    expect(same.details).toEqual([{ code: 'same_decision', message: 'decision is shortlisted.' }]);

    const dismissed = await ctx.client.post(url('dismiss'), { ifMatch: '"1"' });
    expect(FundingMatch.parse(dismissed.body)).toMatchObject({ decision: 'dismissed', revision: 2 });
    expect((await readMatch(ctx.client, id)).match.decision).toBe('dismissed');
    expect(FundingMatch.parse((await ctx.client.post(url('shortlist'), { ifMatch: '"2"' })).body).decision).toBe('shortlisted');
    // The project's matches stay in rank order whatever the decisions.
    expect((await allMatches(ctx.client, project.matches_url)).items.map((m) => m.id)).toEqual(items.map((m) => m.id));
  });
});

describe('a deal from a match', () => {
  async function shortlisted() {
    const { businessId } = await newBusiness('Deal From Match Ltd');
    const { project } = await matchedProject(ctx.client, businessId);
    const { items } = await allMatches(ctx.client, project.matches_url);
    const match = items[0]!;
    const res = await ctx.client.post(`matches/${match.id}/shortlist/`, { ifMatch: `"${match.revision}"` });
    expect(res.status).toBe(200);
    return { businessId, project, match, items };
  }

  it('creates the deal for the match’s recipient, naming the project and the match; the match names the deal', async () => {
    const { businessId, project, match } = await shortlisted();
    const seen = events.length;
    const body = { name: 'Equipment finance – Ironbridge', business_id: businessId, recipient_id: match.recipient.id, project_id: project.id, match_id: match.id };
    const res = await ctx.client.post('deals/', { body, idempotencyKey: newKey('deal') });
    expect(res.status).toBe(201);
    const deal = Deal.parse(res.body);
    expect(DealProjectRef.parse(deal.project)).toEqual({ id: project.id, object: 'project', name: project.name });
    expect(deal.recipient).toEqual({ id: 'rcpt_ironbridge', object: 'recipient', name: 'Ironbridge Asset Finance' });
    expect(deal.match).toEqual({ id: match.id, object: 'funding_match', url: match.url });
    expect((await ctx.client.read(Deal, deal.url)).data).toEqual(deal);

    // The deal's match link reads the match, which names the deal back.
    const linked = (await ctx.client.read(FundingMatch, deal.match!.url)).data;
    expect(linked).toMatchObject({ id: match.id, decision: 'shortlisted', revision: 2, deal: { id: deal.id, object: 'deal', url: deal.url } });
    const { etag } = await readMatch(ctx.client, match.id);
    expect(etag).toBe('"2"');
    expect(events.slice(seen).find((e) => e.type === 'deal.created')?.data).toMatchObject({ deal_id: deal.id, project_id: project.id, match_id: match.id });

    // One deal per match; a match with a deal stays shortlisted.
    const again = expectError(await ctx.client.post('deals/', { body, idempotencyKey: newKey('deal') }), 409, 'conflict');
    expect(again.details).toEqual([{ code: 'match_has_deal', message: 'One deal per match.', parameter: 'match_id' }]);
    const dismiss = expectError(await ctx.client.post(`matches/${match.id}/dismiss/`, { ifMatch: etag }), 409, 'conflict');
    expect(dismiss.details[0]).toMatchObject({ code: 'match_has_deal' });
    // Deals without a project are unchanged.
    const plain = await ctx.client.post('deals/', { body: { name: 'Plain', business_id: businessId }, idempotencyKey: newKey('deal') });
    expect(Deal.parse(plain.body)).toMatchObject({ project: null, match: null });
  });

  it('checks the project, the match and the recipient (422), and that the match is shortlisted (409)', async () => {
    const { businessId, project, match, items } = await shortlisted();
    const other = await shortlisted();
    const base = { name: 'Checked deal', business_id: businessId, recipient_id: match.recipient.id, project_id: project.id, match_id: match.id };
    const post = (body: unknown, key?: string) => ctx.client.post('deals/', { body, idempotencyKey: newKey('deal'), key });
    const detailsOf = async (body: unknown) => expectError(await post(body), 422, 'validation_failed').details.map((d) => [d.code, d.parameter]);

    expect(await detailsOf({ ...base, match_id: undefined })).toEqual([['required', 'match_id']]);
    expect(await detailsOf({ ...base, project_id: undefined })).toEqual([['required', 'project_id']]);
    expect(await detailsOf({ ...base, project_id: 'proj_nothere', match_id: 'match_nothere' })).toEqual([
      ['unknown_project', 'project_id'],
      ['unknown_match', 'match_id'],
    ]);
    expect(await detailsOf({ ...base, match_id: other.match.id })).toEqual([['match_project_mismatch', 'match_id']]);
    expect(await detailsOf({ ...base, recipient_id: 'rcpt_summitcredit' })).toEqual([['recipient_mismatch', 'recipient_id']]);
    expect(await detailsOf({ ...base, recipient_id: undefined })).toEqual([['recipient_mismatch', 'recipient_id']]);
    expect(await detailsOf({ ...base, business_id: other.businessId })).toEqual([['project_business_mismatch', 'project_id']]);

    const notShortlisted = items[2]!;
    const conflict = expectError(await post({ ...base, recipient_id: notShortlisted.recipient.id, match_id: notShortlisted.id }), 409, 'conflict');
    expect(conflict.details).toEqual([{ code: 'match_not_shortlisted', message: "The match's decision is none.", parameter: 'match_id' }]);

    // Linking writes the match: a key with deals:write alone may not.
    const forbidden = expectError(await post(base, DEALS_ONLY.token), 403, 'forbidden');
    expect(forbidden.details).toEqual([{ code: 'missing_permission', message: 'Requires projects:write.' }]);
    expect((await readMatch(ctx.client, match.id)).match.deal).toBeNull();
    expect((await ctx.client.get('deals/?business_id=' + businessId)).body).toMatchObject({ items: [] });
  });
});

describe('1,000 generated funders', () => {
  const big = setupSandbox({ controls: true });
  beforeAll(() => big.running.sandbox.clock.setSpeed(100_000));

  async function control(method: string, body?: unknown) {
    const r = await fetch(`${big.running.origin}/_sandbox/funders`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  }

  it('are added by the test control (deterministically) and become recipients', async () => {
    expect(await control('GET')).toEqual({ status: 200, body: { object: 'sandbox_funders', seeded: 30, generated: 0, seed: null, total: 30 } });
    expect((await control('PUT', { generate: 1_000, seed: 42, extra: 1 })).status).toBe(422);
    expect(await control('PUT', { generate: 1_000, seed: 42 })).toEqual({ status: 200, body: { object: 'sandbox_funders', seeded: 30, generated: 1_000, seed: 42, total: 1_030 } });
    const { data: recipients } = await big.client.read(RecipientPage, 'recipients/?page_size=100');
    expect(recipients.items.slice(30, 32)).toEqual([
      { id: 'rcpt_g16x1', object: 'recipient', name: expect.stringMatching(/ 1$/) },
      { id: 'rcpt_g16x2', object: 'recipient', name: expect.stringMatching(/ 2$/) },
    ]);
    // The same seed gives the same funders.
    const names = recipients.items.map((r) => r.name);
    await control('PUT', { generate: 1_000, seed: 42 });
    expect((await big.client.read(RecipientPage, 'recipients/?page_size=100')).data.items.map((r) => r.name)).toEqual(names);
  });

  it('page forward over every match once, best first, and backward the same way', async () => {
    const { data } = await createBusiness(big.client, { name: 'Big Walk Ltd' });
    const project = await createProject(big.client, data.business.id);
    await mustWriteCriteria(big.client, project, [...COMPLETE_CRITERIA.filter((a) => a.schema_key !== 'product_kinds'), cw('product_kinds', [...PRODUCT_KINDS])]);
    const run = await waitForRun(big.client, await mustStartRun(big.client, project), 60_000);
    expect(run).toMatchObject({ status: 'completed', progress: { completed_units: 1_030, total_units: 1_030 } });
    expect(run.match_count).toBeGreaterThan(1_000);

    const { items, pages } = await allMatches(big.client, project.matches_url, 100);
    expect(items).toHaveLength(run.match_count);
    expect(pages).toHaveLength(Math.ceil(run.match_count / 100));
    expect(new Set(items.map((m) => m.id)).size).toBe(items.length);
    const rank = (fit: string) => FITS.indexOf(fit as (typeof FITS)[number]);
    for (let i = 1; i < items.length; i++) {
      const [a, b] = [items[i - 1]!, items[i]!];
      const ordered = a.score > b.score || (a.score === b.score && (rank(a.fit) < rank(b.fit) || (rank(a.fit) === rank(b.fit) && a.recipient.name <= b.recipient.name)));
      expect(ordered, `${i}: ${a.score} ${a.recipient.name} / ${b.score} ${b.recipient.name}`).toBe(true);
    }
    // Another page size walks the same order.
    let { data: small } = await big.client.read(FundingMatchPage, `${project.matches_url}?page_size=37`);
    const prefix = [...small.items];
    for (let i = 0; i < 2; i++) {
      ({ data: small } = await big.client.read(FundingMatchPage, `${project.matches_url}?page_size=37&cursor=${encodeURIComponent(small.next_cursor!)}`));
      prefix.push(...small.items);
    }
    expect(prefix.map((m) => m.id)).toEqual(items.slice(0, 111).map((m) => m.id));
    // Filtered walks are the filtered list (unlikely, the largest, is what the others leave).
    let filtered = 0;
    for (const fit of ['strong', 'good', 'possible'] as const) {
      const walked = (await allMatches(big.client, project.matches_url, 100, `fit=${fit}`)).items.map((m) => m.id);
      expect(walked).toEqual(items.filter((m) => m.fit === fit).map((m) => m.id));
      filtered += walked.length;
    }
    expect(filtered).toBeGreaterThan(0);
    expect(items.filter((m) => m.fit === 'unlikely')).toHaveLength(items.length - filtered);
    // Backward from the last page.
    let { data: page } = await big.client.read(FundingMatchPage, `${project.matches_url}?page_size=100`);
    while (page.next_cursor) ({ data: page } = await big.client.read(FundingMatchPage, `${project.matches_url}?page_size=100&cursor=${encodeURIComponent(page.next_cursor)}`));
    const backward = [page.items.map((m) => m.id)];
    while (page.previous_cursor) {
      ({ data: page } = await big.client.read(FundingMatchPage, `${project.matches_url}?page_size=100&cursor=${encodeURIComponent(page.previous_cursor)}`));
      backward.unshift(page.items.map((m) => m.id));
    }
    expect(backward).toEqual(pages);
    expect(MatchRun.parse((await big.client.get(run.url)).body).match_count).toBe(items.length);
  }, 90_000);

  it('go away with generate 0, and with a reset', async () => {
    expect((await control('PUT', { generate: 0 })).body).toMatchObject({ generated: 0, total: 30 });
    expect((await big.client.read(RecipientPage, 'recipients/?page_size=100')).data.items).toHaveLength(30);
    await control('PUT', { generate: 10 });
    expect((await fetch(`${big.running.origin}/_sandbox/reset`, { method: 'POST' })).status).toBe(200);
    expect((await control('GET')).body).toMatchObject({ generated: 0, total: 30 });
  });
});

// A client bound to the read-only key cannot decide.
describe('read-only key', () => {
  it('reads matches but cannot shortlist', async () => {
    const ro = new SandboxClient(ctx.running, DEMO_KEYS.find((k) => k.id === 'key_demoreadonly')!.token);
    const { data } = await ro.read(FundingMatchPage, 'projects/proj_meridiancnc/matches/?page_size=1');
    const id = data.items[0]!.id;
    expectError(await ro.post(`matches/${id}/shortlist/`, { ifMatch: `"${data.items[0]!.revision}"` }), 403, 'forbidden');
  });
});
