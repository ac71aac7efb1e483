import 'server-only';
import { DEMO_FULL_KEY } from '@/lib/portal/demo-keys';

/** Only ever paired with SANDBOX_BASE_URL: a demo key is worthless anywhere else. */
export const SANDBOX_API_KEY = DEMO_FULL_KEY.token;

/**
 * Public on purpose (it is in the source); fine for a local demo. getEnv() warns once when it is used
 * against a Portal that is not on this machine.
 */
export const DEV_SESSION_SECRET = 'intake-dev-session-secret--not-for-production-use';
