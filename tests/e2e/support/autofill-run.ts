import { randomUUID } from 'node:crypto';
import { expect, type APIRequestContext } from '@playwright/test';
import { createBusiness } from './applications';

/* Autofill set up through the BFF's API, as another person or tab would. */

export const writeHeaders = (baseURL: string, extra: Record<string, string> = {}) => ({ 'X-CSRF': '1', Origin: baseURL, ...extra });

export async function setText(request: APIRequestContext, baseURL: string, applicationId: string, text: string) {
  const path = `/api/applications/${applicationId}/autofill/preparation`;
  const read = await request.get(path);
  const { etag } = (await read.json()) as { etag: string };
  const res = await request.patch(path, { headers: writeHeaders(baseURL, { 'If-Match': etag }), data: { text_input: text } });
  expect(res.status(), await res.text()).toBe(200);
}

/** An application whose Autofill run over `text` has completed. */
export async function applicationWithRun(request: APIRequestContext, baseURL: string, name: string, text: string) {
  const { applicationId } = await createBusiness(request, baseURL, name);
  await setText(request, baseURL, applicationId, text);
  const prep = (await (await request.get(`/api/applications/${applicationId}/autofill/preparation`)).json()) as { preparation: { revision: number } };
  const started = await request.post(`/api/applications/${applicationId}/autofill/start`, {
    headers: writeHeaders(baseURL, { 'Idempotency-Key': randomUUID() }),
    data: { expected_preparation_revision: prep.preparation.revision },
  });
  expect(started.status(), await started.text()).toBe(201);
  const runId = ((await started.json()) as { run: { id: string } }).run.id;
  await expect
    .poll(async () => ((await (await request.get(`/api/applications/${applicationId}/autofill/runs/${runId}`)).json()) as { run: { status: string } }).run.status, {
      timeout: 20_000,
    })
    .toBe('completed');
  return applicationId;
}
