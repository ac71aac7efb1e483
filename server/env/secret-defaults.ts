import 'server-only';
import { DEMO_KEYS } from '@/server/sandbox/keys';

const demoFull = DEMO_KEYS.find((k) => k.id === 'key_demofull');
if (!demoFull) throw new Error('server/sandbox/keys.ts no longer defines key_demofull, the BFF default API key');

/** Only ever paired with SANDBOX_BASE_URL: a demo key is worthless anywhere else. */
export const SANDBOX_API_KEY = demoFull.token;

/**
 * Public on purpose (it is in the source); fine for a local demo. getEnv() warns once when it is used
 * against a Portal that is not on this machine.
 */
export const DEV_SESSION_SECRET = 'intake-dev-session-secret--not-for-production-use';
