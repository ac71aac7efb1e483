// Commands under faults: business create, deal create and Autofill start, each sent through the app with an
// Idempotency-Key that its retries keep (as the pages do), then counted in the Portal: each must exist once.
import { randomBytes } from 'node:crypto';
import { PreparationReply } from '@/lib/bff/autofill';
import { BusinessCreatedView } from '@/lib/bff/businesses';
import { newApplication, portalList } from './portal';
import type { Balancer, ChaosStack } from './stack';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface CommandsRun {
  sent: number;
  acknowledged: number;
  errorsShown: number;
  /** What was made, to find it in the Portal afterwards. */
  made: { businesses: string[]; deals: string[]; autofillApps: string[] };
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

/** Applications for the Autofill starts, made directly in the Portal before the faults (not a command here). */
export const autofillApplications = (stack: ChaosStack, count: number, tag: string) =>
  Promise.all(Array.from({ length: count }, (_, n) => newApplication(stack.sandbox, `Chaos Autofill ${tag} ${n}`)));

/**
 * One of each command per Autofill application, run one after the other by one signed-in person while the faults are on. Autofill
 * starts go to applications of their own (made in the Portal beforehand), so each must end with exactly one run.
 */
export async function runCommands(stack: ChaosStack, cookie: string, o: { tag: string; autofillApps: string[] }): Promise<CommandsRun> {
  const c = new Commander(cookie, stack.balancer);
  const names = { businesses: [] as string[], deals: [] as string[] };
  const { autofillApps } = o;
  for (let n = 0; n < autofillApps.length; n++) {
    const business = `Chaos Business ${o.tag} ${n}`;
    names.businesses.push(business);
    const created = BusinessCreatedView.parse(await c.send('POST', '/api/businesses', { name: business }, 201, { 'Idempotency-Key': key('business') }));
    const deal = `Chaos Deal ${o.tag} ${n}`;
    names.deals.push(deal);
    await c.send('POST', '/api/deals', { name: deal, business_id: created.business.id }, 201, { 'Idempotency-Key': key('deal') });

    const appId = autofillApps[n]!;
    const base = `/api/applications/${appId}/autofill`;
    let prep = PreparationReply.parse(await c.read(`${base}/preparation`));
    // The text is a write guarded by If-Match, retried like an answer: a 412 means it may have landed; read again.
    for (;;) {
      try {
        prep = PreparationReply.parse(await c.send('PATCH', `${base}/preparation`, { text_input: 'Contact name: Chaos Person' }, 200, { 'If-Match': prep.etag ?? '*' }, false));
        break;
      } catch (e) {
        if (!String(e).includes('→ 412')) throw e;
        prep = PreparationReply.parse(await c.read(`${base}/preparation`));
        if (prep.preparation.text_input === 'Contact name: Chaos Person') break;
      }
    }
    await c.send('POST', `${base}/start`, { expected_preparation_revision: prep.preparation.revision }, 201, { 'Idempotency-Key': key('start') });
  }

  return { sent: c.sent, acknowledged: c.acknowledged, errorsShown: c.errorsShown, made: { ...names, autofillApps } };
}

/**
 * How many of each command the Portal holds more than once, and how many acknowledged ones it lacks; read in the
 * Portal itself, with the faults off.
 */
export async function countDuplicates(stack: ChaosStack, made: CommandsRun['made']) {
  const { autofillApps, ...names } = made;
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
  return {
    duplicates: { business_create: businesses.duplicates, deal_create: deals.duplicates, autofill_start: autofillDuplicates },
    missing: businesses.missing + deals.missing + autofillMissing,
  };
}
