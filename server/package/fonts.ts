import 'server-only';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fontkit from 'fontkit';
import { processWide } from '@/server/process-wide';

/**
 * The fonts a funder's PDF is set in, shipped as npm packages (nothing is fetched at run time): Noto Sans
 * for Latin, Greek and Cyrillic, Noto Naskh Arabic, Noto Sans Hebrew, Noto Sans Hans (simplified Chinese;
 * it carries kana and the kanji of everyday Japanese too) and Noto Emoji (monochrome: a PDF cannot show
 * colour emoji portably). A character is set in the first font of FALLBACK that has a glyph for it.
 */
export type FontKey = 'latin' | 'latinBold' | 'arabic' | 'arabicBold' | 'hebrew' | 'hebrewBold' | 'cjk' | 'cjkBold' | 'emoji';
export type Script = 'latin' | 'arabic' | 'hebrew' | 'cjk' | 'emoji';

const FILES: Record<FontKey, [pkg: string, file: string]> = {
  latin: ['@embedpdf/fonts-latin', 'fonts/NotoSans-Regular.ttf'],
  latinBold: ['@embedpdf/fonts-latin', 'fonts/NotoSans-Bold.ttf'],
  arabic: ['@embedpdf/fonts-arabic', 'fonts/NotoNaskhArabic-Regular.ttf'],
  arabicBold: ['@embedpdf/fonts-arabic', 'fonts/NotoNaskhArabic-Bold.ttf'],
  hebrew: ['@embedpdf/fonts-hebrew', 'fonts/NotoSansHebrew-Regular.ttf'],
  hebrewBold: ['@embedpdf/fonts-hebrew', 'fonts/NotoSansHebrew-Bold.ttf'],
  cjk: ['@embedpdf/fonts-sc', 'fonts/NotoSansHans-Regular.otf'],
  cjkBold: ['@embedpdf/fonts-sc', 'fonts/NotoSansHans-Bold.otf'],
  emoji: ['@expo-google-fonts/noto-emoji', '400Regular/NotoEmoji_400Regular.ttf'],
};

/** Which font of each script serves a weight (emoji has one weight). */
const BY_WEIGHT: Record<'regular' | 'bold', Record<Script, FontKey>> = {
  regular: { latin: 'latin', arabic: 'arabic', hebrew: 'hebrew', cjk: 'cjk', emoji: 'emoji' },
  bold: { latin: 'latinBold', arabic: 'arabicBold', hebrew: 'hebrewBold', cjk: 'cjkBold', emoji: 'emoji' },
};
export const FALLBACK: readonly Script[] = ['latin', 'arabic', 'hebrew', 'cjk', 'emoji'];

export const fontFor = (script: Script, weight: 'regular' | 'bold'): FontKey => BY_WEIGHT[weight][script];

// The packages' exports name no font files, so the files are found in node_modules beside the app.
const fontPath = ([pkg, file]: [string, string]) => join(process.cwd(), 'node_modules', pkg, file);

/** Parsed once per process: fontkit reads tables lazily and caches glyphs, which every later document reuses. */
const fonts = processWide('package-fonts', () => new Map<FontKey, fontkit.Font>());

export function loadFont(key: FontKey): fontkit.Font {
  let font = fonts.get(key);
  if (!font) {
    const parsed = fontkit.create(readFileSync(fontPath(FILES[key])));
    if (!('hasGlyphForCodePoint' in parsed)) throw new Error(`${FILES[key].join('/')} is a font collection, not a font`);
    font = parsed;
    fonts.set(key, font);
  }
  return font;
}

/** The first script whose font has a glyph for the code point, or null when none has. */
export function scriptFor(codePoint: number): Script | null {
  for (const script of FALLBACK) if (loadFont(fontFor(script, 'regular')).hasGlyphForCodePoint(codePoint)) return script;
  return null;
}
