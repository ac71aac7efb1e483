import 'server-only';
import { processWide } from '@/server/process-wide';

/** Where the process is in its life: readiness is false in every phase but 'serving'. */
export type Phase = 'starting' | 'serving' | 'draining';

const state = () => processWide<{ phase: Phase; since: number }>('lifecycle-phase', () => ({ phase: 'starting', since: Date.now() }));

export const currentPhase = (): Phase => state().phase;

/** Moves to `phase`; draining is final (nothing brings a stopping process back). */
export function enterPhase(phase: Phase): void {
  const s = state();
  if (s.phase === 'draining' || s.phase === phase) return;
  s.phase = phase;
  s.since = Date.now();
}
