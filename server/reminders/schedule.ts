/**
 * Reminder time, pure: when each step of a plan falls, local hours in a time zone, quiet hours, due dates.
 * No database and no clock of its own, so every rule here is checked by unit tests.
 */

export const DAY_MS = 86_400_000;

export interface QuietHours {
  /** Local hour (0–23) from which nothing is sent… */
  start: number;
  /** …until this local hour. start > end spans midnight (21–8). */
  end: number;
}

export type StepKind = 'reminder' | 'overdue';

export interface PlannedStep {
  /** The step's key within its invitation: r1, r2, … and overdue. */
  step: string;
  kind: StepKind;
  at: Date;
}

export interface PlanInput {
  createdAt: Date;
  /** Days after the invitation, ascending. */
  days: readonly number[];
  dueAt: Date | null;
  expiresAt: Date;
  /** Time runs this many times faster from the invitation on (demos, tests); 1 is real time. */
  scale: number;
  timeZone: string;
  quiet: QuietHours | null;
}

interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const STYLES = {
  wallClock: { hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' },
  longDate: { dateStyle: 'long' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

// One formatter per style and zone: making one costs far more than formatting, and a tick formats thousands.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string, style: keyof typeof STYLES = 'wallClock'): Intl.DateTimeFormat {
  const key = `${style} ${timeZone}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat('en-GB', { ...STYLES[style], timeZone })));
  return f;
}

/** The day of `at` in `timeZone`, written out ("7 December 2026"). */
export const longDate = (at: Date, timeZone: string): string => formatter(timeZone, 'longDate').format(at);

/** The wall-clock time at `at` in `timeZone`. */
export function localTime(at: Date, timeZone: string): LocalTime {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(at).map((p) => [p.type, p.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour) % 24, minute: Number(parts.minute) };
}

/** True when `timeZone` is one the runtime knows (an IANA name such as Europe/London). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

export function isQuiet(at: Date, timeZone: string, quiet: QuietHours | null): boolean {
  if (!quiet) return false;
  const { hour } = localTime(at, timeZone);
  return quiet.start < quiet.end ? hour >= quiet.start && hour < quiet.end : hour >= quiet.start || hour < quiet.end;
}

/** Milliseconds `timeZone` is ahead of UTC at `at`. */
function offsetMs(at: Date, timeZone: string): number {
  const l = localTime(at, timeZone);
  return Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute) - Math.floor(at.getTime() / 60_000) * 60_000;
}

/**
 * The instant of a local wall-clock time in `timeZone` (day may overflow the month). The offset is read twice,
 * the second time at the first guess, so a daylight-saving change between UTC and local time is allowed for.
 */
function zonedInstant(year: number, month: number, day: number, hour: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day, hour);
  const guess = wall - offsetMs(new Date(wall), timeZone);
  return new Date(wall - offsetMs(new Date(guess), timeZone));
}

/** `at`, or when that falls in the quiet hours of `timeZone`, their end (local time) that day or the next. */
export function outsideQuietHours(at: Date, timeZone: string, quiet: QuietHours | null): Date {
  if (!quiet || !isQuiet(at, timeZone, quiet)) return at;
  const l = localTime(at, timeZone);
  // In an evening of a window across midnight, the window ends the next morning.
  const nextDay = quiet.start > quiet.end && l.hour >= quiet.start ? 1 : 0;
  return zonedInstant(l.year, l.month, l.day + nextDay, quiet.end, timeZone);
}

/** The end of the calendar day `date` (YYYY-MM-DD) in `timeZone`: the next local midnight. */
export function endOfLocalDay(date: string, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return zonedInstant(y, m, d + 1, 0, timeZone);
}

/** An instant of the plan's own time, compressed by the scale from the invitation on. */
const scaled = (createdAt: Date, at: number, scale: number) => new Date(createdAt.getTime() + (at - createdAt.getTime()) / scale);

/**
 * The steps of an invitation's reminders: one per scheduled day, then one at the due date (the overdue
 * reminder, which tells the inviter too), each moved out of the recipient's quiet hours. Steps at or after the
 * link's expiry are left out: a reminder of a dead link helps no one.
 */
export function planSteps(input: PlanInput): PlannedStep[] {
  const created = input.createdAt.getTime();
  const steps: PlannedStep[] = input.days.map((d, i) => ({ step: `r${i + 1}`, kind: 'reminder', at: scaled(input.createdAt, created + d * DAY_MS, input.scale) }));
  if (input.dueAt) steps.push({ step: 'overdue', kind: 'overdue', at: scaled(input.createdAt, input.dueAt.getTime(), input.scale) });
  return steps
    .map((s) => ({ ...s, at: outsideQuietHours(s.at, input.timeZone, input.quiet) }))
    .filter((s) => s.at.getTime() < input.expiresAt.getTime())
    .sort((a, b) => a.at.getTime() - b.at.getTime());
}
