import { expect } from 'vitest';

/** Sets the sandbox's fault injection (PUT /_sandbox/faults), or clears it with null (DELETE). */
export async function setSandboxFaults(origin: string, body: Record<string, unknown> | null) {
  const r = await fetch(`${origin}/_sandbox/faults`, {
    method: body ? 'PUT' : 'DELETE',
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(r.ok).toBe(true);
  await r.body?.cancel();
}
