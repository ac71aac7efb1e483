import { inflateRawSync, inflateSync, constants as zlibConstants } from 'node:zlib';
import {
  PdfError,
  PdfKeyword,
  PdfLexer,
  PdfName,
  PdfRef,
  PdfString,
  dictGet,
  nameOf,
  type PdfDict,
  type PdfValue,
} from './pdf-objects';

/**
 * Text of a PDF, without any library: the objects are found and parsed, FlateDecode (and ASCII hex/85) streams
 * inflated with node:zlib, pages walked in order, and the text operators of their content streams (Tj, TJ, '
 * and ") read with literal and hex strings, decoded through the font's ToUnicode map when it has one.
 */

export type PdfTextResult = { ok: true; text: string; pages: number } | { ok: false; code: 'corrupt_pdf' | 'encrypted_pdf' | 'no_text'; reason: string };

interface PdfObject {
  value: PdfValue;
  stream?: Buffer; // raw (still encoded) bytes
}

const MAX_DEPTH = 8;

/** WinAnsiEncoding's differences from Latin-1 (0x80-0x9F). */
const WIN_ANSI: Record<number, string> = {
  0x80: '€', 0x82: '‚', 0x83: 'ƒ', 0x84: '„', 0x85: '…', 0x86: '†', 0x87: '‡', 0x88: 'ˆ', 0x89: '‰', 0x8a: 'Š',
  0x8b: '‹', 0x8c: 'Œ', 0x8e: 'Ž', 0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x95: '•', 0x96: '–', 0x97: '—',
  0x98: '˜', 0x99: '™', 0x9a: 'š', 0x9b: '›', 0x9c: 'œ', 0x9e: 'ž', 0x9f: 'Ÿ',
};

export const winAnsiDecode = (bytes: Buffer) => {
  let s = '';
  for (const b of bytes) s += WIN_ANSI[b] ?? String.fromCharCode(b);
  return s;
};

class PdfFile {
  readonly objects = new Map<number, PdfObject>();
  trailer: PdfDict | null = null;

  constructor(readonly buf: Buffer) {
    const text = buf.toString('latin1');
    for (const m of text.matchAll(/(?:^|[\s>\]])(\d+)\s+(\d+)\s+obj\b/g)) {
      const num = Number(m[1]);
      const at = m.index + m[0].length;
      try {
        this.objects.set(num, this.readObject(at)); // a later definition (an incremental update) wins
      } catch {
        /* a damaged object: skipped, others may still carry text */
      }
    }
    for (const m of text.matchAll(/trailer\s*<</g)) {
      try {
        const lexer = new PdfLexer(buf, m.index + 'trailer'.length);
        const d = lexer.next();
        if (d instanceof Map) this.trailer = d;
      } catch {
        /* ignore */
      }
    }
    // Objects packed in object streams (PDF 1.5).
    for (const obj of [...this.objects.values()]) {
      if (nameOf(dictGet(obj.value, 'Type')) === 'ObjStm' && obj.stream) this.unpackObjectStream(obj);
    }
    if (!this.trailer) {
      const xref = [...this.objects.values()].find((o) => nameOf(dictGet(o.value, 'Type')) === 'XRef');
      if (xref && xref.value instanceof Map) this.trailer = xref.value;
    }
  }

  private readObject(at: number): PdfObject {
    const lexer = new PdfLexer(this.buf, at);
    const value = lexer.next();
    if (value === undefined) throw new PdfError('empty object');
    const save = lexer.pos;
    const kw = lexer.next();
    if (!(kw instanceof PdfKeyword) || kw.word !== 'stream') {
      lexer.pos = save;
      return { value };
    }
    let start = lexer.pos;
    if (this.buf[start] === 0x0d) start++;
    if (this.buf[start] === 0x0a) start++;
    const length = this.resolve(dictGet(value, 'Length'));
    let end = -1;
    if (typeof length === 'number' && length >= 0 && start + length <= this.buf.length) {
      const after = this.buf.toString('latin1', start + length, Math.min(this.buf.length, start + length + 20));
      if (/^\s*endstream/.test(after)) end = start + length;
    }
    if (end < 0) {
      end = this.buf.indexOf('endstream', start, 'latin1');
      if (end < 0) throw new PdfError('unterminated stream');
      if (this.buf[end - 1] === 0x0a) end--;
      if (this.buf[end - 1] === 0x0d) end--;
    }
    return { value, stream: this.buf.subarray(start, end) };
  }

  private unpackObjectStream(obj: PdfObject) {
    const data = this.decode(obj);
    const n = this.resolve(dictGet(obj.value, 'N'));
    const first = this.resolve(dictGet(obj.value, 'First'));
    if (!data || typeof n !== 'number' || typeof first !== 'number') return;
    const header = new PdfLexer(data, 0, Math.min(first, data.length));
    const entries: Array<[number, number]> = [];
    for (let i = 0; i < n; i++) {
      const num = header.next();
      const off = header.next();
      if (typeof num !== 'number' || typeof off !== 'number') break;
      entries.push([num, off]);
    }
    for (const [num, off] of entries) {
      if (this.objects.has(num)) continue;
      try {
        const value = new PdfLexer(data, first + off).next();
        if (value !== undefined) this.objects.set(num, { value });
      } catch {
        /* skip */
      }
    }
  }

  resolve(v: PdfValue | undefined, depth = 0): PdfValue | undefined {
    if (v instanceof PdfRef && depth < MAX_DEPTH) return this.resolve(this.objects.get(v.num)?.value, depth + 1);
    return v;
  }

  objectOf(v: PdfValue | undefined): PdfObject | undefined {
    return v instanceof PdfRef ? this.objects.get(v.num) : undefined;
  }

  /** The decoded bytes of a stream, or undefined for filters the engine does not read (images). */
  decode(obj: PdfObject): Buffer | undefined {
    if (!obj.stream) return undefined;
    const f = this.resolve(dictGet(obj.value, 'Filter'));
    const filters = (Array.isArray(f) ? f : f === undefined ? [] : [f]).map((x) => nameOf(this.resolve(x)));
    let data = obj.stream;
    for (const filter of filters) {
      if (filter === 'FlateDecode' || filter === 'Fl') data = inflate(data);
      else if (filter === 'ASCIIHexDecode' || filter === 'AHx') data = asciiHex(data);
      else if (filter === 'ASCII85Decode' || filter === 'A85') data = ascii85(data);
      else return undefined;
    }
    return data;
  }
}

function inflate(data: Buffer): Buffer {
  try {
    return inflateSync(data);
  } catch {
    try {
      // Many writers leave the stream without its final checksum: take what inflates.
      return inflateSync(data, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    } catch {
      return inflateRawSync(data);
    }
  }
}

function asciiHex(data: Buffer): Buffer {
  let hex = data.toString('latin1').replace(/\s+/g, '');
  const end = hex.indexOf('>');
  if (end >= 0) hex = hex.slice(0, end);
  if (hex.length % 2) hex += '0';
  if (!/^[0-9a-fA-F]*$/.test(hex)) throw new PdfError('bad ASCIIHex data');
  return Buffer.from(hex, 'hex');
}

function ascii85(data: Buffer): Buffer {
  const text = data.toString('latin1').replace(/\s+/g, '').replace(/^<~/, '');
  const end = text.indexOf('~>');
  const body = end >= 0 ? text.slice(0, end) : text;
  const out: number[] = [];
  let group: number[] = [];
  const flush = (g: number[], count: number) => {
    let n = 0;
    for (const c of g) n = n * 85 + c;
    const bytes = [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
    out.push(...bytes.slice(0, count));
  };
  for (const ch of body) {
    if (ch === 'z' && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    const c = ch.charCodeAt(0) - 33;
    if (c < 0 || c > 84) throw new PdfError('bad ASCII85 data');
    group.push(c);
    if (group.length === 5) {
      flush(group, 4);
      group = [];
    }
  }
  if (group.length > 0) {
    const count = group.length - 1;
    while (group.length < 5) group.push(84);
    flush(group, count);
  }
  return Buffer.from(out);
}

/* Fonts: ToUnicode maps. */

interface FontDecoder {
  decode(bytes: Buffer): string;
}

const utf16 = (bytes: Buffer) => {
  let s = '';
  for (let i = 0; i + 1 < bytes.length; i += 2) s += String.fromCharCode((bytes[i]! << 8) | bytes[i + 1]!);
  return s;
};

/** Strings of a font without a ToUnicode map: UTF-16 when marked or evidently so, else WinAnsi. */
export function decodeSimple(bytes: Buffer, hex: boolean): string {
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return utf16(bytes.subarray(2));
  if (hex && bytes.length >= 2 && bytes.length % 2 === 0) {
    let zeroHigh = true;
    for (let i = 0; i < bytes.length; i += 2) if (bytes[i] !== 0) zeroHigh = false;
    if (zeroHigh) return utf16(bytes);
  }
  return winAnsiDecode(bytes);
}

function parseToUnicode(data: Buffer): FontDecoder | undefined {
  const text = data.toString('latin1');
  const map = new Map<number, string>();
  let width = 1;
  const range = /begincodespacerange([\s\S]*?)endcodespacerange/.exec(text);
  const firstCode = range ? /<([0-9a-fA-F]+)>/.exec(range[1]!) : null;
  if (firstCode) width = Math.max(1, Math.ceil(firstCode[1]!.length / 2));
  const hexToStr = (h: string) => utf16(Buffer.from(h.length % 4 ? h.padStart(Math.ceil(h.length / 4) * 4, '0') : h, 'hex'));
  for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const m of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]*)>/g)) map.set(parseInt(m[1]!, 16), hexToStr(m[2]!));
  }
  for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const m of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(<[0-9a-fA-F]*>|\[[^\]]*\])/g)) {
      const lo = parseInt(m[1]!, 16);
      const hi = parseInt(m[2]!, 16);
      if (hi < lo || hi - lo > 0xffff) continue;
      const dst = m[3]!;
      if (dst.startsWith('[')) {
        const items = [...dst.matchAll(/<([0-9a-fA-F]*)>/g)].map((x) => x[1]!);
        items.forEach((h, i) => lo + i <= hi && map.set(lo + i, hexToStr(h)));
      } else {
        const base = dst.slice(1, -1);
        const start = hexToStr(base);
        const last = start.charCodeAt(start.length - 1);
        for (let c = lo; c <= hi; c++) map.set(c, start.slice(0, -1) + String.fromCharCode(last + (c - lo)));
      }
    }
  }
  if (map.size === 0) return undefined;
  return {
    decode(bytes) {
      let s = '';
      for (let i = 0; i + width <= bytes.length; i += width) {
        let code = 0;
        for (let j = 0; j < width; j++) code = (code << 8) | bytes[i + j]!;
        s += map.get(code) ?? '';
      }
      return s;
    },
  };
}

/* Content streams. */

class TextSink {
  lines: string[] = [];
  private line = '';
  newline() {
    if (this.line.trim()) this.lines.push(this.line.replace(/\s+/g, ' ').trim());
    this.line = '';
  }
  space() {
    if (this.line && !this.line.endsWith(' ')) this.line += ' ';
  }
  add(text: string) {
    this.line += text.replace(/[\r\n]+/g, ' ');
  }
}

interface Resources {
  fonts: Map<string, FontDecoder | undefined>;
  xobjects: Map<string, PdfObject>;
}

class Extractor {
  private readonly fontCache = new Map<number, FontDecoder | undefined>();
  readonly sink = new TextSink();

  constructor(private readonly file: PdfFile) {}

  resources(dict: PdfValue | undefined): Resources {
    const res = this.file.resolve(dict);
    const fonts = new Map<string, FontDecoder | undefined>();
    const fontDict = this.file.resolve(dictGet(res, 'Font'));
    if (fontDict instanceof Map) {
      for (const [name, ref] of fontDict) fonts.set(name, this.font(ref));
    }
    const xobjects = new Map<string, PdfObject>();
    const xDict = this.file.resolve(dictGet(res, 'XObject'));
    if (xDict instanceof Map) {
      for (const [name, ref] of xDict) {
        const obj = this.file.objectOf(ref);
        if (obj && nameOf(dictGet(obj.value, 'Subtype')) === 'Form') xobjects.set(name, obj);
      }
    }
    return { fonts, xobjects };
  }

  private font(ref: PdfValue): FontDecoder | undefined {
    const key = ref instanceof PdfRef ? ref.num : -1;
    if (key >= 0 && this.fontCache.has(key)) return this.fontCache.get(key);
    let decoder: FontDecoder | undefined;
    const font = this.file.resolve(ref);
    const tu = this.file.objectOf(dictGet(font, 'ToUnicode'));
    if (tu) {
      try {
        const data = this.file.decode(tu);
        if (data) decoder = parseToUnicode(data);
      } catch {
        decoder = undefined;
      }
    }
    if (key >= 0) this.fontCache.set(key, decoder);
    return decoder;
  }

  /** Reads one content stream's text operators into the sink. */
  run(data: Buffer, res: Resources, depth = 0) {
    const lexer = new PdfLexer(data);
    const operands: PdfValue[] = [];
    let font: FontDecoder | undefined;
    // The text line matrix's translation (reset by BT), and where the last line was placed on the page.
    let lmX = 0;
    let lmY = 0;
    let lastX = 0;
    let lastY: number | null = null;
    let leading = 0;
    const show = (s: PdfValue | undefined) => {
      if (s instanceof PdfString) this.sink.add(font ? font.decode(s.bytes) : decodeSimple(s.bytes, s.hex));
    };
    /** A new line position: another baseline starts a new line, a move along the same baseline a new word. */
    const setLine = (x: number, y: number) => {
      lmX = x;
      lmY = y;
      if (lastY === null || Math.abs(y - lastY) > 0.5) this.sink.newline();
      else if (Math.abs(x - lastX) > 0.5) this.sink.space();
      lastX = x;
      lastY = y;
    };
    const nextLine = () => setLine(lmX, lmY - (leading || 12));
    while (!lexer.atEnd()) {
      let t: PdfValue | undefined;
      try {
        t = lexer.next();
      } catch {
        break; // a damaged stream: keep what was read
      }
      if (!(t instanceof PdfKeyword)) {
        operands.push(t ?? null);
        continue;
      }
      const num = (i: number) => {
        const v = operands[operands.length - i];
        return typeof v === 'number' ? v : 0;
      };
      switch (t.word) {
        case 'BT':
          lmX = 0;
          lmY = 0;
          break;
        case 'Tf': {
          const name = operands[operands.length - 2];
          font = name instanceof PdfName ? res.fonts.get(name.name) : undefined;
          break;
        }
        case 'TL':
          leading = num(1);
          break;
        case 'Td':
          setLine(lmX + num(2), lmY + num(1));
          break;
        case 'TD':
          leading = -num(1);
          setLine(lmX + num(2), lmY + num(1));
          break;
        case 'Tm':
          setLine(num(2), num(1));
          break;
        case 'T*':
          nextLine();
          break;
        case 'Tj':
          show(operands[operands.length - 1]);
          break;
        case "'":
        case '"':
          nextLine();
          show(operands[operands.length - 1]);
          break;
        case 'TJ': {
          const arr = operands[operands.length - 1];
          if (Array.isArray(arr)) {
            for (const item of arr) {
              if (typeof item === 'number') {
                if (item < -200) this.sink.space();
              } else show(item);
            }
          }
          break;
        }
        case 'Do': {
          const name = operands[operands.length - 1];
          const form = name instanceof PdfName ? res.xobjects.get(name.name) : undefined;
          if (form && depth < 4) {
            const inner = this.file.decode(form);
            const formRes = dictGet(form.value, 'Resources');
            if (inner) this.run(inner, formRes ? this.resources(formRes) : res, depth + 1);
          }
          break;
        }
        case 'ID':
          lexer.skipInlineImage();
          break;
        default:
          break;
      }
      operands.length = 0;
    }
    this.sink.newline();
  }
}

/** Pages in order: the page tree from the catalog, with inherited resources. */
function pagesOf(file: PdfFile): Array<{ contents: PdfObject[]; resources: PdfValue | undefined }> {
  let root = file.resolve(dictGet(file.trailer ?? undefined, 'Root'));
  if (!(root instanceof Map)) root = [...file.objects.values()].map((o) => o.value).find((v) => nameOf(dictGet(v, 'Type')) === 'Catalog');
  const pages: Array<{ contents: PdfObject[]; resources: PdfValue | undefined }> = [];
  const seen = new Set<PdfValue>();
  const walk = (node: PdfValue | undefined, inherited: PdfValue | undefined, depth: number) => {
    const d = file.resolve(node);
    if (!(d instanceof Map) || seen.has(d) || depth > 32) return;
    seen.add(d);
    const resources = dictGet(d, 'Resources') ?? inherited;
    const kids = file.resolve(dictGet(d, 'Kids'));
    if (Array.isArray(kids)) {
      for (const k of kids) walk(k, resources, depth + 1);
      return;
    }
    const c = dictGet(d, 'Contents');
    const resolved = file.resolve(c);
    const refs = Array.isArray(resolved) ? resolved : [c];
    const contents = refs.map((r) => file.objectOf(r)).filter((o): o is PdfObject => Boolean(o?.stream));
    pages.push({ contents, resources });
  };
  walk(dictGet(root, 'Pages'), undefined, 0);
  return pages;
}

const SKIP_TYPES = new Set(['XRef', 'ObjStm', 'Metadata', 'EmbeddedFile']);

export function extractPdfText(bytes: Buffer): PdfTextResult {
  const head = bytes.subarray(0, 1024).toString('latin1');
  if (!head.includes('%PDF-')) return { ok: false, code: 'corrupt_pdf', reason: 'The file is not a PDF: it has no %PDF header.' };
  let file: PdfFile;
  try {
    file = new PdfFile(bytes);
  } catch {
    return { ok: false, code: 'corrupt_pdf', reason: 'The PDF could not be parsed.' };
  }
  if (file.objects.size === 0) return { ok: false, code: 'corrupt_pdf', reason: 'The PDF has no readable objects; it may be damaged or truncated.' };
  if (dictGet(file.trailer ?? undefined, 'Encrypt') !== undefined) {
    return { ok: false, code: 'encrypted_pdf', reason: 'The PDF is encrypted; upload a copy without a password.' };
  }
  const extractor = new Extractor(file);
  let pages = pagesOf(file);
  let failedStreams = 0;
  let readStreams = 0;
  const read = (obj: PdfObject, resources: PdfValue | undefined) => {
    let data: Buffer | undefined;
    try {
      data = file.decode(obj);
    } catch {
      failedStreams++;
      return;
    }
    if (!data) return;
    readStreams++;
    extractor.run(data, extractor.resources(resources));
  };
  if (pages.length > 0) {
    for (const page of pages) {
      for (const c of page.contents) read(c, page.resources);
      extractor.sink.newline();
    }
  } else {
    // No page tree: every stream that is neither an image, a font nor structure, in file order.
    pages = [];
    const candidates = [...file.objects.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([, o]) => o)
      .filter((o) => o.stream && !SKIP_TYPES.has(nameOf(dictGet(o.value, 'Type')) ?? '') && nameOf(dictGet(o.value, 'Subtype')) !== 'Image' && dictGet(o.value, 'Length1') === undefined);
    for (const c of candidates) read(c, dictGet(c.value, 'Resources'));
  }
  const text = extractor.sink.lines.join('\n').trim();
  if (!text) {
    if (failedStreams > 0 && readStreams === 0) {
      return { ok: false, code: 'corrupt_pdf', reason: 'The PDF’s content could not be decompressed; the file may be damaged.' };
    }
    return { ok: false, code: 'no_text', reason: 'The PDF has no text to read (it may be a scanned image).' };
  }
  return { ok: true, text, pages: Math.max(1, pages.length) };
}
