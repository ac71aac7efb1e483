import { z } from 'zod';
import { ProjectId } from '@/lib/portal';
import { SandboxError } from '../http/errors';
import type { Sandbox } from '../sandbox';
import { generateFunders } from './generate';
import { configureMatching, ensureFunderRecipients, fundingState, matchTimingsView } from './state';

/**
 * Body of PUT /_sandbox/matching: match run durations in sandbox clock milliseconds, for every run, or with
 * project_id for that project's runs only (a test slows its own runs without slowing anyone else's).
 */
export const MatchingBody = z
  .strictObject({
    project_id: ProjectId.optional(),
    run_queued_ms: z.int().min(0).max(600_000).optional(),
    funder_ms: z.int().min(0).max(60_000).optional(),
  })
  .refine((b) => b.run_queued_ms !== undefined || b.funder_ms !== undefined, { message: 'Name run_queued_ms, funder_ms or both.' });

export function setMatching(sb: Sandbox, body: z.output<typeof MatchingBody>) {
  if (body.project_id !== undefined && !fundingState(sb).projects[body.project_id]) {
    throw new SandboxError('not_found', `No project ${body.project_id} exists.`);
  }
  configureMatching(
    sb,
    { ...(body.run_queued_ms !== undefined ? { runQueuedMs: body.run_queued_ms } : {}), ...(body.funder_ms !== undefined ? { funderMs: body.funder_ms } : {}) },
    body.project_id,
  );
  return matchTimingsView(sb);
}

/** Body of PUT /_sandbox/funders: how many generated funders to have (0 removes them) and the PRNG seed. */
export const FundersBody = z.strictObject({
  generate: z.int().min(0).max(5_000),
  seed: z.int().min(0).max(2 ** 31 - 1).optional(),
});

export function fundersView(sb: Sandbox) {
  const st = fundingState(sb);
  const generated = st.generated?.count ?? 0;
  return {
    object: 'sandbox_funders',
    seeded: st.funders.length - generated,
    generated,
    seed: st.generated?.seed ?? null,
    total: st.funders.length,
  };
}

/**
 * Replaces the generated funders (after the seeded ones) with `generate` new ones from `seed` (default 1);
 * each is a recipient too. Runs already under way skip generated funders that no longer exist.
 */
export function setGeneratedFunders(sb: Sandbox, body: z.output<typeof FundersBody>) {
  const st = fundingState(sb);
  const seeded = st.funders.length - (st.generated?.count ?? 0);
  const removed = new Set(st.funders.slice(seeded).map((f) => f.recipient_id));
  const seed = body.seed ?? 1;
  const generated = generateFunders(body.generate, seed);
  for (const f of generated) removed.delete(f.recipient_id);
  st.funders = [...st.funders.slice(0, seeded), ...generated];
  st.generated = body.generate > 0 ? { count: body.generate, seed } : null;
  sb.state.recipients = sb.state.recipients.filter((r) => !removed.has(r.id));
  ensureFunderRecipients(sb.state, generated);
  sb.changed();
  return fundersView(sb);
}
