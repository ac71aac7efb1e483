import { expect } from 'vitest';
import { BusinessCreateResult, type BusinessCreateBody } from '@/lib/portal';
import { newKey, type SandboxClient } from './sandbox';

/** POST businesses/ with a fresh Idempotency-Key; asserts 201 and parses the strict create result. */
export async function createBusiness(client: SandboxClient, body: BusinessCreateBody, key?: string) {
  const res = await client.post('businesses/', { body, idempotencyKey: newKey('create'), key });
  if (res.status !== 201) throw new Error(`create → ${res.status}: ${res.text}`);
  return { res, data: BusinessCreateResult.parse(res.body) };
}

/** Parses a JSON pointer-free path out of a sandbox URL (e.g. to compare with a path below /v1/). */
export const pathOf = (url: string) => new URL(url).pathname;

/** Asserts a URL belongs to the sandbox's API (origin and /v1/ base). */
export function expectApiUrl(client: SandboxClient, url: string, path: string) {
  expect(url).toBe(`${client.baseUrl}${path}`);
}
