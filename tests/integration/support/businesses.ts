import { BusinessCreateResult, type BusinessCreateBody } from '@/lib/portal';
import { newKey, type SandboxClient } from './sandbox';

/** POST businesses/ with a fresh Idempotency-Key; asserts 201 and parses the strict create result. */
export async function createBusiness(client: SandboxClient, body: BusinessCreateBody, key?: string) {
  const res = await client.post('businesses/', { body, idempotencyKey: newKey('create'), key });
  if (res.status !== 201) throw new Error(`create → ${res.status}: ${res.text}`);
  return { res, data: BusinessCreateResult.parse(res.body) };
}
