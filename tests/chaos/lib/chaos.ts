// Simulated editors write one application through two app instances on one PostgreSQL while
// the Portal injects 429 with Retry-After, 5xx, latency spikes and dropped connections (before and after the
// write landed); one instance is restarted mid-run; two real browsers type into the same form; commands go out with
// Idempotency-Keys. At the end the Portal's answers are compared with what each editor was told was saved, and the
// commands are counted in the Portal.
import { mulberry32, type FaultsBody } from '@/server/sandbox/controls/faults';
import { percentile } from '../../support/percentile';
import { runBrowsers, type BrowserRun } from './browsers';
import { autofillApplications, countDuplicates, runCommands, type CommandsRun } from './commands';
import { Editor, signIn, verify } from './editor';
import { countMail, type MailCount } from './mail';
import { newApplication, portalAnswers } from './portal';
import type { ChaosStack } from './stack';

/** Fields the simulated editors share (the browsers keep to theirs). */
const EDITOR_FIELDS = ['legal_name', 'contact_name', 'contact_role', 'accountant_name', 'signatory_name'];

export interface ChaosOptions {
  editors: number;
  editsPerEditor: number;
  browsers: number;
  browserEdits: number;
  /** How many of each command (business create, deal create, deal application submit, Autofill start). */
  commands: number;
  /** The restart of the second instance comes once this share of the editors' edits is acknowledged. */
  restartAt: number;
  seed: number;
  faults: FaultsBody;
}

export const CHAOS_FAULTS: FaultsBody = {
  rate_429: 0.1,
  retry_after_seconds: 1,
  rate_5xx: 0.1,
  rate_drop: 0.05,
  rate_drop_after: 0.05,
  spike_rate: 0.05,
  spike_ms: 1_500,
  latency_jitter_ms: 20,
};

export interface ChaosResult {
  edits_sent: number;
  acknowledged: number;
  superseded: number;
  lost: number;
  lost_examples: string[];
  conflicts_412: number;
  commands_sent: number;
  commands_acknowledged: number;
  commands_duplicated: number;
  commands_missing: number;
  duplicates: { business_create: number; deal_create: number; submit: number; autofill_start: number };
  errors_shown: number;
  errors_shown_by: { editors: number; browsers: number; commands: number };
  browser_console_errors: string[];
  save_latency_ms: { p50: number; p99: number };
  restarts: number;
  /** Invitation mail sent while the SMTP server failed: queued, delivered, duplicated, failed (shown), lost. */
  mail: MailCount;
  faults: Record<string, number>;
  seconds: number;
}

export async function runChaos(stack: ChaosStack, o: ChaosOptions): Promise<ChaosResult> {
  const started = performance.now();
  const applicationId = await newApplication(stack.sandbox, 'Chaos Ltd');
  const first = stack.instances[0]!;
  const autofillApps = await autofillApplications(stack, o.commands, String(o.seed));
  const editors = await Promise.all(
    Array.from({ length: o.editors }, async (_, n) => {
      const { email, password } = await stack.newStaff(`editor-${n + 1}`);
      return new Editor(`editor-${n + 1}`, await signIn(first.url, email, password), stack.balancer, applicationId);
    }),
  );
  const commander = await stack.newStaff('commands');
  const commanderCookie = await signIn(first.url, commander.email, commander.password);
  for (const e of editors) await e.open();

  // Submissions as the Portal announces them, one event per submission of a deal application.
  const submissions = new Map<string, number>();
  const unsubscribe = stack.sandbox.sandbox.events.subscribe((e) => {
    const id = e.data.application_id;
    if (e.type === 'deal_application.submitted' && typeof id === 'string') submissions.set(id, (submissions.get(id) ?? 0) + 1);
  });

  const controls = stack.sandbox.controls!;
  controls.faults.set({ ...o.faults, seed: o.seed });
  stack.smtp.setFaulty(true);
  const total = o.editors * o.editsPerEditor;
  const acked = () => editors.reduce((n, e) => n + e.stats.acknowledged, 0);

  let browsers: BrowserRun | null = null;
  let commands: CommandsRun | null = null;
  let faults: ReturnType<typeof controls.faults.view> = null;
  try {
    await Promise.all([
      ...editors.map(async (editor, n) => {
        const random = mulberry32(o.seed * 31 + n);
        for (let i = 1; i <= o.editsPerEditor; i++) {
          await editor.edit(EDITOR_FIELDS[Math.floor(random() * EDITOR_FIELDS.length)]!, `${editor.name} edit ${i}`);
        }
      }),
      // The second instance goes away and comes back while people are working through it.
      (async () => {
        const restarted = stack.instances[1];
        if (!restarted) return;
        while (acked() < total * o.restartAt) await new Promise((r) => setTimeout(r, 50));
        await restarted.restart();
      })(),
      (async () => {
        browsers = o.browsers > 0 ? await runBrowsers(stack, first, applicationId, { count: o.browsers, edits: o.browserEdits }) : null;
      })(),
      (async () => {
        commands = await runCommands(stack, commanderCookie, { tag: String(o.seed), autofillApps });
      })(),
    ]);
  } finally {
    faults = controls.faults.view();
    controls.faults.clear();
    stack.smtp.setFaulty(false);
  }

  const final = await portalAnswers(stack.sandbox, applicationId);
  const b = browsers as BrowserRun | null;
  const c = commands as CommandsRun | null;
  const verdict = verify([...editors.flatMap((e) => e.acks), ...(b?.acks ?? [])], (f) => final.get(f));
  unsubscribe();
  const counted = c ? await countDuplicates(stack, c.made, submissions) : { duplicates: { business_create: 0, deal_create: 0, submit: 0, autofill_start: 0 }, missing: 0 };
  const sum = (k: 'sent' | 'conflicts' | 'errorsShown') => editors.reduce((n, e) => n + e.stats[k], 0);
  // Retries after the faults end are due within seconds (1 s, doubling): each message must end in the outbox.
  const mail = await countMail(stack.db, stack.smtp, c?.invited ?? [], 120_000);
  const latencies = [...editors.flatMap((e) => e.stats.latenciesMs), ...(b?.stats.latenciesMs ?? [])];
  const errorsShownBy = { editors: sum('errorsShown'), browsers: b?.stats.errorsShown ?? 0, commands: c?.errorsShown ?? 0 };
  return {
    edits_sent: sum('sent') + (b?.stats.sent ?? 0),
    acknowledged: verdict.acknowledged,
    superseded: verdict.superseded,
    lost: verdict.lost,
    lost_examples: verdict.lostExamples,
    conflicts_412: sum('conflicts'),
    commands_sent: c?.sent ?? 0,
    commands_acknowledged: c?.acknowledged ?? 0,
    commands_duplicated: Object.values(counted.duplicates).reduce((n, k) => n + k, 0),
    commands_missing: counted.missing,
    duplicates: counted.duplicates,
    errors_shown: errorsShownBy.editors + errorsShownBy.browsers + errorsShownBy.commands,
    errors_shown_by: errorsShownBy,
    browser_console_errors: b?.consoleErrors ?? [],
    save_latency_ms: { p50: Math.round(percentile(latencies, 50)), p99: Math.round(percentile(latencies, 99)) },
    restarts: stack.instances.reduce((n, i) => n + i.restarts, 0),
    mail,
    faults: { ...(faults?.counts ?? {}), ...stack.smtp.faults },
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  };
}

/** The report both the script and the test print: the figures, then the whole result as one JSON line. */
export function chaosReport(r: ChaosResult, o: ChaosOptions): string {
  const lines = [
    `Chaos run: ${o.editors} editors × ${o.editsPerEditor} edits, ${o.browsers} browsers × ${o.browserEdits}, ${o.commands} of each command, seed ${o.seed}, ${r.seconds} s`,
    `  faults met      ${Object.entries(r.faults).map(([k, v]) => `${k} ${v}`).join(', ')}; instance restarts ${r.restarts}`,
    `  edits sent      ${r.edits_sent}`,
    `  acknowledged    ${r.acknowledged} (superseded later ${r.superseded}, 412s met ${r.conflicts_412})`,
    `  lost            ${r.lost}`,
    `  commands        ${r.commands_sent} sent, ${r.commands_acknowledged} acknowledged, duplicated ${r.commands_duplicated} (${JSON.stringify(r.duplicates)}), missing ${r.commands_missing}`,
    `  mail            ${r.mail.queued} queued, ${r.mail.delivered} delivered, duplicated ${r.mail.duplicated}, failed (shown) ${r.mail.failed_shown}, lost ${r.mail.lost}`,
    `  errors shown    ${r.errors_shown} (editors ${r.errors_shown_by.editors}, browsers ${r.errors_shown_by.browsers}, commands ${r.errors_shown_by.commands})`,
    `  save latency    p50 ${r.save_latency_ms.p50} ms, p99 ${r.save_latency_ms.p99} ms`,
    ...r.lost_examples.map((l) => `  LOST: ${l}`),
    ...r.browser_console_errors.slice(0, 5).map((l) => `  console error: ${l}`),
    JSON.stringify({ run: 'chaos', ...r, lost_examples: undefined }),
  ];
  return `${lines.join('\n')}\n`;
}
