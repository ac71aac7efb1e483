// Commands under faults: business create, deal create and Autofill start, each sent through the app with an
// Idempotency-Key that its retries keep (as the pages do), then counted in the Portal: each must exist once.
import { randomBytes } from 'node:crypto';
import { ApplicationView, ContractView } from '@/lib/bff/applications';
import { PreparationReply } from '@/lib/bff/autofill';
import { BusinessCreatedView } from '@/lib/bff/businesses';
import { DealView } from '@/lib/bff/deals';
import { newApplication, portalList } from './portal';
import type { Balancer, ChaosStack } from './stack';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface CommandsRun {
  sent: number;
  acknowledged: number;
  errorsShown: number;
  /** What was made, to find it in the Portal afterwards. */
  made: { businesses: string[]; deals: string[]; autofillApps: string[]; submitted: string[] };
  /** The addresses invited by mail (their messages are counted at the SMTP server). */
  invited: string[];
}

class Commander {
  errorsShown = 0;
  acknowledged = 0;
  sent = 0;
  constructor(
    private readonly cookie: string,
    private readonly balancer: Balancer,
  ) {}

  /** Sends until the app answers `ok`; a failure a person would see is retried with the same key and body. */
  async send(method: string, path: string, body: unknown, ok: number, headers: Record<string, string> = {}, countAsCommand = true): Promise<unknown> {
    if (countAsCommand) this.sent += 1;
    const deadline = Date.now() + 120_000;
    for (let attempt = 0; ; attempt++) {
      const app = this.balancer.pick();
      const res = await fetch(`${app.url}${path}`, {
        method,
        headers: { Accept: 'application/json', 'Content-Type': 'application/json', Cookie: this.cookie, 'X-CSRF': '1', Origin: app.url, ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      }).catch(() => null);
      const text = res ? await res.text().catch(() => '') : '';
      if (res?.status === ok) {
        if (countAsCommand) this.acknowledged += 1;
        return JSON.parse(text) as unknown;
      }
      if (res && res.status !== 429 && res.status < 500) throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 300)}`);
      this.errorsShown += 1;
      if (Date.now() > deadline) throw new Error(`${method} ${path} kept failing: ${res?.status ?? 'no answer'}`);
      const retryAfter = Number(res?.headers.get('retry-after') ?? 0);
      await sleep(Math.max(retryAfter * 1000, Math.min(2_000, 100 * 2 ** attempt)));
    }
  }

  async read(path: string): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const app = this.balancer.pick();
      const res = await fetch(`${app.url}${path}`, { headers: { Accept: 'application/json', Cookie: this.cookie } }).catch(() => null);
      if (res?.status === 200) return res.json();
      if (attempt > 50) throw new Error(`GET ${path} kept failing: ${res?.status}`);
      await sleep(200);
    }
  }
}

const key = (label: string) => `chaos-${label}-${randomBytes(8).toString('hex')}`;

/** Whether a refusal is the 412 of a stale If-Match (Commander.send throws it as `… → 412: …`). */
const isStale = (e: unknown) => String(e).includes('→ 412');

/**
 * Fills a deal application as a person would through the app, from the contract's examples: every required
 * top-level answer in one write (If-Match; on 412 read again and write again), then the items each group needs.
 */
async function fillDealApplication(c: Commander, id: string) {
  const base = `/api/deal-applications/${id}`;
  const contract = ContractView.parse(((await c.read(`${base}/contract`)) as { contract: unknown }).contract);
  const groups = new Map(contract.repeatable_groups.map((g) => [g.block_key, g]));
  const required = (q: ContractView['questions'][number]) =>
    q.fields.filter((f) => f.is_required && f.example !== undefined).map((f) => ({ schema_key: q.schema_key, field_key: f.field_key, value: f.example }));
  const top = contract.questions.filter((q) => q.is_required && !groups.has(q.block_key) && q.answer_shape !== 'file');
  const answers = top.flatMap((q) => required(q).map((a) => ({ ...a, block_key: q.block_key })));
  for (;;) {
    const page = (await c.read(`${base}/answers?page_size=500`)) as { answers_revision: number; etag: string };
    try {
      await c.send('PATCH', `${base}/answers`, { answers_revision: page.answers_revision, answers }, 200, { 'If-Match': page.etag }, false);
      break;
    } catch (e) {
      if (!isStale(e)) throw e;
    }
  }
  for (const g of groups.values()) {
    const itemAnswers = contract.questions.filter((q) => q.block_key === g.block_key).flatMap(required);
    for (let n = 0; n < (g.min_items ?? 0); n++) {
      await c.send('POST', `${base}/items/${g.block_key}`, { answers: itemAnswers }, 201, { 'Idempotency-Key': key('item') }, false);
    }
  }
}

/** Applications for the Autofill starts, made directly in the Portal before the faults (not a command here). */
export const autofillApplications = (stack: ChaosStack, count: number, tag: string) =>
  Promise.all(Array.from({ length: count }, (_, n) => newApplication(stack.sandbox, `Chaos Autofill ${tag} ${n}`)));

/**
 * One of each command per Autofill application, one after the other by one signed-in person while the faults are
 * on. The starts go to applications of their own, so each must end with exactly one run.
 */
export async function runCommands(stack: ChaosStack, cookie: string, o: { tag: string; autofillApps: string[] }): Promise<CommandsRun> {
  const c = new Commander(cookie, stack.balancer);
  const names = { businesses: [] as string[], deals: [] as string[] };
  const submitted: string[] = [];
  const invited: string[] = [];
  const { autofillApps } = o;
  for (let n = 0; n < autofillApps.length; n++) {
    const business = `Chaos Business ${o.tag} ${n}`;
    names.businesses.push(business);
    const created = BusinessCreatedView.parse(await c.send('POST', '/api/businesses', { name: business }, 201, { 'Idempotency-Key': key('business') }));
    // The business's client, invited by mail while the SMTP server has faults of its own.
    const email = `chaos-client-${o.tag}-${n}-${randomBytes(3).toString('hex')}@example.test`;
    await c.send('POST', `/api/applications/${created.application.id}/invitations`, { client_email: email, client_name: 'Chaos Client' }, 201, {}, false);
    invited.push(email);
    const deal = `Chaos Deal ${o.tag} ${n}`;
    names.deals.push(deal);
    const made = DealView.parse(((await c.send('POST', '/api/deals', { name: deal, business_id: created.business.id }, 201, { 'Idempotency-Key': key('deal') })) as { deal: unknown }).deal);

    // Submit: the deal's application filled through the app, then submitted with If-Match and an Idempotency-Key.
    const dealApp = made.application?.id;
    if (!dealApp) throw new Error(`deal ${made.id} has no application`);
    await fillDealApplication(c, dealApp);
    const app = ApplicationView.parse(((await c.read(`/api/deal-applications/${dealApp}`)) as { application: unknown }).application);
    await c.send('POST', `/api/deal-applications/${dealApp}/submit`, {}, 200, { 'If-Match': app.etag, 'Idempotency-Key': key('submit') });
    submitted.push(dealApp);

    const appId = autofillApps[n]!;
    const base = `/api/applications/${appId}/autofill`;
    let prep = PreparationReply.parse(await c.read(`${base}/preparation`));
    // The text is a write guarded by If-Match, retried like an answer: a 412 means it may have landed; read again.
    for (;;) {
      try {
        prep = PreparationReply.parse(await c.send('PATCH', `${base}/preparation`, { text_input: 'Contact name: Chaos Person' }, 200, { 'If-Match': prep.etag ?? '*' }, false));
        break;
      } catch (e) {
        if (!isStale(e)) throw e;
        prep = PreparationReply.parse(await c.read(`${base}/preparation`));
        if (prep.preparation.text_input === 'Contact name: Chaos Person') break;
      }
    }
    await c.send('POST', `${base}/start`, { expected_preparation_revision: prep.preparation.revision }, 201, { 'Idempotency-Key': key('start') });
  }

  return { sent: c.sent, acknowledged: c.acknowledged, errorsShown: c.errorsShown, made: { ...names, autofillApps, submitted }, invited };
}

/**
 * How many of each command the Portal holds more than once, and how many acknowledged ones it lacks; read in the
 * Portal itself, with the faults off.
 */
export async function countDuplicates(stack: ChaosStack, made: CommandsRun['made'], submissions: ReadonlyMap<string, number>) {
  const { autofillApps, submitted, ...names } = made;
  const tally = (all: Array<{ name: string | null }>, wanted: string[]) => {
    const counts = new Map<string, number>();
    for (const x of all) if (x.name && wanted.includes(x.name)) counts.set(x.name, (counts.get(x.name) ?? 0) + 1);
    return {
      duplicates: [...counts.values()].reduce((n, k) => n + Math.max(0, k - 1), 0),
      missing: wanted.filter((w) => !counts.has(w)).length,
    };
  };
  const businesses = tally(await portalList<{ name: string | null }>(stack.sandbox, 'businesses/'), names.businesses);
  const deals = tally(await portalList<{ name: string }>(stack.sandbox, 'deals/'), names.deals);
  let autofillDuplicates = 0;
  let autofillMissing = 0;
  for (const app of autofillApps) {
    const runs = await portalList(stack.sandbox, `client-intake-applications/${app}/autofill-runs/`);
    autofillDuplicates += Math.max(0, runs.length - 1);
    if (runs.length === 0) autofillMissing += 1;
  }
  const submits = submitted.map((id) => submissions.get(id) ?? 0);
  return {
    duplicates: {
      business_create: businesses.duplicates,
      deal_create: deals.duplicates,
      submit: submits.reduce((n, k) => n + Math.max(0, k - 1), 0),
      autofill_start: autofillDuplicates,
    },
    missing: businesses.missing + deals.missing + autofillMissing + submits.filter((k) => k === 0).length,
  };
}
