import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { inviteClient } from './support/applications';
import { expectAccessible } from './support/axe';
import { expect, test } from './support/fixtures';
import { expectLoaded, expectNoSidewaysScroll, PHONE } from './support/phone';

/**
 * The funder package from the pages people use: staff download the application's PDF and the ZIP from the
 * business page and the businesses table as CSV; the invited client downloads a PDF of what they sent from
 * their confirmation. Meridian Engineering is the demo Portal's submitted application.
 */

const APPLICATION = 'ciappl_meridian';
const signedOut = { cookies: [], origins: [] };

/** Clicks the link and answers the download it starts, with its first bytes. */
async function download(page: Page, name: RegExp): Promise<{ file: Download; head: string }> {
  const started = page.waitForEvent('download');
  await page.getByRole('link', { name }).click();
  const file = await started;
  const bytes = await readFile((await file.path())!);
  return { file, head: bytes.subarray(0, 8).toString('latin1') };
}

const today = () => new Date().toISOString().slice(0, 10);

/** Console errors and page errors of a page opened in the test (the fixture watches only its own page). */
function watch(page: Page, problems: { kind: string; text: string }[]) {
  page.on('console', (m) => void (m.type() === 'error' && problems.push({ kind: 'console.error', text: m.text() })));
  page.on('pageerror', (e) => void problems.push({ kind: 'pageerror', text: e.message }));
}

for (const [device, viewport] of [
  ['desktop', undefined],
  ['a 360 px phone', PHONE],
] as const) {
  test(`on ${device}: staff download the PDF, the ZIP and the CSV; the client their own PDF`, async ({ openContext, baseURL, browserProblems, page: staffPage }) => {
    // Three downloads, two people and axe five times: over a minute on a busy machine.
    test.setTimeout(150_000);
    const staffContext = viewport ? await openContext({ viewport, storageState: await staffPage.context().storageState() }) : staffPage.context();
    const staff = viewport ? await staffContext.newPage() : staffPage;
    if (viewport) watch(staff, browserProblems);

    await staff.goto('/businesses/biz_meridian');
    await expect(staff.getByRole('heading', { level: 1, name: /^Meridian/ })).toBeVisible();
    await expectLoaded(staff);
    await expectAccessible(staff, `the business page with its downloads on ${device}`);
    await expectNoSidewaysScroll(staff, `the business page on ${device}`);

    const pdf = await download(staff, /^Download the application \(PDF\)$/);
    expect(pdf.file.suggestedFilename()).toBe(`Meridian Engineering – application – ${today()}.pdf`);
    expect(pdf.head).toMatch(/^%PDF-/);
    const zip = await download(staff, /^Download the funder package/);
    expect(zip.file.suggestedFilename()).toBe(`Meridian Engineering – funder package – ${today()}.zip`);
    expect(zip.head.slice(0, 4)).toBe('PK\u0003\u0004');

    await staff.goto('/businesses?q=meridian&sort=name&dir=asc');
    await expect(staff.getByRole('heading', { level: 1, name: 'Businesses' })).toBeVisible();
    await expectAccessible(staff, `the businesses table with its CSV link on ${device}`);
    const csv = await download(staff, /^Download these businesses as sorted here \(CSV\)$/);
    expect(csv.file.suggestedFilename()).toBe(`businesses – ${today()}.csv`);
    // The UTF-8 byte order mark, then the header.
    expect(csv.head).toBe('\u00ef\u00bb\u00bfBusin');

    // The invited client, on their confirmation.
    const link = await inviteClient(staff.request, baseURL!, APPLICATION);
    const clientContext = await openContext({ storageState: signedOut, ...(viewport ? { viewport } : {}) });
    const client = await clientContext.newPage();
    watch(client, browserProblems);
    await client.goto(link);
    await client.goto(`/applications/${APPLICATION}/submitted`);
    await expect(client.getByRole('heading', { level: 1, name: 'Application sent' })).toBeVisible();
    await expectAccessible(client, `the client's confirmation with its PDF link on ${device}`);
    await expectNoSidewaysScroll(client, `the client's confirmation on ${device}`);
    const own = await download(client, /^Download a PDF copy of your application$/);
    expect(own.file.suggestedFilename()).toBe(`Meridian Engineering – application – ${today()}.pdf`);
    expect(own.head).toMatch(/^%PDF-/);
    expect(browserProblems).toEqual([]);
  });
}
