import type { Page } from '@playwright/test';
import { createBusiness, inviteClient, openInvitationFirstTime } from './applications';
import type { OpenContext } from './fixtures';
import { fillWholeForm, readContract } from './form-filler';
import { allSaved, formReady } from './form-page';
import { PHONE } from './phone';

/**
 * The start of a review journey: staff (on `page`, at desktop width) make a business, fill its whole form and
 * invite its client to send it for review; the client opens the link on a 360 px phone of their own. Returns
 * the client's page on the form, ready, and the console errors and page errors it meets from then on.
 */
export async function clientOnFilledForm(page: Page, baseURL: string, openContext: OpenContext, businessName: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  const { applicationId } = await createBusiness(page.request, baseURL, businessName);
  await page.goto(`/applications/${applicationId}`);
  await formReady(page);
  await fillWholeForm(page, await readContract(page, applicationId));
  await allSaved(page);
  const link = await inviteClient(page.request, baseURL, applicationId);

  const context = await openContext({ storageState: { cookies: [], origins: [] }, viewport: PHONE });
  const client = await context.newPage();
  const clientProblems: string[] = [];
  client.on('console', (m) => m.type() === 'error' && clientProblems.push(m.text()));
  client.on('pageerror', (e) => clientProblems.push(e.message));
  await openInvitationFirstTime(client, link);
  await formReady(client);
  return { applicationId, client, clientProblems };
}
