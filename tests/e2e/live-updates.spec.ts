import type { Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { createBusiness } from './support/applications';
import { test, expect } from './support/fixtures';
import { allSaved, formReady, staffPage } from './support/form-page';
import { PHONE, expectNoSidewaysScroll } from './support/phone';

/**
 * Live updates: the sandbox posts each change to the app's webhook receiver, which pushes it to every
 * browser with the application open. Nobody reloads, types or saves on the receiving side.
 */

const theirsNotice = (page: Page) => page.getByRole('status').filter({ hasText: 'Someone else updated' });

test('a second browser sees the first one’s answers arrive without a reload, and the first sees no notice for its own saves', async ({ openContext, baseURL, page }) => {
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Live Ltd');
  const path = `/applications/${applicationId}`;
  const alice = await staffPage(openContext, path, { liveStream: true });
  const bob = await staffPage(openContext, path, { liveStream: true });

  await alice.getByRole('textbox', { name: /^Legal business name/ }).fill('Live Holdings Ltd');
  await allSaved(alice);

  // Bob did nothing: the change reaches his page by itself, with the notice of a merge.
  await expect(bob.getByRole('textbox', { name: /^Legal business name/ })).toHaveValue('Live Holdings Ltd', { timeout: 15_000 });
  const notice = theirsNotice(bob);
  await expect(notice).toBeVisible();
  await expect(notice.getByRole('link', { name: 'Legal business name' })).toBeVisible();
  await expectAccessible(bob, 'another person’s answer arrived live');

  // And the other way: Bob's answer reaches Alice, whose own save (which came back as an event too) left no notice.
  await expect(theirsNotice(alice)).toHaveCount(0);
  await bob.getByRole('textbox', { name: /^Trading name/ }).fill('Live & Co');
  await allSaved(bob);
  await expect(alice.getByRole('textbox', { name: /^Trading name/ })).toHaveValue('Live & Co', { timeout: 15_000 });
  await expect(theirsNotice(alice)).toBeVisible();
  await expect(theirsNotice(alice).getByRole('link', { name: 'Trading name' })).toBeVisible();
  await expect(theirsNotice(alice).getByRole('link', { name: 'Legal business name' })).toHaveCount(0);
  await expectAccessible(alice, 'the answer came back the other way');

  // Both pages hold the same, saved state: a reload shows nothing new.
  await bob.reload();
  await formReady(bob);
  await expect(bob.getByRole('textbox', { name: /^Legal business name/ })).toHaveValue('Live Holdings Ltd');
  await expect(bob.getByRole('textbox', { name: /^Trading name/ })).toHaveValue('Live & Co');
});

/**
 * Alice's page reads the form again after each event; the first such read is let through to the Portal at
 * once but its reply is held back, and every later one is held altogether, so what the first read brings
 * is all the page learns.
 */
async function holdLiveReads(page: Page, applicationId: string) {
  let fetched = 0;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === `/api/applications/${applicationId}/form` && !url.searchParams.has('rest'),
    async (route) => {
      if (fetched > 0) return; // held until the page closes
      fetched++;
      const response = await route.fetch();
      fetched++;
      await released;
      await route.fulfill({ response });
    },
  );
  return { readDone: () => fetched === 2, release };
}

for (const [label, viewport] of [
  ['desktop', { width: 1280, height: 900 }],
  ['phone', PHONE],
] as const) {
  test(`an owner added while a read of someone else’s answer is under way is still there when that read comes in (${label})`, async ({ openContext, baseURL, page }) => {
    const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Crossing Ltd');
    const path = `/applications/${applicationId}`;
    const alice = await staffPage(openContext, `${path}?section=owners`, { liveStream: true, viewport });
    const problems: string[] = [];
    alice.on('pageerror', (e) => problems.push(e.message));
    alice.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
    const reads = await holdLiveReads(alice, applicationId);

    // Bob saves an answer: Alice's page hears of it and reads the form, which the Portal answers at once.
    const bob = await staffPage(openContext, path);
    await bob.getByRole('textbox', { name: /^Legal business name/ }).fill('Crossing Holdings Ltd');
    await allSaved(bob);
    await expect.poll(reads.readDone, { timeout: 15_000 }).toBe(true);

    // Alice adds an owner after that read was taken, before its reply reaches her page.
    await alice.getByRole('button', { name: 'Add owner' }).click();
    const owners = alice.locator('[data-group="owners"] > ol.items > li');
    await expect(owners).toHaveCount(1);
    reads.release();

    // The read comes in: Bob's answer is merged and announced, and Alice's owner, which it predates, stays.
    await expect(theirsNotice(alice).getByRole('link', { name: 'Legal business name' })).toBeVisible();
    await expect(owners).toHaveCount(1);
    await expect(alice.getByRole('heading', { level: 3, name: /^Owners\s*\(1 of at most 4\)/ })).toBeVisible();
    await expectAccessible(alice, `an owner added during a read, after the read came in (${label})`);
    await expectNoSidewaysScroll(alice, `an owner was added during a read (${label})`);
    expect(problems).toEqual([]);
  });
}
