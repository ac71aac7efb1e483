import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compileContract } from '@/server/sandbox/domain/contract-index';
import {
  csvToText,
  extractPdfText,
  extractText,
  parseCsv,
  PDF_LIMITS,
  proposeAnswers,
  writePdf,
  type EvidenceDoc,
  type Proposal,
  type TargetField,
} from '@/server/sandbox/autofill/engine';
import { literal, winAnsiBytes } from '@/server/sandbox/autofill/engine/pdf-writer';
import {
  findDates,
  findEmails,
  findPhones,
  findUrls,
  parseAddress,
  readBoolean,
  readMultiChoice,
  readNumber,
  readPersonName,
  readSingleChoice,
  readUrl,
} from '@/server/sandbox/autofill/engine/values';
import { targetsFor } from '@/server/sandbox/autofill/targets';
import {
  addressQuestion,
  assembleContract,
  buildFundingContract,
  group,
  question,
  vs,
} from '@/server/sandbox/seed/funding-contract';
import { ACCOUNTS_PDF_NAME, seedDocuments } from '@/server/sandbox/seed/documents';
import type { ApplicationRec } from '@/server/sandbox/store/types';

/* Helpers. */

const emptyApp = (items: ApplicationRec['items'] = {}, answers: ApplicationRec['answers'] = {}): ApplicationRec => ({
  id: 'ciappl_unit',
  business_id: 'biz_unit',
  contract_version: 'unit',
  revision: 0,
  answers_revision: 0,
  answers,
  items,
  files: {},
  submitted_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  answers_updated_at: null,
});

const textDoc = (text: string, id = 'afev_text'): EvidenceDoc => ({ id, kind: 'text', name: null, text });
const fileDoc = (text: string, name: string, id: string): EvidenceDoc => ({ id, kind: 'file', name, text });

/** Proposals keyed by `schema_key.field_key` (with the item id when scoped). */
function byTarget(props: Proposal[]) {
  const out: Record<string, Proposal> = {};
  for (const p of props) {
    const [, schema, field, item] = p.fieldId.split('|');
    out[`${schema}.${field}${item ? `@${item}` : ''}`] = p;
  }
  return out;
}
const valuesOf = (props: Proposal[]) => Object.fromEntries(Object.entries(byTarget(props)).map(([k, p]) => [k, p.value]));

function proposeFor(template: ReturnType<typeof buildFundingContract>, docs: EvidenceDoc[], app = emptyApp()) {
  const { fields, vocabulary } = targetsFor(app, compileContract(template));
  return proposeAnswers(docs, fields, { vocabulary });
}

/** A PDF assembled by hand from object bodies (1-based), for structures the writer does not make. */
function rawPdf(objects: Array<string | { dict: string; stream: Buffer }>, trailer = '/Root 1 0 R'): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.5\n', 'latin1')];
  let size = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(size);
    const body =
      typeof o === 'string'
        ? Buffer.from(`${i + 1} 0 obj\n${o}\nendobj\n`, 'latin1')
        : Buffer.concat([Buffer.from(`${i + 1} 0 obj\n<< ${o.dict} /Length ${o.stream.length} >>\nstream\n`, 'latin1'), o.stream, Buffer.from('\nendstream\nendobj\n', 'latin1')]);
    parts.push(body);
    size += body.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} ${trailer} >>\nstartxref\n${size}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

const onePage = (content: string | Buffer, contentDict = '', fontDict = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>') => [
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  '<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
  fontDict,
  { dict: contentDict, stream: typeof content === 'string' ? Buffer.from(content, 'latin1') : content },
];

/** ASCII85 (Adobe) encoding, for a stream filtered with ASCII85Decode (in a PDF: no `<~`, ended by `~>`). */
function ascii85(text: string): Buffer {
  const bytes = Buffer.from(text, 'latin1');
  let out = '';
  for (let i = 0; i < bytes.length; i += 4) {
    const chunk = [0, 1, 2, 3].map((k) => bytes[i + k] ?? 0);
    const count = Math.min(4, bytes.length - i);
    let n = ((chunk[0]! << 24) | (chunk[1]! << 16) | (chunk[2]! << 8) | chunk[3]!) >>> 0;
    if (n === 0 && count === 4) {
      out += 'z';
      continue;
    }
    const digits: string[] = [];
    for (let k = 0; k < 5; k++) {
      digits.unshift(String.fromCharCode(33 + (n % 85)));
      n = Math.floor(n / 85);
    }
    out += digits.slice(0, count + 1).join('');
  }
  return Buffer.from(`${out}~>`, 'latin1');
}

const pdfText = async (bytes: Buffer) => {
  const r = await extractPdfText(bytes);
  if (!r.ok) throw new Error(`${r.code}: ${r.reason}`);
  return r.text;
};

/* Extraction. */

describe('text extraction: plain text', () => {
  it('decodes UTF-8 (with or without a BOM), UTF-16 and Latin-1, and normalises line ends', async () => {
    expect(await extractText(Buffer.from('Name: Café Ltd\r\nEmployees: 4\r\n'), 'text/plain', 'a.txt')).toEqual({ ok: true, format: 'text', text: 'Name: Café Ltd\nEmployees: 4' });
    expect(await extractText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Hello')]), 'text/plain; charset=utf-8', 'a.txt')).toMatchObject({ ok: true, text: 'Hello' });
    expect(await extractText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Grüße', 'utf16le')]), 'text/plain', 'a.txt')).toMatchObject({ ok: true, text: 'Grüße' });
    expect(await extractText(Buffer.from([0x43, 0x61, 0x66, 0xe9]), 'text/plain', 'a.txt')).toMatchObject({ ok: true, text: 'Café' });
  });

  it('refuses binary content, empty text and types it cannot read, with a reason', async () => {
    expect(await extractText(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01]), 'text/plain', 'x.txt')).toMatchObject({ ok: false, code: 'binary_content' });
    expect(await extractText(Buffer.from('  \n\t \n'), 'text/plain', 'blank.txt')).toMatchObject({ ok: false, code: 'no_text', reason: 'The file has no text to read.' });
    const png = await extractText(Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png', 'scan.png');
    expect(png).toMatchObject({ ok: false, code: 'unsupported_type' });
    expect(!png.ok && png.reason).toContain('image/png');
    expect(await extractText(Buffer.from('x'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'a.docx')).toMatchObject({ ok: false, code: 'unsupported_type' });
  });
});

describe('text extraction: CSV', () => {
  it('parses quoted cells, escaped quotes, CRLF and other delimiters', () => {
    expect(parseCsv('a,"b, c","say ""hi"""\r\n1,2,3\r\n')).toEqual([
      ['a', 'b, c', 'say "hi"'],
      ['1', '2', '3'],
    ]);
    expect(parseCsv('Item;Value\nRevenue;"£1,000"\n\n')).toEqual([
      ['Item', 'Value'],
      ['Revenue', '£1,000'],
    ]);
    expect(parseCsv('a\tb\nc\td')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('reads a table of labelled figures as "Label: value" lines and keeps record tables as rows', () => {
    expect(csvToText('Item,Value,Notes\nAnnual revenue,"£612,400",FY2025\nGross margin,64.5%,\n')).toBe('Item: Value, Notes\nAnnual revenue: £612,400, FY2025\nGross margin: 64.5%');
    expect(csvToText('Date,Description,Amount\n2025-01-03,Card takings,1200.00\n2025-01-04,Rent,-950.00\n')).toBe(
      'Date, Description, Amount\n2025-01-03, Card takings, 1200.00\n2025-01-04, Rent, -950.00',
    );
  });

  it('takes text/csv, and a .csv sent as an Excel type', async () => {
    expect(await extractText(Buffer.from('Employees,14\n'), 'text/csv', 'f.csv')).toEqual({ ok: true, format: 'csv', text: 'Employees: 14' });
    expect(await extractText(Buffer.from('Employees,14\n'), 'application/vnd.ms-excel', 'f.csv')).toMatchObject({ ok: true, format: 'csv' });
    expect(await extractText(Buffer.from('Employees,14\n'), 'application/vnd.ms-excel', 'f.xls')).toMatchObject({ ok: false, code: 'unsupported_type' });
  });
});

describe('text extraction: PDF', () => {
  const lines = ['Legal name: Acme (Holdings) Ltd', 'Turnover: £1,250,000 – up 12%', 'Back\\slash and “quotes”'];

  it('reads FlateDecode content streams written with each text operator', async () => {
    for (const style of ['Tj', 'TJ', 'quote', 'hex', 'Tm'] as const) {
      expect(await pdfText(writePdf([lines], { style })), style).toBe(lines.join('\n'));
    }
    expect(await pdfText(writePdf([lines], { uncompressed: true }))).toBe(lines.join('\n'));
  });

  it('lets a process that read a PDF exit by itself: the idle reader thread holds nothing open', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./support/read-pdf-then-end.ts', import.meta.url))], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
    // Generous for a busy machine (tsx and PDF.js load first); a reader that holds the process never exits.
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (c, s) => resolve([c, s])));
    clearTimeout(killer);
    expect(signal, `the process had to be killed: ${out}`).toBeNull();
    expect(code, out).toBe(0);
    expect(JSON.parse(out)).toEqual({ ok: true, text: 'Read, then exit', pages: 1 });
  }, 40_000);

  it('keeps pages in page-tree order and separates them by lines', async () => {
    const r = await extractPdfText(writePdf([['Page one'], ['Page two, line one', 'Page two, line two'], ['Page three']]));
    expect(r).toEqual({ ok: true, text: 'Page one\nPage two, line one\nPage two, line two\nPage three', pages: 3 });
  });

  it('handles literal string escapes (octal, nested parentheses, line continuation) and hex strings', async () => {
    // (A UTF-16 string belongs with a two-byte font: see the ToUnicode case below.)
    const content = 'BT /F1 12 Tf 72 700 Td (Nested \\(parens\\) and (balanced) ones) Tj T* (Octal \\243250 and tab\\tend) Tj T* (Split \\\nline) Tj T* <48656C6C6F> Tj ET';
    expect(await pdfText(rawPdf(onePage(content)))).toBe('Nested (parens) and (balanced) ones\nOctal £250 and tab end\nSplit line\nHello');
  });

  it('reads TJ arrays: small kerning joins letters, a wide gap is a space', async () => {
    // PDF.js reads a gap of more than about a tenth of an em as a space.
    const content = 'BT /F1 12 Tf 72 700 Td [(Reg) 20 (istered) -300 (office) -100 (s)] TJ ET';
    expect(await pdfText(rawPdf(onePage(content)))).toBe('Registered offices');
  });

  it('decodes two-byte codes through the font’s ToUnicode map', async () => {
    const cmap = [
      '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
      '1 begincodespacerange <0000> <FFFF> endcodespacerange',
      '2 beginbfchar <0001> <0041> <0002> <00A3> endbfchar',
      '1 beginbfrange <0010> <0012> <0031> endbfrange',
      'endcmap end end',
    ].join('\n');
    const objects = [
      ...onePage('BT /F1 12 Tf 72 700 Td <0001000200100011001200100010> Tj ET', '', '<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /DescendantFonts [7 0 R] /ToUnicode 6 0 R >>'),
      { dict: '/Filter /FlateDecode', stream: deflateSync(Buffer.from(cmap)) },
      '<< /Type /Font /Subtype /CIDFontType2 /BaseFont /X /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 8 0 R /DW 500 >>',
      '<< /Type /FontDescriptor /FontName /X /Flags 4 /FontBBox [0 -200 1000 800] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 >>',
    ];
    expect(await pdfText(rawPdf(objects))).toBe('A£12311');
  });

  it('reads ASCIIHex and ASCII85 streams, and text inside form XObjects', async () => {
    const hex = Buffer.from(Buffer.from('BT /F1 12 Tf 72 700 Td (Hex stream) Tj ET').toString('hex') + '>');
    expect(await pdfText(rawPdf(onePage(hex, '/Filter /ASCIIHexDecode')))).toBe('Hex stream');
    expect(await pdfText(rawPdf(onePage(ascii85('BT /F1 12 Tf 72 700 Td (Base85 stream) Tj ET'), '/Filter /ASCII85Decode')))).toBe('Base85 stream');
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /Resources << /XObject << /Fm1 5 0 R >> /Font << /F1 4 0 R >> >> /Contents 6 0 R >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      { dict: '/Type /XObject /Subtype /Form /BBox [0 0 100 100]', stream: Buffer.from('BT /F1 9 Tf 0 0 Td (In a form) Tj ET') },
      { dict: '', stream: Buffer.from('BT /F1 12 Tf 72 700 Td (Page text) Tj ET /Fm1 Do') },
    ];
    expect(await pdfText(rawPdf(objects))).toBe('Page text\nIn a form');
  });

  it('refuses files that are not PDFs, damaged ones, encrypted ones and ones without text', async () => {
    expect(await extractPdfText(Buffer.from('Hello, I am not a PDF'))).toMatchObject({ ok: false, code: 'corrupt_pdf' });
    expect(await extractPdfText(Buffer.from('%PDF-1.7\n%garbage without objects\n'))).toMatchObject({ ok: false, code: 'corrupt_pdf' });
    const good = writePdf([['Some text']]);
    const damaged = rawPdf(onePage(Buffer.from('this is not deflate data at all'), '/Filter /FlateDecode'));
    expect(await extractPdfText(damaged)).toMatchObject({ ok: false, code: 'corrupt_pdf' });
    expect(await extractPdfText(good.subarray(0, 40))).toMatchObject({ ok: false, code: 'corrupt_pdf' });
    expect(await extractPdfText(rawPdf(onePage('BT /F1 12 Tf ET'), '/Root 1 0 R /Encrypt 9 0 R'))).toMatchObject({ ok: false, code: 'encrypted_pdf' });
    expect(await extractPdfText(rawPdf(onePage('q 100 0 0 100 0 0 cm /Im1 Do Q')))).toMatchObject({ ok: false, code: 'no_text' });
    expect(await extractText(rawPdf(onePage('0 0 m 10 10 l S')), 'application/pdf', 'scan.pdf')).toMatchObject({ ok: false, code: 'no_text' });
  });

  it('fails a malformed or oversized file with a reason, within its limits, and keeps reading the next one', async () => {
    const good = writePdf([['Page one'], ['Page two']]);
    // A header, then noise where the objects and the cross-reference table should be.
    const noise = Buffer.concat([Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R'), Buffer.alloc(4096, 0xa7), Buffer.from('\nxref\n0 9999999\ntrailer\n<< /Root 1 0 R /Size -4 >>\nstartxref\n17\n%%EOF\n')]);
    const malformed = await extractPdfText(noise);
    expect(malformed).toMatchObject({ ok: false, code: 'corrupt_pdf' });
    expect(!malformed.ok && malformed.reason).toMatch(/damaged/);
    const limits = { ...PDF_LIMITS, maxPages: 1 };
    expect(await extractPdfText(good, limits)).toEqual({ ok: false, code: 'pdf_too_large', reason: 'The PDF has 2 pages; Autofill reads at most 1. Upload the pages that matter.' });
    expect(await extractPdfText(good, { ...PDF_LIMITS, maxBytes: good.length - 1 })).toMatchObject({ ok: false, code: 'pdf_too_large' });
    // Too little time: the worker thread is ended and the file fails, the caller does not wait.
    const started = Date.now();
    expect(await extractPdfText(good, { ...PDF_LIMITS, timeoutMs: 1 })).toMatchObject({ ok: false, code: 'pdf_timeout' });
    expect(Date.now() - started).toBeLessThan(PDF_LIMITS.timeoutMs);
    // Too little memory: the worker thread runs out and ends, the sandbox does not.
    expect(await extractPdfText(good, { ...PDF_LIMITS, maxMemoryMb: 1 })).toMatchObject({ ok: false, code: 'pdf_too_large', reason: expect.stringMatching(/memory/) });
    expect(await extractPdfText(good)).toEqual({ ok: true, text: 'Page one\nPage two', pages: 2 });
    // Files sent at once are read one after the other, each with its own answer.
    const [a, bad, b] = await Promise.all([extractPdfText(writePdf([['First']])), extractPdfText(noise), extractPdfText(writePdf([['Second']]))]);
    expect([a, bad.ok, b]).toEqual([{ ok: true, text: 'First', pages: 1 }, false, { ok: true, text: 'Second', pages: 1 }]);
  });

  it('writes deterministic bytes and literal operands', () => {
    expect(writePdf([['Same']]).equals(writePdf([['Same']]))).toBe(true);
    expect(literal(winAnsiBytes('(a) \\ £ – é'))).toBe('(\\(a\\) \\\\ \\243 \\226 \\351)');
  });
});

/* Value readers. */

describe('value readers', () => {
  it('money and numbers', () => {
    const n = (t: string) => readNumber(t)?.value;
    expect(n('£250,000')).toBe(250_000);
    expect(n('$1.2m')).toBe(1_200_000);
    expect(n('250k')).toBe(250_000);
    expect(n('GBP 85,000')).toBe(85_000);
    expect(n('85,000 pounds')).toBe(85_000);
    expect(n('1.5 million')).toBe(1_500_000);
    expect(n('(12,000)')).toBe(-12_000);
    expect(n('-£3,500.50')).toBe(-3_500.5);
    expect(n('64.5%')).toBe(64.5);
    expect(readNumber('64.5%')?.percent).toBe(true);
    expect(readNumber('£10')?.currency).toBe(true);
    expect(n('48 months')).toBe(48);
    expect(n('no figures here')).toBeUndefined();
  });

  it('dates in ISO, written and numeric forms', () => {
    const d = (t: string) => findDates(t).map((f) => [f.value, Boolean(f.ambiguity)]);
    expect(d('on 2019-03-12')).toEqual([['2019-03-12', false]]);
    expect(d('incorporated on 12 March 2019')).toEqual([['2019-03-12', false]]);
    expect(d('the 1st of Sept. 2020')).toEqual([['2020-09-01', false]]);
    expect(d('March 12, 2019')).toEqual([['2019-03-12', false]]);
    expect(d('31/03/2025')).toEqual([['2025-03-31', false]]);
    expect(d('12/31/2025')).toEqual([['2025-12-31', false]]);
    expect(d('03/12/2019')).toEqual([['2019-12-03', true]]);
    expect(d('31/02/2020 and 2021-13-01')).toEqual([]);
  });

  it('emails, web addresses and phone numbers', () => {
    expect(findEmails('Write to Luca@HarbourCafe.example or x@y').map((f) => f.value)).toEqual(['luca@harbourcafe.example']);
    expect(findUrls('See https://a.example/path, www.b.example. Mail c@d.example').map((f) => f.value)).toEqual(['https://a.example/path', 'https://www.b.example']);
    expect(readUrl('harbourstreetcafe.example')).toBe('https://harbourstreetcafe.example');
    expect(readUrl('hello@whitfield.example')).toBeUndefined();
    expect(findPhones('Call +44 20 7946 0321 or (0117) 496 0000.').map((f) => f.value)).toEqual(['+44 20 7946 0321', '(0117) 496 0000']);
    expect(findPhones('Dated 2019-03-12, ref 12345678')).toEqual([]);
    expect(findPhones('312-555-0199', true).map((f) => f.value)).toEqual(['312-555-0199']);
  });

  it('yes and no', () => {
    expect(['Yes', 'y', 'true', 'We can offer the van', 'will do'].map(readBoolean)).toEqual([true, true, true, true, true]);
    expect(['No', 'none', 'N/A', 'We cannot', 'not applicable', 'nil'].map(readBoolean)).toEqual([false, false, false, false, false, false]);
    expect(['Natwest overdraft', 'Yorkshire Bank', 'maybe'].map(readBoolean)).toEqual([undefined, undefined, undefined]);
  });

  it('choices by label and synonym; a longer phrase wins; other only when said', () => {
    const types = ['sole_trader', 'partnership', 'limited_company', 'llp', 'other'];
    expect(readSingleChoice('Private limited company', types)).toEqual({ value: 'limited_company', exact: false });
    expect(readSingleChoice('Limited liability partnership', types)?.value).toBe('llp');
    expect(readSingleChoice('A partnership of two', types)).toEqual({ value: 'partnership', exact: true });
    expect(readSingleChoice('Something else entirely', types)).toBeUndefined();
    expect(readSingleChoice('Other', types)?.value).toBe('other');
    expect(readSingleChoice('Hospitality (café and bakery)', ['retail', 'hospitality', 'other'])?.value).toBe('hospitality');
    expect(readSingleChoice('We run a café', ['retail', 'hospitality', 'other'])).toEqual({ value: 'hospitality', exact: false });
    expect(readMultiChoice('new machinery, stock and cash flow', ['working_capital', 'equipment', 'inventory', 'other'])).toEqual(['working_capital', 'equipment', 'inventory']);
  });

  it('people’s names', () => {
    expect(readPersonName('Luca Fontana')).toBe('Luca Fontana');
    expect(readPersonName('Dr. Anne-Marie van der Berg')).toBe('Anne-Marie van der Berg');
    expect(readPersonName('Harbour Street Hospitality Ltd')).toBeUndefined();
    expect(readPersonName('owner and director')).toBeUndefined();
  });

  it('addresses: UK with region, US state and ZIP, country codes', () => {
    expect(parseAddress('Unit 2, 27 Harbour Street, Whitby, North Yorkshire, YO21 3PU, United Kingdom')).toEqual({
      line1: '27 Harbour Street',
      line2: 'Unit 2',
      city: 'Whitby',
      region: 'North Yorkshire',
      postal_code: 'YO21 3PU',
      country: 'GB',
      country_name: 'United Kingdom',
    });
    expect(parseAddress('1200 Harbor Blvd, Dock 7, Oakland, CA 94607, USA')).toEqual({
      line1: '1200 Harbor Blvd',
      line2: 'Dock 7',
      city: 'Oakland',
      region: 'CA',
      postal_code: '94607',
      country: 'US',
      country_name: 'USA',
    });
    expect(parseAddress('Stonebridge Works, Quarry Lane, Bristol BS3 4QD')).toEqual({ line1: 'Stonebridge Works', line2: 'Quarry Lane', city: 'Bristol', postal_code: 'BS3 4QD' });
    expect(parseAddress('Somewhere nice, by the sea')).toBeUndefined();
  });
});

/* Rules over a contract. */

/** A contract the engine has never seen, with its own keys and wording: nothing in the engine knows it. */
function grantContract() {
  return assembleContract({ contract_version: 'grant-1', application_name: 'Community grant', description: '', instructions: '' }, [
    {
      section_key: 'org',
      label: 'Your organisation',
      entries: [
        question('text', 'organisation_title', 'Registered charity name', vs.text({ minLength: 2 }), 'x'),
        question('text', 'trading_as', 'Name the public knows you by', vs.text(), 'x'),
        question('integer', 'headcount', 'How many staff do you employ?', vs.integer(0, 10_000), 1),
        question('currency', 'grant_sought', 'Grant amount requested', vs.currency(100_000), 1),
        question('date', 'founded_on', 'When was the organisation founded?', vs.date(), '2020-01-01'),
        question('email', 'primary_email', 'Main email address', vs.email(), 'a@b.example'),
        question('phone', 'telephone', 'Telephone', vs.phone(), '+44 1'),
        question('url', 'site', 'Web address', vs.url(), 'https://x.example'),
        question('yes_no', 'vat_registered', 'Is the organisation VAT registered?', vs.yesNo(), true),
        question('multi_choice', 'focus_areas', 'Which areas does your work cover?', vs.multiChoice(['education', 'health', 'environment', 'arts', 'other']), ['education']),
        question('single_choice', 'legal_form', 'Legal form', vs.singleChoice(['charitable_trust', 'cio', 'company_limited_by_guarantee']), 'cio'),
        question('percent', 'overheads', 'Overheads as a share of spending', vs.percent(), 10),
        question('number', 'reserves_months', 'Months of reserves held', vs.number(), 3),
        question('long_text', 'project_summary', 'Summary of the project', vs.longText(), 'x'),
        addressQuestion('office', 'Office address', { line1: '', line2: '', city: '', region: '', postal_code: '', country: '' }),
        question('yes_no', 'declaration', 'I confirm the information is correct', vs.mustBeYes(), true),
      ],
    },
    { section_key: 'people', label: 'People', entries: [group('trustees', 1, 3, [question('text', 'trustee_name', 'Trustee full name', vs.text(), 'x'), question('date', 'trustee_dob', 'Date of birth', vs.date(), '1970-01-01')])] },
  ]);
}

const GRANT_EVIDENCE = `Charity name: Riverside Reading Trust (trading as Riverside Reads)
Staff: 12 employees
Grant requested: £45,000
Founded: 3 September 2012
Email: info@riverside-reading.example
Tel: 0161 496 0000
Web: riverside-reading.example
VAT registered: No
Areas of work: education and the arts
Legal form: Charitable incorporated organisation (CIO)
Overheads: 11.5%
Reserves: 4.5 months
Office: 5 Canal Street, Manchester, M1 3HE, England
I confirm: yes

Project summary:
We will run weekly reading clubs in six primary schools in north Manchester for two years, training volunteers and buying books.
`;

describe('rules over any contract', () => {
  it('proposes a value of every value type, matched by labels, keys and help', () => {
    const props = proposeFor(grantContract(), [textDoc(GRANT_EVIDENCE)]);
    expect(valuesOf(props)).toEqual({
      'organisation_title.value': 'Riverside Reading Trust',
      'trading_as.value': 'Riverside Reads',
      'headcount.value': 12,
      'grant_sought.value': 45_000,
      'founded_on.value': '2012-09-03',
      'primary_email.value': 'info@riverside-reading.example',
      'telephone.value': '0161 496 0000',
      'site.value': 'https://riverside-reading.example',
      'vat_registered.value': false,
      'focus_areas.value': ['education', 'arts'],
      'legal_form.value': 'cio',
      'overheads.value': 11.5,
      'reserves_months.value': 4.5,
      'project_summary.value': 'We will run weekly reading clubs in six primary schools in north Manchester for two years, training volunteers and buying books.',
      'office.line1': '5 Canal Street',
      'office.city': 'Manchester',
      'office.postal_code': 'M1 3HE',
      'office.country': 'GB',
    });
    // A declaration is the person's to make; repeatable items are only filled when there is exactly one.
    expect(props.every((p) => p.concerns.length === 0 && p.confidence >= 0.7)).toBe(true);
    const p = byTarget(props)['grant_sought.value']!;
    expect(p.source).toEqual({ docId: 'afev_text', kind: 'text', name: null, excerpt: 'Grant requested: £45,000' });
  });

  it('orders proposals by contract order and is deterministic', () => {
    const a = proposeFor(grantContract(), [textDoc(GRANT_EVIDENCE)]);
    const b = proposeFor(grantContract(), [textDoc(GRANT_EVIDENCE)]);
    expect(a).toEqual(b);
    const orders = a.map((p) => p.fieldId);
    expect(orders[0]).toBe('organisation_title|organisation_title|value|');
    expect(orders.indexOf('office|office|line1|')).toBeGreaterThan(orders.indexOf('project_summary|project_summary|value|'));
  });

  it('fills the one item of a repeatable group, scoped to it', () => {
    const items = { ritem_only: { item_id: 'ritem_only', block_key: 'trustees', parent_item_id: null, seq: 1, answers: {} } };
    const props = proposeFor(grantContract(), [textDoc('Trustee: Maya Okafor\nDate of birth: 14 August 1979')], emptyApp(items));
    expect(valuesOf(props)).toEqual({ 'trustee_name.value@ritem_only': 'Maya Okafor', 'trustee_dob.value@ritem_only': '1979-08-14' });
    const two = { ...items, ritem_two: { item_id: 'ritem_two', block_key: 'trustees', parent_item_id: null, seq: 2, answers: {} } };
    expect(proposeFor(grantContract(), [textDoc('Trustee: Maya Okafor')], emptyApp(two))).toEqual([]);
  });

  it('reads values in sentences from the words around them, with low confidence', () => {
    const text =
      'Riverside Reading Trust employs 12 people. We are seeking £45,000 for the project and were founded on 3 September 2012. Email us at info@riverside-reading.example.';
    const props = byTarget(proposeFor(grantContract(), [textDoc(text)]));
    expect(props['headcount.value']?.value).toBe(12);
    expect(props['grant_sought.value']?.value).toBe(45_000);
    expect(props['founded_on.value']?.value).toBe('2012-09-03');
    expect(props['primary_email.value']?.value).toBe('info@riverside-reading.example');
    for (const p of Object.values(props)) {
      expect(p.confidence).toBeLessThan(0.7);
      expect(p.concerns.map((c) => c.code)).toContain('low_confidence');
    }
    // A year on its own is not a count, an amount without a currency in a sentence is not money.
    expect(proposeFor(grantContract(), [textDoc('In 2019 we had 300 visitors and spent 2000 on books.')])).toEqual([]);
  });

  it('flags conflicting evidence and keeps the most confident value; agreeing sources raise confidence', () => {
    const a = fileDoc('Staff: 12\nGrant requested: £45,000', 'a.txt', 'afev_a');
    const b = fileDoc('Staff: 15\nGrant requested: £45,000', 'b.txt', 'afev_b');
    const props = byTarget(proposeFor(grantContract(), [a, b]));
    expect(props['headcount.value']?.value).toBe(12);
    expect(props['headcount.value']?.concerns).toEqual([{ code: 'conflicting_evidence', message: 'The evidence disagrees: it also gives “15” in b.txt.' }]);
    const single = byTarget(proposeFor(grantContract(), [a]))['grant_sought.value']!;
    expect(props['grant_sought.value']?.confidence).toBeGreaterThan(single.confidence - 0.01);
    expect(props['grant_sought.value']?.concerns).toEqual([]);
  });

  it('still proposes a value outside the value_schema, with an outside_schema concern', () => {
    const props = byTarget(proposeFor(grantContract(), [textDoc('Staff: 25,000\nGrant requested: £250,000\nCharity name: X')]));
    expect(props['headcount.value']).toMatchObject({ value: 25_000, concerns: [{ code: 'outside_schema' }] });
    expect(props['grant_sought.value']?.concerns[0]?.message).toContain('100,000');
    expect(props['organisation_title.value']?.concerns.map((c) => c.code)).toEqual(['outside_schema']);
  });

  it('marks an ambiguous date and skips values equal to the current answer', () => {
    const props = byTarget(proposeFor(grantContract(), [textDoc('Founded: 03/12/2012\nStaff: 12')]));
    expect(props['founded_on.value']).toMatchObject({ value: '2012-12-03', concerns: [{ code: 'ambiguous_value' }] });
    const answered = emptyApp({}, { 'headcount|headcount|value': 12 });
    expect(proposeFor(grantContract(), [textDoc('Staff: 12')], answered)).toEqual([]);
    const different = emptyApp({}, { 'headcount|headcount|value': 10 });
    expect(valuesOf(proposeFor(grantContract(), [textDoc('Staff: 12')], different))).toEqual({ 'headcount.value': 12 });
  });

  it('reads a net loss as a negative number and a legal name from "trading as" in a sentence', async () => {
    const funding = buildFundingContract();
    const props = valuesOf(proposeFor(funding, [textDoc('Oakridge Pharmacy LLC, trading as Oakridge Wellness, made a net loss of $35,000 last year.\nNet loss: $12,500')]));
    expect(props).toMatchObject({ 'legal_name.value': 'Oakridge Pharmacy LLC', 'trading_name.value': 'Oakridge Wellness', 'net_profit.value': -12_500 });
  });
});

/* The seed documents against the funding contract. */

const seedDocs = await Promise.all(
  seedDocuments().map(async (d, i) => {
    const r = await extractText(d.bytes, d.contentType, d.name);
    if (!r.ok) throw new Error(`${d.name}: ${r.reason}`);
    return { doc: fileDoc(r.text, d.name, `afev_seed${i}`), format: r.format };
  }),
);

describe('seed documents', () => {
  const docs = seedDocs;

  it('are a text file, a CSV and a generated PDF, all readable', () => {
    expect(docs.map((d) => [d.doc.name, d.format])).toEqual([
      ['business-summary.txt', 'text'],
      ['financial-summary.csv', 'csv'],
      [ACCOUNTS_PDF_NAME, 'pdf'],
    ]);
    expect(docs[2]!.doc.text.split('\n')).toContain('Registered office: 27 Harbour Street, Whitby, YO21 3PU, United Kingdom');
  });

  it('yield these proposals for the funding contract, value by value', () => {
    const props = proposeFor(buildFundingContract(), docs.map((d) => d.doc));
    expect(valuesOf(props)).toEqual({
      'legal_name.value': 'Harbour Street Hospitality Ltd',
      'trading_name.value': 'Harbour Street Café',
      'company_type.value': 'limited_company',
      'registration_number.value': '11842093',
      'date_established.value': '2019-03-12',
      'industry.value': 'hospitality',
      'employee_count.value': 14,
      'website.value': 'https://www.harbourstreetcafe.example',
      'business_address.line1': '27 Harbour Street',
      'business_address.line2': 'Unit 2',
      'business_address.city': 'Whitby',
      'business_address.region': 'North Yorkshire',
      'business_address.postal_code': 'YO21 3PU',
      'business_address.country': 'GB',
      'business_description.value':
        'Harbour Street Café is an independent café and bakery on Whitby\'s harbour front. We bake bread and pastries on site every morning, serve breakfast and lunch to around 400 customers a day in summer, and supply three local hotels with bread and cakes.',
      'contact_name.value': 'Luca Fontana',
      'contact_role.value': 'Owner and managing director',
      'contact_email.value': 'luca@harbourcafe.example',
      'contact_phone.value': '+44 20 7946 0321',
      'preferred_contact.value': 'email',
      'funding_amount.value': 85_000,
      'funding_purpose.value': ['working_capital', 'equipment'],
      'funding_timeline.value': 'within_one_month',
      'preferred_term_months.value': 48,
      'can_offer_collateral.value': true,
      'annual_revenue.value': 612_400,
      'net_profit.value': 48_250,
      'gross_margin.value': 64.5,
      'financial_year_end.value': '2025-03-31',
      'has_existing_debt.value': true,
      'existing_debt_amount.value': 18_500,
      'existing_lenders.value': 'Barclays business overdraft; Funding Circle term loan',
      'accountant_name.value': 'Whitfield & Co',
      'accountant_email.value': 'hello@whitfield.example',
      // The accounts' approval date next to "signed": a low-confidence guess a reviewer should dismiss.
      'signature_date.value': '2025-07-14',
    });
    const t = byTarget(props);
    // The PDF says 12 employees on average, the summary 14: the labelled summary wins, the disagreement is shown.
    expect(t['employee_count.value']!.concerns).toEqual([
      { code: 'conflicting_evidence', message: `The evidence disagrees: it also gives “12” in ${ACCOUNTS_PDF_NAME}.` },
    ]);
    expect(t['signature_date.value']!.concerns.map((c) => c.code)).toEqual(['low_confidence']);
    const withConcerns = props.filter((p) => p.concerns.length > 0).map((p) => p.fieldId.split('|')[1]);
    expect(withConcerns).toEqual(['employee_count', 'signature_date']);
    // Sources: the file and the line each value stands on.
    expect(t['annual_revenue.value']!.source).toEqual({ docId: 'afev_seed1', kind: 'file', name: 'financial-summary.csv', excerpt: 'Annual revenue: £612,400, Year to 31 March 2025' });
    expect(t['business_address.city']!.source.excerpt).toBe('Registered address: Unit 2, 27 Harbour Street, Whitby, North Yorkshire, YO21 3PU, United Kingdom');
    // Both the summary and the PDF give the incorporation date: the PDF's labelled line, confirmed by the other.
    expect(t['date_established.value']!.confidence).toBeGreaterThanOrEqual(0.95);
    expect(props.every((p) => p.source.excerpt.length <= 300)).toBe(true);
  });

  it('yield proposals from the PDF alone as well', () => {
    const props = valuesOf(proposeFor(buildFundingContract(), [docs[2]!.doc]));
    expect(props).toMatchObject({
      'registration_number.value': '11842093',
      'date_established.value': '2019-03-12',
      'employee_count.value': 12,
      'annual_revenue.value': 612_400,
      'net_profit.value': 48_250,
      'financial_year_end.value': '2025-03-31',
      'business_address.line1': '27 Harbour Street',
      'business_address.city': 'Whitby',
      'business_address.postal_code': 'YO21 3PU',
      'business_address.country': 'GB',
    });
  });
});

/* TargetField shape, for engines embedded elsewhere. */

describe('target fields', () => {
  it('leave out file questions and declarations-only readers do not propose', () => {
    const { fields } = targetsFor(emptyApp(), compileContract(buildFundingContract()));
    expect(fields.some((f: TargetField) => f.schemaKey === 'bank_statements')).toBe(false);
    expect(proposeFor(buildFundingContract(), [textDoc('The information in this application is true and complete: yes')])).toEqual([]);
  });
});
