import { describe, expect, it } from 'vitest';
import { layoutParagraph, markedReplacement, tokenize, visualOrder } from '@/server/package/pdf-text';

/** The PDF's paragraph layout: a font per character, the bidi algorithm, line breaks; nothing typed is lost. */

// Every character 6 points wide at any size: enough to check breaks and positions.
const measure = (_font: string, _size: number, text: string) => Array.from(text).length * 6;
const style = { size: 10, weight: 'regular' } as const;
const textOf = (lines: ReturnType<typeof layoutParagraph>) => lines.map((l) => l.runs.map((r) => r.text).join('|'));

describe('tokenize', () => {
  it('sets each script in a font that has it, emoji included', () => {
    const { tokens } = tokenize('Zürich Ελλάδα Москва 深圳 مرحبا שלום 🚀');
    const scripts = tokens.filter((t) => !t.space).map((t) => `${t.script}:${t.text}`);
    expect(scripts).toEqual(['latin:Zürich', 'latin:Ελλάδα', 'latin:Москва', 'cjk:深', 'cjk:圳', 'arabic:مرحبا', 'hebrew:שלום', 'emoji:🚀']);
  });

  it('shows a character no shipped font has as its code point, never dropping it', () => {
    // Linear B and a private-use character: in none of the fonts.
    const { tokens } = tokenize('a\u{10000}b\ue000');
    expect(tokens.map((t) => t.text).join('')).toBe(`a${markedReplacement(0x10000)}b${markedReplacement(0xe000)}`);
    expect(markedReplacement(0x10000)).toBe('[U+10000]');
  });

  it('drops invisible controls, and bidi overrides that would make typed text read as something else', () => {
    const { tokens } = tokenize('invoice\u202efdp.exe\u200d');
    expect(tokens.map((t) => t.text).join('')).toBe('invoicefdp.exe');
    expect(tokens.every((t) => t.level === 0)).toBe(true);
  });

  it('finds the paragraph direction from its first strong character', () => {
    expect(tokenize('مرحبا world').rtl).toBe(true);
    expect(tokenize('world مرحبا').rtl).toBe(false);
  });
});

describe('visualOrder (bidi rule L2)', () => {
  it('reverses right-to-left runs and keeps numbers and Latin inside them left to right', () => {
    const order = (s: string) => visualOrder(tokenize(s).tokens.filter((t) => !t.space)).map((t) => t.text);
    // Logical: first word, second word, 2024 — seen from the left: 2024, second word, first word.
    expect(order('نصمم القطع 2024')).toEqual(['2024', 'القطع', 'نصمم']);
    expect(order('Order مرحبا بالعالم now')).toEqual(['Order', 'بالعالم', 'مرحبا', 'now']);
  });
});

describe('layoutParagraph', () => {
  it('breaks at spaces, and a right-to-left paragraph is aligned right', () => {
    const lines = layoutParagraph('مرحبا بالعالم', style, 1000, measure);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.runs.map((r) => r.text)).toEqual(['بالعالم', 'مرحبا']);
    expect(lines[0]!.runs[1]!.x + 5 * 6).toBe(1000);
    expect(textOf(layoutParagraph('one two three four', style, 60, measure))).toEqual(['one two', 'three four']);
  });

  it('breaks Chinese and Japanese between characters, and a word too long for a line inside it', () => {
    expect(textOf(layoutParagraph('深圳精密机械', style, 24, measure))).toEqual(['深圳精密', '机械']);
    const long = layoutParagraph('x'.repeat(25), style, 60, measure);
    expect(textOf(long)).toEqual(['xxxxxxxxxx', 'xxxxxxxxxx', 'xxxxx']);
  });

  it('keeps every character typed, across lines', () => {
    const typed = 'Société 🚀 深圳 abc';
    const kept = layoutParagraph(typed, style, 40, measure).flatMap((l) => l.runs.map((r) => r.text)).join('');
    expect(kept).toBe(typed.replace(/ /g, ''));
  });
});
