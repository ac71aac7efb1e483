import { randomUUID } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

/**
 * Fresh Portal objects for one test, made through the BFF as staff would (so tests running in parallel,
 * or again, never share an application).
 */
export async function createBusiness(request: APIRequestContext, baseURL: string, name: string) {
  const res = await request.post('/api/businesses', {
    headers: { 'X-CSRF': '1', Origin: baseURL, 'Idempotency-Key': randomUUID() },
    data: { name },
  });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as { business: { id: string }; application: { id: string } };
  return { businessId: body.business.id, applicationId: body.application.id };
}

/** An invitation link for the application's client (the only time its token is shown); by default the client sends for review. */
export async function inviteClient(request: APIRequestContext, baseURL: string, applicationId: string, { clientSubmits = false }: { clientSubmits?: boolean } = {}) {
  const res = await request.post(`/api/applications/${applicationId}/invitations`, {
    headers: { 'X-CSRF': '1', Origin: baseURL },
    data: { client_name: 'E2E Client', client_submits: clientSubmits },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { link: string }).link;
}

/**
 * Opens an invitation link for the first time, as the client does: the welcome page, then on to the form
 * with its "Start the application" link ("Continue" where staff's create filled in some answers already).
 */
export async function openInvitationFirstTime(page: Page, link: string) {
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
  await page.getByRole('link', { name: /^(Start|Continue) the application$/ }).click();
}

export interface Stage {
  id: string;
  name: string;
  order: number;
}

/** The stages of the business's pipeline, in order. */
export async function stagesOf(request: APIRequestContext, businessId: string): Promise<Stage[]> {
  const res = await request.get(`/api/businesses/${businessId}/stages`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { items: Stage[] }).items;
}

/** Someone else moves the business meanwhile, through the API, with the ETag as it is now. */
export async function moveInBackground(request: APIRequestContext, baseURL: string, businessId: string, stageId: string) {
  const read = await request.get(`/api/businesses/${businessId}`);
  expect(read.status()).toBe(200);
  const etag = read.headers()['etag']!;
  const res = await request.post(`/api/businesses/${businessId}/stage-transitions`, {
    headers: { 'X-CSRF': '1', Origin: baseURL, 'If-Match': etag, 'Idempotency-Key': randomUUID() },
    data: { stage_id: stageId },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Writes one top-level answer through the BFF's API, as another person or tab would. */
export async function writeAnswer(request: APIRequestContext, baseURL: string, applicationId: string, key: string, value: unknown) {
  const path = `/api/applications/${applicationId}/answers`;
  const current = (await (await request.get(`${path}?page_size=500`)).json()) as { answers_revision: number; etag: string };
  const res = await request.patch(path, {
    headers: { 'X-CSRF': '1', Origin: baseURL, 'If-Match': current.etag },
    data: { answers_revision: current.answers_revision, answers: [{ block_key: key, schema_key: key, field_key: 'value', value }] },
  });
  expect(res.status(), await res.text()).toBe(200);
}
