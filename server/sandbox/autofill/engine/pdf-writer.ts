import { deflateSync } from 'node:zlib';

/**
 * A tiny, deterministic PDF writer: one Helvetica (WinAnsi) font, one FlateDecode content stream per page,
 * a correct cross-reference table. Used to generate the seed documents and the engine's test files, and to
 * exercise each text operator the reader understands.
 */

export type PdfTextStyle =
  /** `(line) Tj` after `T*` */
  | 'Tj'
  /** `[(li) -20 (ne)] TJ`, words split by wide kerning gaps */
  | 'TJ'
  /** `(line) '` */
  | 'quote'
  /** `<hex> Tj` */
  | 'hex'
  /** each line placed with its own `Tm` */
  | 'Tm';

export interface PdfWriteOptions {
  style?: PdfTextStyle;
  /** Leave the content streams uncompressed. */
  uncompressed?: boolean;
  title?: string;
}

const WIN_ANSI_REVERSE: Record<string, number> = {
  '€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88, '‰': 0x89, 'Š': 0x8a,
  '‹': 0x8b, 'Œ': 0x8c, 'Ž': 0x8e, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97,
  '˜': 0x98, '™': 0x99, 'š': 0x9a, '›': 0x9b, 'œ': 0x9c, 'ž': 0x9e, 'Ÿ': 0x9f,
};

/** Text as WinAnsi bytes; characters outside it become '?'. */
export function winAnsiBytes(text: string): Buffer {
  const out: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (WIN_ANSI_REVERSE[ch] !== undefined) out.push(WIN_ANSI_REVERSE[ch]!);
    else if (code < 0x100 && !(code >= 0x80 && code < 0xa0)) out.push(code);
    else out.push(0x3f);
  }
  return Buffer.from(out);
}

/** A literal string operand: ( ) and \ escaped, bytes outside printable ASCII written as octal. */
export function literal(bytes: Buffer): string {
  let s = '(';
  for (const b of bytes) {
    if (b === 0x28 || b === 0x29 || b === 0x5c) s += `\\${String.fromCharCode(b)}`;
    else if (b < 0x20 || b > 0x7e) s += `\\${b.toString(8).padStart(3, '0')}`;
    else s += String.fromCharCode(b);
  }
  return `${s})`;
}

function pageContent(lines: string[], style: PdfTextStyle): string {
  const top = 800;
  const ops: string[] = ['BT', '/F1 11 Tf', '14 TL'];
  lines.forEach((line, i) => {
    const bytes = winAnsiBytes(line);
    if (style === 'Tm') {
      ops.push(`1 0 0 1 56 ${top - i * 14} Tm`, `${literal(bytes)} Tj`);
      return;
    }
    if (i === 0) ops.push(`56 ${top} Td`);
    else if (style !== 'quote') ops.push('T*');
    if (style === 'Tj') ops.push(`${literal(bytes)} Tj`);
    else if (style === 'quote') ops.push(i === 0 ? `${literal(bytes)} Tj` : `${literal(bytes)} '`);
    else if (style === 'hex') ops.push(`<${bytes.toString('hex').toUpperCase()}> Tj`);
    else {
      // Words as separate strings with a wide gap between them, and a small kerning pair inside the first word.
      const parts = line.split(' ').map((w, j) => {
        const wb = winAnsiBytes(w);
        if (j === 0 && wb.length > 2) return `${literal(wb.subarray(0, 1))} 15 ${literal(wb.subarray(1))}`;
        return literal(wb);
      });
      ops.push(`[${parts.join(' -278 ')}] TJ`);
    }
  });
  ops.push('ET');
  return `${ops.join('\n')}\n`;
}

/** A PDF whose pages show `pages` (lines of text per page). Same input, same bytes. */
export function writePdf(pages: string[][], options: PdfWriteOptions = {}): Buffer {
  const style = options.style ?? 'Tj';
  const chunks: Buffer[] = [];
  const offsets: number[] = [];
  let size = 0;
  const write = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    chunks.push(buf);
    size += buf.length;
  };
  const object = (num: number, body: Buffer | string) => {
    offsets[num] = size;
    write(`${num} 0 obj\n`);
    write(body);
    write('\nendobj\n');
  };

  write('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  const fontNum = 3;
  const firstPage = 4 + (options.title ? 1 : 0);
  const pageNums = pages.map((_, i) => firstPage + i * 2);
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, `<< /Type /Pages /Kids [${pageNums.map((n) => `${n} 0 R`).join(' ')}] /Count ${pages.length} >>`);
  object(fontNum, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  if (options.title) object(4, `<< /Title ${literal(winAnsiBytes(options.title))} /Producer (sandbox pdf-writer) >>`);
  pages.forEach((lines, i) => {
    const pageNum = pageNums[i]!;
    const contentNum = pageNum + 1;
    object(
      pageNum,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${fontNum} 0 R >> >> /Contents ${contentNum} 0 R >>`,
    );
    const raw = Buffer.from(pageContent(lines, style), 'latin1');
    const data = options.uncompressed ? raw : deflateSync(raw, { level: 9 });
    offsets[contentNum] = size;
    write(`${contentNum} 0 obj\n<< /Length ${data.length}${options.uncompressed ? '' : ' /Filter /FlateDecode'} >>\nstream\n`);
    write(data);
    write('\nendstream\nendobj\n');
  });
  const count = offsets.length;
  const xref = size;
  write(`xref\n0 ${count}\n0000000000 65535 f \n`);
  for (let n = 1; n < count; n++) write(`${String(offsets[n] ?? 0).padStart(10, '0')} 00000 n \n`);
  write(`trailer\n<< /Size ${count} /Root 1 0 R${options.title ? ' /Info 4 0 R' : ''} >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(chunks);
}
