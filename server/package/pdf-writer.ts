import 'server-only';
import PDFDocument from 'pdfkit';
import { loadFont, type FontKey } from './fonts';
import { layoutParagraph, type TextStyle } from './pdf-text';

/**
 * A PDF page flow over pdfkit: paragraphs in any script (pdf-text lays them out), a cursor that moves to a
 * new page when the next line would not fit, an outline entry per section, and "Page N of M" footers.
 */

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = { top: 56, bottom: 64, side: 56 };
const LINE = 1.5;
const FONT_KEYS: readonly FontKey[] = ['latin', 'latinBold', 'arabic', 'arabicBold', 'hebrew', 'hebrewBold', 'cjk', 'cjkBold', 'emoji'];

export const INK = '#111111';
export const MUTED = '#4a4a4a';
export const ALERT = '#8a1c1c';

export interface BlockStyle extends TextStyle {
  readonly color?: string;
  /** Points from the left margin. */
  readonly indent?: number;
}

export class PdfWriter {
  readonly doc: PDFKit.PDFDocument;
  private y = MARGIN.top;
  private readonly widths = new Map<string, number>();

  constructor(info: { title: string; author: string; lang: string }) {
    this.doc = new PDFDocument({
      size: [A4.width, A4.height],
      margins: { top: MARGIN.top, bottom: 0, left: MARGIN.side, right: MARGIN.side },
      bufferPages: true,
      displayTitle: true,
      lang: info.lang,
      info: { Title: info.title, Author: info.author, Creator: 'Intake BFF', Producer: 'pdfkit' },
    });
    for (const key of FONT_KEYS) this.doc.registerFont(key, loadFont(key) as unknown as string);
  }

  private get width() {
    return A4.width - 2 * MARGIN.side;
  }

  /** Width of text in one font, remembered: a long form measures the same words again and again. */
  private readonly measure = (font: FontKey, size: number, text: string) => {
    const key = `${font}\u0000${size}\u0000${text}`;
    let w = this.widths.get(key);
    if (w === undefined) {
      w = this.doc.font(font).fontSize(size).widthOfString(text);
      this.widths.set(key, w);
    }
    return w;
  };

  /** Room for `height` more points on this page, else a new page. */
  ensure(height: number) {
    if (this.y + height > A4.height - MARGIN.bottom) {
      this.doc.addPage();
      this.y = MARGIN.top;
    }
  }

  gap(points: number) {
    this.y += points;
  }

  /** Text in any script, line feeds kept, wrapped to the width left after `indent`. */
  text(value: string, style: BlockStyle) {
    const indent = style.indent ?? 0;
    const lineHeight = style.size * LINE;
    for (const paragraph of value.split(/\r\n|\r|\n/)) {
      const lines = layoutParagraph(paragraph, style, this.width - indent, this.measure);
      if (lines.length === 0) this.y += lineHeight / 2;
      for (const line of lines) {
        this.ensure(lineHeight);
        const baseline = this.y + style.size * 1.1;
        for (const run of line.runs) {
          this.doc
            .font(run.font)
            .fontSize(style.size)
            .fillColor(style.color ?? INK)
            .text(run.text, MARGIN.side + indent + run.x, baseline, { lineBreak: false, baseline: 'alphabetic' });
        }
        this.y += lineHeight;
      }
    }
  }

  /** A section's heading: starts a page when less than a few lines are left, and gets an outline entry. */
  heading(title: string, level: 1 | 2) {
    const size = level === 1 ? 16 : 12.5;
    this.ensure(size * LINE + 60);
    this.gap(level === 1 ? 10 : 6);
    if (level === 1) this.doc.outline.addItem(title);
    this.text(title, { size, weight: 'bold' });
    if (level === 1) {
      this.doc.moveTo(MARGIN.side, this.y).lineTo(A4.width - MARGIN.side, this.y).lineWidth(0.6).strokeColor('#777777').stroke();
      this.gap(6);
    }
  }

  newPage() {
    this.doc.addPage();
    this.y = MARGIN.top;
  }

  /** "Page N of M" and the document's name at the foot of every page (pages are buffered until now). */
  footers(label: string) {
    const range = this.doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      this.doc.switchToPage(i);
      const y = A4.height - MARGIN.bottom + 24;
      const page = `Page ${i + 1} of ${range.count}`;
      this.doc.font('latin').fontSize(8.5).fillColor(MUTED);
      const pageWidth = this.doc.widthOfString(page);
      this.doc.text(page, A4.width - MARGIN.side - pageWidth, y, { lineBreak: false });
      // The label may be in any script: laid out like body text, on one line.
      const line = layoutParagraph(label, { size: 8.5, weight: 'regular' }, this.width - pageWidth - 24, this.measure)[0];
      for (const run of line?.runs ?? []) {
        this.doc.font(run.font).fontSize(8.5).fillColor(MUTED).text(run.text, MARGIN.side + run.x, y + 8.5 * 1.1, { lineBreak: false, baseline: 'alphabetic' });
      }
    }
  }
}
