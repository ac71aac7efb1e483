/**
 * The one way the app writes a date ("28 Nov 2026") or a moment ("28 Nov 2026, 04:03"), wherever it
 * shows one. An unreadable value is shown as it came.
 */
const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
const DATE_TIME = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
// A calendar date (YYYY-MM-DD) is no moment: read and written in UTC, it is the same day everywhere.
const CALENDAR = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

const format = (formatter: Intl.DateTimeFormat, iso: string): string => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : formatter.format(t);
};

/** The browser's IANA time zone ("Europe/London"), or undefined where it says none. Call it in the browser only. */
export function browserTimeZone(): string | undefined {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
}

/** "28 Nov 2026" */
export const formatDate = (iso: string): string => format(DATE, iso);
/** "28 Nov 2026, 04:03" */
export const formatDateTime = (iso: string): string => format(DATE_TIME, iso);

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date "2016-04-01" as "1 Apr 2016" (anything else as it came). */
export const formatCalendarDate = (date: string): string => (CALENDAR_DATE.test(date) ? format(CALENDAR, date) : date);

/**
 * A calendar date as the browser's own date input shows it: in the order and separators of the browser's
 * language ("01/04/2016" in en-GB, "04/01/2016" in en-US). Only the browser knows that language, so only
 * call this there; anything but YYYY-MM-DD comes back as it came.
 */
export function formatAsDateInput(date: string): string {
  if (!CALENDAR_DATE.test(date)) return date;
  return format(new Intl.DateTimeFormat(undefined, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }), date);
}

/**
 * A moment (or with `dateOnly`, its date) in a <time> element. The server renders in its own time zone and
 * the browser in the person's: the browser's text wins.
 */
export function When({ iso, dateOnly = false }: { iso: string; dateOnly?: boolean }) {
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {dateOnly ? formatDate(iso) : formatDateTime(iso)}
    </time>
  );
}
