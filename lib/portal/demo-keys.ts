import type { Environment, Permission } from './api-root';
import { PERMISSIONS } from './api-root';

/**
 * The sandbox's demo API keys, public on purpose (README, "Demo API keys"). Plain data: the sandbox accepts
 * them, the app's configuration defaults to the full one and `npm start` prints them, and neither side has
 * to import the other to know them.
 */

/** An API key the sandbox accepts. `token` is the bearer value; the sandbox never echoes it. */
export interface DemoKey {
  id: string;
  token: string;
  kind: 'portal' | 'source';
  environment: Environment;
  permissions: Permission[];
  channel_slugs: string[];
  label: string;
}

const READS: Permission[] = ['businesses:read', 'applications:read', 'deals:read', 'people:read'];

/** The app's default key against the sandbox (only ever paired with the sandbox's URL). */
export const DEMO_FULL_KEY: DemoKey = {
  id: 'key_demofull',
  token: 'pk_test_demo_full_4f9c2a7e1b8d',
  kind: 'portal',
  environment: 'test',
  permissions: [...PERMISSIONS].filter((p) => p !== 'leads:submit'),
  channel_slugs: [],
  label: 'Full portal key',
};

export const DEMO_KEYS: readonly DemoKey[] = [
  DEMO_FULL_KEY,
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
