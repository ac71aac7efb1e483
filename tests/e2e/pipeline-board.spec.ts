import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { closingStageIds } from '../../lib/bff/closing-stages';
import { createBusiness, moveInBackground, stagesOf, type Stage } from './support/applications';
import { expectAccessible } from './support/axe';
import { expect, test } from './support/fixtures';
import { expectNoSidewaysScroll, PHONE } from './support/phone';

/**
 * The pipeline board as staff use it: a card moved with the keyboard (its "Move to…" menu) and by drag and
 * drop, a move the Portal refuses because someone moved the business first (412: explained, the card put
 * where the business really is), and a move to a closing stage confirmed first.
 */

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const column = (page: Page, stage: Stage) => page.getByRole('region', { name: new RegExp(`^${escape(stage.name)} \\(`) });
const cardIn = (page: Page, stage: Stage, name: string) =>
  column(page, stage).getByRole('listitem').filter({ has: page.getByRole('link', { name, exact: true }) });

async function moveWithMenu(page: Page, from: Stage, name: string, to: Stage) {
  const card = cardIn(page, from, name);
  const menu = card.getByRole('button', { name: `Move to… ${name}` });
  await menu.focus();
  await page.keyboard.press('Enter');
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  const target = card.getByRole('list', { name: `Move ${name} to` }).getByRole('button', { name: to.name, exact: true });
  await target.focus();
  await page.keyboard.press('Enter');
}

test('moving cards on the board: keyboard, drag and drop, a refused move, a closing stage', async ({ page, baseURL, browserProblems }) => {
  test.setTimeout(120_000);
  const name = `E2E Board ${randomUUID().slice(0, 8)} Ltd`;
  const { businessId } = await createBusiness(page.request, baseURL!, name);
  const stages = await stagesOf(page.request, businessId);
  const closing = closingStageIds(stages);
  const open = stages.filter((s) => !closing.has(s.id));
  expect(open.length).toBeGreaterThanOrEqual(4);
  const [first, second, third, fourth] = open as [Stage, Stage, Stage, Stage];
  const last = stages.find((s) => closing.has(s.id))!;

  // From the businesses page to the board; the new business is in the first column.
  await page.goto('/businesses');
  await page.getByRole('link', { name: 'Pipeline board' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Pipeline board: / })).toBeVisible();
  await expect(cardIn(page, first, name)).toBeVisible();
  await expect(cardIn(page, first, name)).toContainText(/Last activity/);
  await expectAccessible(page, 'the board is shown');

  // The menu closes with Escape, focus back on its button.
  const menu = cardIn(page, first, name).getByRole('button', { name: `Move to… ${name}` });
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expectAccessible(page, 'a card’s menu is open');
  await page.keyboard.press('Escape');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toBeFocused();

  // By keyboard: moved, and the card keeps focus in its new column.
  await moveWithMenu(page, first, name, second);
  await expect(page.getByRole('status').filter({ hasText: `Moved ${name} to ${second.name}.` })).toBeVisible();
  await expect(cardIn(page, second, name)).toBeFocused();
  await expect(cardIn(page, first, name)).toHaveCount(0);
  await expectAccessible(page, 'a card was moved by keyboard');

  // By drag and drop (onto the column's heading: both are at the top of the page, so nothing scrolls mid-drag).
  await cardIn(page, second, name).dragTo(column(page, third).getByRole('heading'));
  await expect(page.getByRole('status').filter({ hasText: `Moved ${name} to ${third.name}.` })).toBeVisible();
  await expect(cardIn(page, third, name)).toBeVisible();

  // Someone moves it back to the first stage just before the Portal gets this move: 412, explained, and the
  // card goes where the business really is.
  await page.route('**/api/businesses/*/stage-transitions', async (route) => {
    await moveInBackground(page.request, baseURL!, businessId, first.id);
    await route.continue();
  });
  await moveWithMenu(page, third, name, fourth);
  await expect(page.getByRole('alert').filter({ hasText: `Someone moved ${name} meanwhile: it is now in ${first.name}. It was not moved to ${fourth.name}` })).toBeVisible();
  await expect(cardIn(page, first, name)).toBeVisible();
  await expect(cardIn(page, fourth, name)).toHaveCount(0);
  await expectAccessible(page, 'a move was refused (412)');
  await page.unrouteAll();

  // A closing stage asks first: cancelled, nothing moves; confirmed, it moves.
  await moveWithMenu(page, first, name, last);
  const dialog = page.getByRole('dialog', { name: `Move ${name} to ${last.name}?` });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, 'a move to a closing stage is to be confirmed');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(cardIn(page, first, name)).toBeVisible();
  await moveWithMenu(page, first, name, last);
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: `Move to ${last.name}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Moved ${name} to ${last.name}.` })).toBeVisible();
  await expect(cardIn(page, last, name)).toBeVisible();

  // The Portal agrees.
  const now = (await (await page.request.get(`/api/businesses/${businessId}`)).json()) as { business: { workflow: { stage: { id: string } } } };
  expect(now.business.workflow.stage.id).toBe(last.id);
  // The refused move logs its 412 in the console on purpose; nothing may have thrown.
  expect(browserProblems.filter((p) => p.kind === 'pageerror')).toEqual([]);
});

test('the board on a 360 px phone: no sideways scrolling, and a card moves with its menu', async ({ page, baseURL, browserProblems }) => {
  const name = `E2E Board Phone ${randomUUID().slice(0, 8)} Ltd`;
  const { businessId } = await createBusiness(page.request, baseURL!, name);
  const stages = (await stagesOf(page.request, businessId)).filter((s, _i, all) => !closingStageIds(all).has(s.id));
  await page.setViewportSize(PHONE);
  await page.goto('/businesses/board');
  await expect(cardIn(page, stages[0]!, name)).toBeVisible();
  await expectNoSidewaysScroll(page, 'the board is shown on a phone');
  await expectAccessible(page, 'the board at 360 px');
  await moveWithMenu(page, stages[0]!, name, stages[1]!);
  await expect(page.getByRole('status').filter({ hasText: `Moved ${name} to ${stages[1]!.name}.` })).toBeVisible();
  await expect(cardIn(page, stages[1]!, name)).toBeFocused();
  await expectNoSidewaysScroll(page, 'a card was moved on a phone');
  expect(browserProblems).toEqual([]);
});

for (const [width, viewport] of [
  ['desktop', null],
  ['a 360 px phone', PHONE],
] as const) {
  test(`the closing-stage dialog starts on Cancel, and Cancel or Escape give focus back to the card's menu button, on ${width}`, async ({ page, baseURL, browserProblems }) => {
    // Several steps with axe in each: slow on a busy machine.
    test.setTimeout(120_000);
    const name = `E2E Board Dialog ${randomUUID().slice(0, 8)} Ltd`;
    const { businessId } = await createBusiness(page.request, baseURL!, name);
    const stages = await stagesOf(page.request, businessId);
    const closing = closingStageIds(stages);
    const first = stages.find((s) => !closing.has(s.id))!;
    const last = stages.find((s) => closing.has(s.id))!;
    if (viewport) await page.setViewportSize(viewport);
    await page.goto('/businesses/board');
    await expect(cardIn(page, first, name)).toBeVisible();
    const menu = cardIn(page, first, name).getByRole('button', { name: `Move to… ${name}` });
    const dialog = page.getByRole('dialog', { name: `Move ${name} to ${last.name}?` });

    for (const close of ['Escape', 'Cancel'] as const) {
      await moveWithMenu(page, first, name, last);
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await expectAccessible(page, `the closing-stage dialog is open on ${width}`);
      if (close === 'Escape') await page.keyboard.press('Escape');
      else await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
      await expect(menu, `focus after ${close}`).toBeFocused();
      await expect(cardIn(page, first, name)).toBeVisible();
    }
    await expectAccessible(page, `the dialog was cancelled on ${width}`);
    if (viewport) await expectNoSidewaysScroll(page, 'the dialog was cancelled');
    expect(browserProblems).toEqual([]);
  });
}
