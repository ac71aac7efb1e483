import { describe, expect, it } from 'vitest';
import { formReadsFor, LIVE_RESYNC, REVIEW_CHANGED, type LiveEventView } from '@/lib/bff/live-events';

/* What an open form reads on each live message (lib/bff/live-events.ts, used by use-live-form-refresh). */

const event = (over: Partial<LiveEventView>): LiveEventView => ({
  id: 'evt_1',
  type: 'application.answers_updated',
  occurred_at: null,
  application_id: 'app_1',
  business_id: null,
  deal_id: null,
  project_id: null,
  answers_revision: null,
  run_progress: null,
  ...over,
});

describe('formReadsFor', () => {
  it('reads the form for answers newer than the page holds, or of an unknown revision', () => {
    expect(formReadsFor(event({ answers_revision: 8 }), 7)).toBe('form');
    expect(formReadsFor(event({ answers_revision: null }), 7)).toBe('form');
    expect(formReadsFor(event({ type: 'application.submitted' }), 7)).toBe('form');
  });

  it('reads nothing for the page’s own save coming back (a revision it holds)', () => {
    expect(formReadsFor(event({ answers_revision: 7 }), 7)).toBe('nothing');
    expect(formReadsFor(event({ answers_revision: 5 }), 7)).toBe('nothing');
  });

  it('reads the review and other queries, not the form, when only the review moved', () => {
    expect(formReadsFor(event({ type: REVIEW_CHANGED }), 7)).toBe('others');
  });

  it('reads everything after a gap in the stream', () => {
    expect(formReadsFor({ type: LIVE_RESYNC }, 7)).toBe('form');
  });
});
