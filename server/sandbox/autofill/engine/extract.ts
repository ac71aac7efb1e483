import { extractPdfText, type PdfFailureCode } from './pdf';

/**
 * Text of an evidence file. Plain text and CSV are decoded (UTF-8, UTF-16 with a BOM, else Latin-1), CSV rows
 * become "Label: value" lines, PDFs go through the PDF reader (in a worker thread, hence asynchronous).
 * Anything else, or a file with no readable text, is refused with a code and a reason a person can act on.
 */

export type ExtractFailureCode = 'unsupported_type' | 'binary_content' | PdfFailureCode;

export type Extracted =
  | { ok: true; format: 'text' | 'csv' | 'pdf'; text: string }
  | { ok: false; code: ExtractFailureCode; reason: string };

const TEXT_TYPES = new Set(['text/plain', 'text/markdown']);
const CSV_TYPES = new Set(['text/csv', 'application/csv', 'text/comma-separated-values']);

function formatOf(contentType: string, filename: string | null): 'text' | 'csv' | 'pdf' | null {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const ext = (filename ?? '').toLowerCase().match(/\.([a-z0-9]+)$/)?.[1] ?? '';
  if (type === 'application/pdf') return 'pdf';
  if (CSV_TYPES.has(type)) return 'csv';
  // Browsers on some systems label a .csv file as an Excel document.
  if (ext === 'csv' && (type === 'application/vnd.ms-excel' || type === 'text/plain' || type === 'application/octet-stream')) return 'csv';
  if (TEXT_TYPES.has(type)) return 'text';
  return null;
}

/** Decodes text bytes, or null when they are evidently binary. */
export function decodeText(bytes: Buffer): string | null {
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = bytes.subarray(2).toString('utf16le');
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  else {
    const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      text = body.toString('latin1');
    }
  }
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return null;
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) control++;
  }
  return control > Math.max(4, text.length * 0.02) ? null : text;
}

/** RFC 4180 rows, with the delimiter (comma, semicolon or tab) taken from the first line. */
export function parseCsv(text: string): string[][] {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const counts = { ',': 0, ';': 0, '\t': 0 } as Record<string, number>;
  let quoted = false;
  for (const ch of firstLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch in counts) counts[ch]!++;
  }
  const [mostUsed, uses] = Object.entries(counts).sort((a, b) => b[1] - a[1])[0]!;
  const delim = uses > 0 ? mostUsed : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let inQuotes = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else inQuotes = false;
      } else cell += ch;
      continue;
    }
    if (ch === '"' && cell.trim() === '') {
      cell = '';
      inQuotes = true;
    } else if (ch === delim) {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows.map((r) => r.map((c) => c.trim())).filter((r) => r.some((c) => c !== ''));
}

const isLabel = (cell: string) => /\p{L}/u.test(cell) && !/^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$/.test(cell);

/**
 * CSV as lines of text. A table of labelled figures (labels in the first column) reads as "Label: value";
 * a table of records (dates, numbers first) keeps each row as one line, after its header.
 */
export function csvToText(text: string): string {
  const rows = parseCsv(text);
  if (rows.length === 0) return '';
  const labelled = rows.filter((r) => isLabel(r[0] ?? '')).length >= Math.ceil(rows.length * 0.8) && rows.some((r) => r.length > 1);
  if (labelled) {
    return rows
      .map((r) => {
        const [label, ...rest] = r;
        const values = rest.filter(Boolean);
        return values.length > 0 ? `${label}: ${values.join(', ')}` : (label ?? '');
      })
      .join('\n');
  }
  return rows.map((r) => r.join(', ')).join('\n');
}

export async function extractText(bytes: Buffer, contentType: string, filename: string | null): Promise<Extracted> {
  const format = formatOf(contentType, filename);
  if (!format) {
    return {
      ok: false,
      code: 'unsupported_type',
      reason: `Autofill reads plain text, CSV and PDF files; ${contentType || 'this type'} cannot be read. Paste its text instead.`,
    };
  }
  if (format === 'pdf') {
    const r = await extractPdfText(bytes);
    return r.ok ? { ok: true, format, text: r.text } : { ok: false, code: r.code, reason: r.reason };
  }
  const decoded = decodeText(bytes);
  if (decoded === null) {
    return { ok: false, code: 'binary_content', reason: `The file is labelled ${contentType} but holds binary data, not text.` };
  }
  const text = (format === 'csv' ? csvToText(decoded) : decoded.replace(/\r\n?/g, '\n')).trim();
  if (!text) return { ok: false, code: 'no_text', reason: 'The file has no text to read.' };
  return { ok: true, format, text };
}
