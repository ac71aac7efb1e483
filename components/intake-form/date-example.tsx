'use client';

import { useSyncExternalStore } from 'react';
import { formatAsDateInput, formatCalendarDate } from '../ui/when';

const never = () => () => {};

/**
 * A date field's example written the way the field shows dates: the browser's date input follows the
 * browser's language, so "2016-04-01" reads "01/04/2016" beside a dd/mm/yyyy box. The server does not
 * know that language and writes the date unambiguously ("1 Apr 2016") until the browser takes over.
 */
export function DateExample({ date }: { date: string }) {
  return useSyncExternalStore(never, () => formatAsDateInput(date), () => formatCalendarDate(date));
}
