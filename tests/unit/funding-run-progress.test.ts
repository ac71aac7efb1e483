import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { RunProgressView } from '@/lib/bff/live-events';
import type { MatchRunView } from '@/lib/bff/projects';
import { latestRunKey, putRunProgress, putStartedRun } from '@/lib/queries/projects';

/* How a live match_run.progress moves the run the Find funders bar shows (lib/queries/projects.ts). */

const PROJECT = 'proj_unit';

const run = (over: Partial<MatchRunView> = {}): MatchRunView => ({
  id: 'mrun_a',
  status: 'running',
  progress: { step: 'screening_funders', completed_units: 10, total_units: 30 },
  match_count: 0,
  can_retry: false,
  attempt_sequence: 1,
  failure: null,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
  ...over,
});

const progress = (over: Partial<RunProgressView> = {}): RunProgressView => ({
  run_id: 'mrun_a',
  attempt_sequence: 1,
  status: 'running',
  step: 'screening_funders',
  completed_units: 16,
  total_units: 30,
  ...over,
});

function shown(initial: MatchRunView | null) {
  const qc = new QueryClient();
  qc.setQueryData(latestRunKey(PROJECT), initial);
  return { qc, now: () => qc.getQueryData<MatchRunView | null>(latestRunKey(PROJECT)) };
}

describe('putRunProgress', () => {
  it('moves the shown run to the event’s progress, pending becoming running', () => {
    const { qc, now } = shown(run({ status: 'pending', progress: { step: 'queued', completed_units: 0, total_units: 30 } }));
    expect(putRunProgress(qc, PROJECT, progress())).toBe(true);
    expect(now()).toMatchObject({ status: 'running', progress: { step: 'screening_funders', completed_units: 16, total_units: 30 } });
  });

  it('keeps what it shows when an event is overtaken (a lower count, an older attempt, a run already finished)', () => {
    const { qc, now } = shown(run({ progress: { step: 'screening_funders', completed_units: 20, total_units: 30 } }));
    expect(putRunProgress(qc, PROJECT, progress({ completed_units: 16 }))).toBe(true);
    expect(now()?.progress.completed_units).toBe(20);

    const retried = shown(run({ attempt_sequence: 2, progress: { step: 'screening_funders', completed_units: 2, total_units: 30 } }));
    expect(putRunProgress(retried.qc, PROJECT, progress({ attempt_sequence: 1, completed_units: 28 }))).toBe(true);
    expect(retried.now()).toMatchObject({ attempt_sequence: 2, progress: { completed_units: 2 } });

    const done = shown(run({ status: 'completed', progress: { step: 'completed', completed_units: 30, total_units: 30 } }));
    expect(putRunProgress(done.qc, PROJECT, progress({ completed_units: 28 }))).toBe(true);
    expect(done.now()?.status).toBe('completed');
  });

  it('takes a newer attempt of the shown run, clearing the failure it showed', () => {
    const { qc, now } = shown(run({ status: 'failed', can_retry: true, failure: { code: 'x', message: 'y' }, progress: { step: 'failed', completed_units: 15, total_units: 30 } }));
    expect(putRunProgress(qc, PROJECT, progress({ attempt_sequence: 2, completed_units: 4 }))).toBe(true);
    expect(now()).toMatchObject({ status: 'running', attempt_sequence: 2, can_retry: false, failure: null, progress: { completed_units: 4 } });
  });

  it('says so (false) for a run the page does not show, or none, or a status it does not know, and changes nothing', () => {
    for (const [initial, event] of [
      [run(), progress({ run_id: 'mrun_other' })],
      [null, progress()],
      [run(), progress({ status: 'paused' })],
    ] as const) {
      const { qc, now } = shown(initial);
      expect(putRunProgress(qc, PROJECT, event)).toBe(false);
      expect(now()).toEqual(initial);
    }
  });
});

describe('putStartedRun', () => {
  const started = run({ status: 'pending', progress: { step: 'queued', completed_units: 0, total_units: 30 } });

  it('shows the started run when the page showed none, or another run', () => {
    const empty = shown(null);
    putStartedRun(empty.qc, PROJECT, started);
    expect(empty.now()).toEqual(started);

    const other = shown(run({ id: 'mrun_old', status: 'completed' }));
    putStartedRun(other.qc, PROJECT, started);
    expect(other.now()).toEqual(started);
  });

  it('keeps the same run when its live events overtook the reply, further on or finished', () => {
    const ahead = shown(run({ progress: { step: 'screening_funders', completed_units: 12, total_units: 30 } }));
    putStartedRun(ahead.qc, PROJECT, started);
    expect(ahead.now()?.progress.completed_units).toBe(12);

    const finished = shown(run({ status: 'completed', progress: { step: 'completed', completed_units: 30, total_units: 30 } }));
    putStartedRun(finished.qc, PROJECT, started);
    expect(finished.now()?.status).toBe('completed');

    const behind = shown(run({ status: 'pending', progress: { step: 'queued', completed_units: 0, total_units: 30 } }));
    const replied = run({ progress: { step: 'screening_funders', completed_units: 4, total_units: 30 } });
    putStartedRun(behind.qc, PROJECT, replied);
    expect(behind.now()).toEqual(replied);
  });
});
