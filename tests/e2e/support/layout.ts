import { expect, type Page } from '@playwright/test';

/** The widths every page is checked at: a phone, a tablet, a small and a common laptop screen. */
export const WIDTHS = [360, 768, 1024, 1280] as const;

export interface LayoutReport {
  scrollWidth: number;
  clientWidth: number;
  /** Words the layout broke between two letters or digits (or before a "%"), with where. */
  broken: string[];
}

/**
 * How the page is laid out now: how wide the document is against the window, and every word broken inside
 * a run of letters or digits. Each text node's words are measured with Ranges: a word whose rectangles
 * stand on more than one line is looked at character by character, and a line that starts between two
 * letters (or digits, or a number and its "%") is a word broken mid-word. A word split over two text nodes
 * ("21" and "%") is measured across them. Text that is not seen (display: none, visually hidden for screen
 * readers, inside form controls) is left out; a break at "@", ".", "/", "-" or a space is a fair place to wrap.
 */
export function measureLayout(page: Page): Promise<LayoutReport> {
  return page.evaluate(() => {
    const doc = document.scrollingElement ?? document.documentElement;
    const broken: string[] = [];
    const range = document.createRange();
    const WORD = /[\p{L}\p{N}]/u;
    const AFTER = /[\p{L}\p{N}%]/u;
    const unseen = (el: Element) =>
      el.closest('.visually-hidden, script, style, noscript, template, select, option, textarea, title, svg') !== null || el.getClientRects().length === 0;
    const blockOf = (el: Element): Element => {
      for (let at: Element | null = el; at; at = at.parentElement) {
        const display = getComputedStyle(at).display;
        if (!display.startsWith('inline') && display !== 'contents') return at;
      }
      return document.body;
    };
    const charRect = (node: Text, i: number) => {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0 || r.height > 0);
      return rects[0] ?? null;
    };
    const where = (el: Element) => {
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      return `<${el.tagName.toLowerCase()}${cls}>`;
    };
    let prev: { block: Element; char: string; rect: DOMRect } | null = null;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
      const text = n.data;
      const el = n.parentElement;
      if (!el || text.trim() === '' || unseen(el)) {
        if (text !== '' && /\s/.test(text)) prev = null;
        continue;
      }
      const block = blockOf(el);
      // A word running on from the text node before ("21" then "%").
      const first = text.search(/\S/);
      if (prev && first === 0 && prev.block === block && WORD.test(prev.char) && AFTER.test(text[0]!)) {
        const r = charRect(n, 0);
        if (r && r.top > prev.rect.top + 2) broken.push(`"${prev.char}|${text.slice(0, 12)}" across text in ${where(el)}`);
      }
      for (const m of text.matchAll(/\S{2,}/gu)) {
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size < 2) continue;
        let top: number | null = null;
        for (let i = 0; i < m[0].length; i++) {
          const r = charRect(n, m.index + i);
          if (!r) continue;
          if (top !== null && r.top > top + 2 && WORD.test(m[0][i - 1]!) && AFTER.test(m[0][i]!)) {
            broken.push(`"${m[0].slice(0, i)}|${m[0].slice(i)}" in ${where(el)}`);
          }
          top = r.top;
        }
      }
      const last = text.length - 1;
      const lastRect = /\s/.test(text[last]!) ? null : charRect(n, last);
      prev = lastRect ? { block, char: text[last]!, rect: lastRect } : null;
    }
    return { scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth, broken };
  });
}

/** No sideways scrolling and no word broken inside a run of letters, in this state. */
export async function expectFitsWidth(page: Page, state: string) {
  const { scrollWidth, clientWidth, broken } = await measureLayout(page);
  expect(scrollWidth, `the page is wider than the window (${clientWidth} px) when ${state}`).toBeLessThanOrEqual(clientWidth);
  expect(broken, `words broken mid-word when ${state}`).toEqual([]);
}
