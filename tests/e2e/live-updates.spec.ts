import type { Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { createBusiness } from './support/applications';
import { test, expect } from './support/fixtures';
import { allSaved, formReady, staffPage } from './support/form-page';

/**
 * Live updates: the sandbox posts each change to the app's webhook receiver, which pushes it to every
 * browser with the application open. Nobody reloads, types or saves on the receiving side.
 */

const theirsNotice = (page: Page) => page.getByRole('status').filter({ hasText: 'Someone else updated' });

test('a second browser sees the first one’s answers arrive without a reload, and the first sees no notice for its own saves', async ({ browser, baseURL, page }) => {
  const { applicationId } = await createBusiness(page.request, baseURL!, 'E2E Live Ltd');
  const path = `/applications/${applicationId}`;
  const alice = await staffPage(browser, baseURL!, path, { liveStream: true });
  const bob = await staffPage(browser, baseURL!, path, { liveStream: true });

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
  await alice.context().close();
  await bob.context().close();
});
