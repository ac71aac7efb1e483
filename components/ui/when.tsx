/**
 * The one way the app writes a date ("28 Nov 2026") or a moment ("28 Nov 2026, 04:03"), wherever it
 * shows one. An unreadable value is shown as it came.
 */
const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
const DATE_TIME = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

const format = (formatter: Intl.DateTimeFormat, iso: string): string => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : formatter.format(t);
};

/** "28 Nov 2026" */
export const formatDate = (iso: string): string => format(DATE, iso);
/** "28 Nov 2026, 04:03" */
export const formatDateTime = (iso: string): string => format(DATE_TIME, iso);

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
