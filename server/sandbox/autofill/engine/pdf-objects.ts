/**
 * A small reader of PDF syntax (ISO 32000-1 §7.2-7.3): the lexer and value parser shared by the file's objects
 * and its content streams. Works on bytes; strings stay bytes until a font decides what they mean.
 */

export class PdfName {
  constructor(readonly name: string) {}
}
export class PdfString {
  constructor(
    readonly bytes: Buffer,
    readonly hex: boolean,
  ) {}
}
export class PdfRef {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}
/** An operator of a content stream, or a keyword of the file structure (obj, stream, R...). */
export class PdfKeyword {
  constructor(readonly word: string) {}
}
export type PdfDict = Map<string, PdfValue>;
export type PdfValue = number | boolean | null | PdfName | PdfString | PdfRef | PdfKeyword | PdfValue[] | PdfDict;

const isWhite = (c: number) => c === 0x00 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x20;
// ( ) < > [ ] { } / %
const isDelim = (c: number) =>
  c === 0x28 || c === 0x29 || c === 0x3c || c === 0x3e || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x2f || c === 0x25;
const isRegular = (c: number) => !isWhite(c) && !isDelim(c);
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;

export class PdfError extends Error {}

/** Sequential reader over PDF bytes. */
export class PdfLexer {
  pos: number;
  constructor(
    readonly buf: Buffer,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  private skipWhite() {
    const { buf } = this;
    while (this.pos < this.end) {
      const c = buf[this.pos]!;
      if (isWhite(c)) this.pos++;
      else if (c === 0x25) {
        while (this.pos < this.end && buf[this.pos] !== 0x0a && buf[this.pos] !== 0x0d) this.pos++;
      } else break;
    }
  }

  atEnd() {
    this.skipWhite();
    return this.pos >= this.end;
  }

  /** The next value, keyword or closing delimiter; undefined at the end. */
  private token(): PdfValue | { close: string } | undefined {
    this.skipWhite();
    if (this.pos >= this.end) return undefined;
    const { buf } = this;
    const c = buf[this.pos]!;
    if (c === 0x28) return this.literalString();
    if (c === 0x3c) {
      if (buf[this.pos + 1] === 0x3c) {
        this.pos += 2;
        return this.dict();
      }
      return this.hexString();
    }
    if (c === 0x3e && buf[this.pos + 1] === 0x3e) {
      this.pos += 2;
      return { close: '>>' };
    }
    if (c === 0x5b) {
      this.pos++;
      return this.array();
    }
    if (c === 0x5d) {
      this.pos++;
      return { close: ']' };
    }
    if (c === 0x2f) return this.name();
    if (c === 0x29 || c === 0x3e || c === 0x7b || c === 0x7d) {
      this.pos++;
      return new PdfKeyword(String.fromCharCode(c));
    }
    const start = this.pos;
    while (this.pos < this.end && isRegular(buf[this.pos]!)) this.pos++;
    const word = buf.toString('latin1', start, this.pos);
    if (NUMBER.test(word)) return Number(word);
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'null') return null;
    return new PdfKeyword(word);
  }

  /** The next value; numbers followed by `G R` become references. */
  next(): PdfValue | undefined {
    const t = this.token();
    if (t === undefined) return undefined;
    if (typeof t === 'object' && t !== null && 'close' in t) throw new PdfError(`unexpected ${t.close}`);
    if (typeof t === 'number' && Number.isInteger(t) && t >= 0) {
      const save = this.pos;
      const gen = this.token();
      if (typeof gen === 'number' && Number.isInteger(gen)) {
        const r = this.token();
        if (r instanceof PdfKeyword && r.word === 'R') return new PdfRef(t, gen);
      }
      this.pos = save;
    }
    return t as PdfValue;
  }

  private array(): PdfValue[] {
    const out: PdfValue[] = [];
    for (;;) {
      const save = this.pos;
      const t = this.token();
      if (t === undefined) throw new PdfError('unterminated array');
      if (typeof t === 'object' && t !== null && 'close' in t) {
        if (t.close === ']') return out;
        throw new PdfError('unexpected >> in array');
      }
      this.pos = save;
      out.push(this.next()!);
    }
  }

  private dict(): PdfDict {
    const out: PdfDict = new Map();
    for (;;) {
      const t = this.token();
      if (t === undefined) throw new PdfError('unterminated dictionary');
      if (typeof t === 'object' && t !== null && 'close' in t) {
        if (t.close === '>>') return out;
        throw new PdfError('unexpected ] in dictionary');
      }
      if (!(t instanceof PdfName)) throw new PdfError('dictionary key is not a name');
      const value = this.next();
      if (value === undefined) throw new PdfError('unterminated dictionary');
      out.set(t.name, value);
    }
  }

  private name(): PdfName {
    const { buf } = this;
    this.pos++; // '/'
    const start = this.pos;
    while (this.pos < this.end && isRegular(buf[this.pos]!)) this.pos++;
    const raw = buf.toString('latin1', start, this.pos);
    return new PdfName(raw.replace(/#([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))));
  }

  private hexString(): PdfString {
    const { buf } = this;
    this.pos++; // '<'
    let hex = '';
    while (this.pos < this.end && buf[this.pos] !== 0x3e) {
      const c = buf[this.pos]!;
      if (!isWhite(c)) hex += String.fromCharCode(c);
      this.pos++;
    }
    if (this.pos >= this.end) throw new PdfError('unterminated hex string');
    this.pos++; // '>'
    if (!/^[0-9a-fA-F]*$/.test(hex)) throw new PdfError('bad hex string');
    if (hex.length % 2) hex += '0';
    return new PdfString(Buffer.from(hex, 'hex'), true);
  }

  private literalString(): PdfString {
    const { buf } = this;
    this.pos++; // '('
    const out: number[] = [];
    let depth = 1;
    while (this.pos < this.end) {
      const c = buf[this.pos++]!;
      if (c === 0x5c) {
        const e = buf[this.pos++];
        if (e === undefined) break;
        if (e === 0x6e) out.push(0x0a);
        else if (e === 0x72) out.push(0x0d);
        else if (e === 0x74) out.push(0x09);
        else if (e === 0x62) out.push(0x08);
        else if (e === 0x66) out.push(0x0c);
        else if (e === 0x0d) {
          if (buf[this.pos] === 0x0a) this.pos++; // a backslash before the end of a line joins the lines
        } else if (e === 0x0a) {
          /* line continuation */
        } else if (e >= 0x30 && e <= 0x37) {
          let n = e - 0x30;
          for (let i = 0; i < 2 && buf[this.pos]! >= 0x30 && buf[this.pos]! <= 0x37; i++) n = n * 8 + (buf[this.pos++]! - 0x30);
          out.push(n & 0xff);
        } else out.push(e); // \( \) \\ and unknown escapes stand for themselves
        continue;
      }
      if (c === 0x28) depth++;
      if (c === 0x29 && --depth === 0) return new PdfString(Buffer.from(out), false);
      out.push(c);
    }
    throw new PdfError('unterminated string');
  }

  /** Skips an inline image's data (after ID up to EI). */
  skipInlineImage() {
    const { buf } = this;
    this.pos++; // the single white-space byte after ID
    while (this.pos < this.end - 1) {
      if (buf[this.pos] === 0x45 && buf[this.pos + 1] === 0x49 && isWhite(buf[this.pos - 1]!) && (this.pos + 2 >= this.end || isWhite(buf[this.pos + 2]!))) {
        this.pos += 2;
        return;
      }
      this.pos++;
    }
    this.pos = this.end;
  }
}

export const dictGet = (d: PdfValue | undefined, key: string): PdfValue | undefined => (d instanceof Map ? d.get(key) : undefined);
export const nameOf = (v: PdfValue | undefined) => (v instanceof PdfName ? v.name : undefined);
