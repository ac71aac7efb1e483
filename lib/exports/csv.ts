/**
 * CSV as RFC 4180 has it (comma separated, CRLF line ends, a field quoted when it holds a comma, a quote or
 * a line break, quotes doubled), in UTF-8 with a byte order mark so that spreadsheets read accents and
 * non-Latin scripts right. Text a spreadsheet would run as a formula (OWASP "CSV injection": a cell
 * beginning with =, +, -, @, tab or carriage return) gets a leading apostrophe: shown as typed, never run.
 */

export const CSV_BOM = '\uFEFF';
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  // A number is written by us, not typed by someone: -12.5 stays a number.
  let text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRow = (cells: readonly CsvValue[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** A whole file: the BOM, the header row, then the rows. */
export const csvDocument = (header: readonly string[], rows: readonly (readonly CsvValue[])[]): string =>
  CSV_BOM + csvRow(header) + rows.map(csvRow).join('');
