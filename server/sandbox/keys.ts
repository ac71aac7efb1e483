import type { Permission } from '@/lib/portal';
import { DEMO_KEYS as DEMO_PORTAL_KEYS, type DemoKey } from '@/lib/portal/demo-keys';

/** An API key the sandbox accepts (the demo keys live in lib/ so the app can know them without importing the sandbox). */
export interface ApiKeyDef extends DemoKey {
  /**
   * Requests a second for this key (token bucket refill), even when the sandbox-wide rateLimit is off;
   * null leaves the key unthrottled; absent, the sandbox-wide rateLimit applies.
   */
  rate_per_second?: number | null;
}

/** The demo keys printed by `npm start` and documented in the README. */
export const DEMO_KEYS: ApiKeyDef[] = [...DEMO_PORTAL_KEYS];

/** A write permission includes read only within the same read-capable row (spec §5 rule 6). */
const IMPLIED: Partial<Record<Permission, Permission>> = {
  'businesses:write': 'businesses:read',
  'applications:write': 'applications:read',
  'deals:write': 'deals:read',
};

export function effectivePermissions(key: ApiKeyDef): Set<Permission> {
  const set = new Set<Permission>(key.permissions);
  for (const p of key.permissions) {
    const implied = IMPLIED[p];
    if (implied) set.add(implied);
  }
  return set;
}
