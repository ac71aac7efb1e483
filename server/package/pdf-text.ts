import 'server-only';
import bidiFactory from 'bidi-js';
import { fontFor, scriptFor, type FontKey, type Script } from './fonts';

/**
 * Paragraph layout for the PDF, which pdfkit leaves to us for what it cannot do alone: choosing a font per
 * character (no one font covers Latin, Arabic, Hebrew, Chinese and emoji), the Unicode bidirectional
 * algorithm (an Arabic answer with a number or an English name in it), and line breaks for scripts without
 * spaces. fontkit shapes each run (Arabic joining forms, ligatures) and lays a right-to-left run out right
 * to left; this module decides which runs, in which visual order, on which line.
 */

const bidi = bidiFactory();

export interface TextStyle {
  readonly size: number;
  readonly weight: 'regular' | 'bold';
}

/** A word, a space or one CJK character, in one script at one bidi level. */
export interface Token {
  readonly text: string;
  readonly script: Script;
  readonly level: number;
  readonly space: boolean;
}

/** One line, ready to draw: its tokens in visual order (left to right) and its width. */
export interface LaidLine {
  readonly runs: readonly { text: string; font: FontKey; x: number }[];
  readonly width: number;
}

export interface Measure {
  (font: FontKey, size: number, text: string): number;
}

// Invisible by design: bidi controls, joiners and variation selectors steer the characters around them and
// have no glyph of their own (the bidi algorithm reads them first).
const INVISIBLE = /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufe00-\ufe0f\ufeff\u{e0100}-\u{e01ef}]/u;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const SPACE = /[\s\u00a0\u3000]/;
/** Characters after which a line may break without a space: ideographs, kana, Hangul. */
const CJK_BREAK = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u{20000}-\u{3134f}]/u;

const scriptCache = new Map<number, Script | null>();
const cachedScript = (cp: number) => {
  if (!scriptCache.has(cp)) scriptCache.set(cp, scriptFor(cp));
  return scriptCache.get(cp)!;
};

/** A character no shipped font has, shown as its code point so that nothing typed disappears unseen. */
export const markedReplacement = (cp: number) => `[U+${cp.toString(16).toUpperCase().padStart(4, '0')}]`;

// Explicit embeddings and overrides (LRE, RLE, PDF, LRO, RLO) are dropped before the algorithm runs: in a
// document a funder relies on, typed text must not be able to reorder itself into something else.
const OVERRIDES = /[\u202a-\u202e]/g;

/** One paragraph (no line feeds) as tokens in logical order. */
export function tokenize(typed: string): { tokens: Token[]; rtl: boolean } {
  const text = typed.replace(OVERRIDES, '');
  const embedding = bidi.getEmbeddingLevels(text);
  const mirrored = bidi.getMirroredCharactersMap(text, embedding.levels);
  const tokens: Token[] = [];
  let current: { text: string; script: Script; level: number } | null = null;
  const flush = () => {
    if (current) tokens.push({ ...current, space: false });
    current = null;
  };
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    const level = embedding.levels[i]!;
    const at = i;
    i += ch.length;
    if (INVISIBLE.test(ch) || CONTROL.test(ch)) continue;
    if (SPACE.test(ch)) {
      flush();
      tokens.push({ text: ' ', script: 'latin', level, space: true });
      continue;
    }
    const shown = mirrored.get(at) ?? ch;
    const script = cachedScript(cp);
    if (script === null) {
      flush();
      // Read left to right whatever surrounds it: an even level.
      tokens.push({ text: markedReplacement(cp), script: 'latin', level: level + (level % 2), space: false });
      continue;
    }
    const cur = current as { text: string; script: Script; level: number } | null;
    if (cur && cur.script === script && cur.level === level && !CJK_BREAK.test(ch) && !CJK_BREAK.test(cur.text.slice(-1))) {
      cur.text += shown;
    } else {
      flush();
      current = { text: shown, script, level };
    }
  }
  flush();
  return { tokens, rtl: (embedding.paragraphs[0]?.level ?? 0) % 2 === 1 };
}

/** Rule L2 of the bidi algorithm: from the highest level down to the lowest odd one, reverse every run at that level or above. */
export function visualOrder<T extends { level: number }>(line: readonly T[]): T[] {
  const out = [...line];
  if (out.length === 0) return out;
  const max = Math.max(...out.map((t) => t.level));
  const minOdd = Math.min(...out.map((t) => (t.level % 2 === 1 ? t.level : t.level + 1)));
  for (let level = max; level >= minOdd; level--) {
    for (let i = 0; i < out.length; ) {
      if (out[i]!.level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < out.length && out[j]!.level >= level) j++;
      const reversed = out.slice(i, j).reverse();
      out.splice(i, j - i, ...reversed);
      i = j;
    }
  }
  return out;
}

/** Splits a token too wide for any line into pieces that fit (a long number, a URL, 5,000 letters without a space). */
function splitWide(token: Token, font: FontKey, style: TextStyle, max: number, measure: Measure): Token[] {
  const pieces: Token[] = [];
  let piece = '';
  for (const ch of token.text) {
    if (piece !== '' && measure(font, style.size, piece + ch) > max) {
      pieces.push({ ...token, text: piece });
      piece = '';
    }
    piece += ch;
  }
  if (piece !== '') pieces.push({ ...token, text: piece });
  return pieces;
}

/** Lays a paragraph out in lines of at most `max` points, each in visual order, aligned to its base direction. */
export function layoutParagraph(text: string, style: TextStyle, max: number, measure: Measure): LaidLine[] {
  const { tokens, rtl } = tokenize(text);
  const width = (t: Token) => measure(fontFor(t.script, style.weight), style.size, t.text);
  const lines: { token: Token; width: number }[][] = [];
  let line: { token: Token; width: number }[] = [];
  let used = 0;
  const endLine = () => {
    while (line.length > 0 && line[line.length - 1]!.token.space) used -= line.pop()!.width;
    if (line.length > 0) lines.push(line);
    line = [];
    used = 0;
  };
  for (const token of tokens) {
    if (token.space && line.length === 0) continue;
    const w = width(token);
    if (!token.space && used + w > max && line.length > 0) endLine();
    if (!token.space && w > max) {
      for (const piece of splitWide(token, fontFor(token.script, style.weight), style, max, measure)) {
        const pw = width(piece);
        if (used + pw > max && line.length > 0) endLine();
        line.push({ token: piece, width: pw });
        used += pw;
      }
      continue;
    }
    line.push({ token, width: w });
    used += w;
  }
  endLine();
  return lines.map((l) => placeLine(l, rtl, max, style));
}

/** A line's tokens in visual order, neighbours of one font and direction merged into one run each. */
function placeLine(line: { token: Token; width: number }[], rtl: boolean, max: number, style: TextStyle): LaidLine {
  const ordered = visualOrder(line.map((l) => ({ ...l, level: l.token.level })));
  const width = ordered.reduce((sum, l) => sum + l.width, 0);
  let x = rtl ? max - width : 0;
  const runs: { text: string; font: FontKey; x: number }[] = [];
  let last: { text: string; font: FontKey; x: number; ltr: boolean } | null = null;
  for (const { token, width: w } of ordered) {
    const font = fontFor(token.script, style.weight);
    const ltr = token.level % 2 === 0;
    // Left-to-right neighbours in one font are drawn as one string (fewer operators, text extraction keeps
    // their spaces). A right-to-left word is drawn alone: fontkit reverses a whole run, spaces included.
    if (token.space) {
      if (last?.ltr) last.text += ' ';
      x += w;
      continue;
    }
    if (last && ltr && last.ltr && last.font === font) last.text += token.text;
    else {
      last = { text: token.text, font, x, ltr };
      runs.push(last);
    }
    x += w;
  }
  return { runs: runs.map(({ text, font, x: at }) => ({ text: text.trimEnd(), font, x: at })), width };
}
