import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CHAOS_FAULTS, chaosReport, runChaos, type ChaosOptions } from '../chaos/lib/chaos';
import { startChaosStack, type ChaosStack } from '../chaos/lib/stack';
import { runTwoEditors } from '../chaos/lib/two-editors';

/*
 * The short versions of `npm run chaos` and `npm run chaos:edits`: two app instances
 * on the run's PostgreSQL, the sandbox injecting faults, one instance restarted, two real browsers typing, and
 * commands with Idempotency-Keys, invitation mail to an SMTP server that fails too. Nothing acknowledged may be
 * lost, no command may be carried out twice, and every message arrives once.
 */

let stack: ChaosStack;

beforeAll(async () => {
  const postgresUrl = inject('testPostgres')?.url;
  if (!postgresUrl) throw new Error(`PostgreSQL is not available: ${inject('testPostgres')?.error}`);
  stack = await startChaosStack({ instances: 2, postgresUrl });
}, 180_000);
afterAll(async () => {
  await stack?.stop();
});

describe('chaos', () => {
  it('two editors × 60 edits, same and different fields: every acknowledged write is present or superseded', { timeout: 120_000 }, async () => {
    const r = await runTwoEditors(stack, { edits: 60, seed: 11 });
    process.stdout.write(`two editors: ${JSON.stringify(r)}\n`);
    expect(r.lostExamples).toEqual([]);
    expect(r.lost).toBe(0);
    expect(r.acknowledged).toBe(r.sent);
    expect(r.superseded).toBeGreaterThan(0);
  });

  it('under faults, a restart and two browsers: nothing acknowledged is lost, no command is duplicated', { timeout: 180_000 }, async () => {
    const options: ChaosOptions = { editors: 3, editsPerEditor: 15, browsers: 2, browserEdits: 2, commands: 2, restartAt: 0.4, seed: 7, faults: CHAOS_FAULTS };
    const r = await runChaos(stack, options);
    process.stdout.write(chaosReport(r, options));
    expect(r.lost_examples).toEqual([]);
    expect(r.lost).toBe(0);
    expect(r.acknowledged).toBe(r.edits_sent);
    expect(r.duplicates).toEqual({ business_create: 0, deal_create: 0, submit: 0, autofill_start: 0 });
    expect(r.commands_missing).toBe(0);
    expect(r.commands_acknowledged).toBe(r.commands_sent);
    expect(r.restarts).toBe(1);
    // Every invitation's mail arrived once, whatever the SMTP server did meanwhile.
    expect(r.mail).toMatchObject({ duplicated: 0, lost: 0, failed_shown: 0 });
    expect(r.mail.queued).toBeGreaterThanOrEqual(options.commands);
    expect(r.mail.delivered).toBe(r.mail.queued);
    expect(r.faults.smtp_421).toBeGreaterThan(0);
    expect(r.browser_console_errors).toEqual([]);
    // The faults did strike: the run proves something.
    const struck = ['rate_limited', 'server_errors', 'dropped', 'dropped_after'].reduce((n, k) => n + (r.faults[k] ?? 0), 0);
    expect(struck).toBeGreaterThan(0);
  });
});
