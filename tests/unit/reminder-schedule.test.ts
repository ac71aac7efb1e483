import { describe, expect, it } from 'vitest';
import { DAY_MS, endOfLocalDay, isQuiet, outsideQuietHours, planSteps } from '@/server/reminders/schedule';

const at = (iso: string) => new Date(iso);
const NIGHT = { start: 21, end: 8 };

describe('quiet hours', () => {
  it('are read in the recipient’s zone, across midnight', () => {
    // 22:30 UTC is 23:30 in London in winter (quiet) and 14:30 in Los Angeles (not).
    expect(isQuiet(at('2026-01-15T22:30:00Z'), 'Europe/London', NIGHT)).toBe(true);
    expect(isQuiet(at('2026-01-15T22:30:00Z'), 'America/Los_Angeles', NIGHT)).toBe(false);
    expect(isQuiet(at('2026-01-15T07:59:00Z'), 'UTC', NIGHT)).toBe(true);
    expect(isQuiet(at('2026-01-15T08:00:00Z'), 'UTC', NIGHT)).toBe(false);
    expect(isQuiet(at('2026-01-15T20:59:00Z'), 'UTC', NIGHT)).toBe(false);
    expect(isQuiet(at('2026-01-15T03:00:00Z'), 'UTC', null)).toBe(false);
    // A window within one day (13–14, a lunch break) works too.
    expect(isQuiet(at('2026-01-15T13:30:00Z'), 'UTC', { start: 13, end: 14 })).toBe(true);
    expect(isQuiet(at('2026-01-15T14:00:00Z'), 'UTC', { start: 13, end: 14 })).toBe(false);
  });

  it('move a time inside them to their end, local time, and leave others alone', () => {
    expect(outsideQuietHours(at('2026-01-15T23:10:00Z'), 'UTC', NIGHT).toISOString()).toBe('2026-01-16T08:00:00.000Z');
    expect(outsideQuietHours(at('2026-01-16T02:45:30Z'), 'UTC', NIGHT).toISOString()).toBe('2026-01-16T08:00:00.000Z');
    // 03:00 in Tokyo is 18:00 UTC the day before; 08:00 there is 23:00 UTC.
    expect(outsideQuietHours(at('2026-01-15T18:00:00Z'), 'Asia/Tokyo', NIGHT).toISOString()).toBe('2026-01-15T23:00:00.000Z');
    expect(outsideQuietHours(at('2026-01-15T12:00:00Z'), 'UTC', NIGHT).toISOString()).toBe('2026-01-15T12:00:00.000Z');
    // Across the spring change in New York (2 am → 3 am on 8 March 2026): 08:00 EDT is 12:00 UTC.
    expect(outsideQuietHours(at('2026-03-08T05:30:00Z'), 'America/New_York', NIGHT).toISOString()).toBe('2026-03-08T12:00:00.000Z');
  });
});

describe('due dates', () => {
  it('end at the next local midnight of the day in the zone', () => {
    expect(endOfLocalDay('2026-01-15', 'UTC').toISOString()).toBe('2026-01-16T00:00:00.000Z');
    expect(endOfLocalDay('2026-07-15', 'Europe/London').toISOString()).toBe('2026-07-15T23:00:00.000Z');
    expect(endOfLocalDay('2026-01-15', 'America/New_York').toISOString()).toBe('2026-01-16T05:00:00.000Z');
    expect(endOfLocalDay('2026-12-31', 'Asia/Kolkata').toISOString()).toBe('2026-12-31T18:30:00.000Z');
  });
});

describe('a plan of steps', () => {
  const createdAt = at('2026-01-15T10:00:00Z');
  const base = { createdAt, days: [1, 3, 20], dueAt: at('2026-01-25T00:00:00Z'), expiresAt: at('2026-02-01T00:00:00Z'), scale: 1, timeZone: 'UTC', quiet: NIGHT };

  it('has a step per day, then the overdue one at the due date, in time order, none after expiry', () => {
    expect(planSteps(base).map((s) => [s.step, s.kind, s.at.toISOString()])).toEqual([
      ['r1', 'reminder', '2026-01-16T10:00:00.000Z'],
      ['r2', 'reminder', '2026-01-18T10:00:00.000Z'],
      // The due date falls at midnight, in the quiet hours: the morning after.
      ['overdue', 'overdue', '2026-01-25T08:00:00.000Z'],
    ]);
  });

  it('keeps every step out of the recipient’s night', () => {
    const evening = planSteps({ ...base, createdAt: at('2026-01-15T22:00:00Z'), dueAt: null, timeZone: 'UTC' });
    expect(evening.map((s) => s.at.toISOString())).toEqual(['2026-01-17T08:00:00.000Z', '2026-01-19T08:00:00.000Z']);
  });

  it('runs faster by the time scale, due date included, from the invitation on', () => {
    const fast = planSteps({ ...base, scale: 86_400, quiet: null });
    expect(fast.map((s) => [s.step, s.at.getTime() - createdAt.getTime()])).toEqual([
      ['r1', 1000],
      ['r2', 3000],
      ['overdue', 9583], // 9 days 14 hours: 9.58 s
      ['r3', 20_000],
    ]);
    expect(DAY_MS / 86_400).toBe(1000);
  });

  it('is empty with no days and no due date', () => {
    expect(planSteps({ ...base, days: [], dueAt: null })).toEqual([]);
  });
});
