import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, csvDocument, csvRow } from '@/lib/exports/csv';

describe('csvCell (RFC 4180)', () => {
  it('leaves plain text and numbers as they are', () => {
    expect(csvCell('Meridian Engineering')).toBe('Meridian Engineering');
    expect(csvCell(250000)).toBe('250000');
    expect(csvCell(-12.5)).toBe('-12.5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(Number.NaN)).toBe('');
  });

  it('quotes a field holding a comma, a quote or a line break, doubling quotes', () => {
    expect(csvCell('Smith, Jones & Co')).toBe('"Smith, Jones & Co"');
    expect(csvCell('The "best" bakery')).toBe('"The ""best"" bakery"');
    expect(csvCell('line one\nline two')).toBe('"line one\nline two"');
    expect(csvCell('a\r\nb')).toBe('"a\r\nb"');
  });

  it('neutralises text a spreadsheet would run as a formula (=, +, -, @, tab, CR)', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csvCell('+1+1')).toBe("'+1+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1:A2)')).toBe("'@SUM(A1:A2)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    // Only at the start: inside a value these are plain characters.
    expect(csvCell('Smith-Jones')).toBe('Smith-Jones');
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('keeps every script as typed', () => {
    expect(csvCell('Société Générale – 深圳 – مرحبا – שלום – 🚀')).toBe('Société Générale – 深圳 – مرحبا – שלום – 🚀');
  });
});

describe('csvDocument', () => {
  it('starts with the UTF-8 byte order mark and ends every record with CRLF', () => {
    const doc = csvDocument(['Name', 'Amount'], [['Zoë, Ltd', 10], ['=cmd', null]]);
    expect(doc.startsWith(CSV_BOM)).toBe(true);
    expect(doc).toBe(`${CSV_BOM}Name,Amount\r\n"Zoë, Ltd",10\r\n'=cmd,\r\n`);
    expect(csvRow([])).toBe('\r\n');
  });
});
