import type { Environment, Permission } from '@/lib/portal';
import { PERMISSIONS } from '@/lib/portal';

/** An API key the sandbox accepts. `token` is the bearer value; the sandbox never echoes it. */
export interface ApiKeyDef {
  id: string;
  token: string;
  kind: 'portal' | 'source';
  environment: Environment;
  permissions: Permission[];
  channel_slugs: string[];
  label: string;
  /**
   * Requests a second for this key (token bucket refill), even when the sandbox-wide rateLimit is off;
   * null leaves the key unthrottled; absent, the sandbox-wide rateLimit applies.
   */
  rate_per_second?: number | null;
}

const READS: Permission[] = ['businesses:read', 'applications:read', 'deals:read', 'people:read', 'projects:read'];

/** The demo keys printed by `npm start` and documented in the README. */
export const DEMO_KEYS: ApiKeyDef[] = [
  {
    id: 'key_demofull',
    token: 'pk_test_demo_full_4f9c2a7e1b8d',
    kind: 'portal',
    environment: 'test',
    permissions: [...PERMISSIONS].filter((p) => p !== 'leads:submit'),
    channel_slugs: [],
    label: 'Full portal key',
  },
  {
    id: 'key_demosource',
    token: 'pk_test_demo_source_7d3e9b2c6a1f',
    kind: 'source',
    environment: 'test',
    permissions: ['leads:submit'],
    channel_slugs: ['partner-web', 'broker-network'],
    label: 'Source key (lead submission only)',
  },
  {
    id: 'key_demoreadonly',
    token: 'pk_test_demo_readonly_2b8f4c1e9d7a',
    kind: 'portal',
    environment: 'test',
    permissions: READS,
    channel_slugs: [],
    label: 'Read-only key',
  },
  {
    id: 'key_demolive',
    token: 'pk_live_demo_full_9e1a6c3f8b2d',
    kind: 'portal',
    environment: 'live',
    permissions: [...PERMISSIONS].filter((p) => p !== 'leads:submit'),
    channel_slugs: [],
    label: 'Live key (refused by a test sandbox)',
  },
];

/** A write permission includes read only within the same read-capable row (spec §5 rule 6). */
const IMPLIED: Partial<Record<Permission, Permission>> = {
  'businesses:write': 'businesses:read',
  'applications:write': 'applications:read',
  'deals:write': 'deals:read',
  'projects:write': 'projects:read',
};

export function effectivePermissions(key: ApiKeyDef): Set<Permission> {
  const set = new Set<Permission>(key.permissions);
  for (const p of key.permissions) {
    const implied = IMPLIED[p];
    if (implied) set.add(implied);
  }
  return set;
}
