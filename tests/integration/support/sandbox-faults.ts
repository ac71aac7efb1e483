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

/** Any of the sandbox's test controls (`/_sandbox/<path>`): faults, clock, webhooks, reset, businesses. */
export async function sandboxControl(origin: string, method: string, path: string, body?: unknown) {
  const r = await fetch(`${origin}/_sandbox/${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(r.status, `${method} ${path}`).toBeLessThan(300);
  await r.body?.cancel();
}
