import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * axe-core on the page as it is now: no serious or critical violations (WCAG 2.1 A and AA rules). `exclude`
 * leaves parts out (with their frames): a mail shown in a script-less sandboxed frame, where axe's own run can
 * wait forever, is checked as a page of its own instead.
 */
export async function expectAccessible(page: Page, state: string, options: { exclude?: readonly string[] } = {}) {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const results = await builder.analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = bad.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join('\n  ')}`);
  expect(report, `axe: serious or critical violations when ${state}`).toEqual([]);
}
