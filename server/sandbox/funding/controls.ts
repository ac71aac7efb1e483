import { z } from 'zod';
import type { Sandbox } from '../sandbox';
import { generateFunders } from './generate';
import { ensureFunderRecipients, fundingState } from './state';

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
