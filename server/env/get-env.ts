import 'server-only';
import { emit } from '@/server/log/emit';
import { parseEnv } from './parse-env';
import type { Env, EnvSource } from './types';

let cached: Env | null = null;

function load(source: EnvSource): Env {
  const env = parseEnv(source);
  cached = env;
  // Logged here, once per load, with the freshly parsed config: the logger itself depends on getEnv().
  const secrets = [env.portalApiKey, env.sessionSecret, ...(env.webhookSecret ? [env.webhookSecret] : []), ...(env.metricsToken ? [env.metricsToken] : [])];
  for (const warning of env.warnings) emit('warn', warning, { component: 'env' }, { level: env.logLevel, secrets });
  return env;
}

/** The configuration, parsed from process.env on first use and cached; throws EnvError naming bad variables. */
export function getEnv(): Env {
  return cached ?? load(process.env);
}

/**
 * Tests only: replace the cached configuration with one parsed from `source`, or with no argument forget
 * it so the next getEnv() reads process.env again.
 */
export function resetEnvForTests(source?: EnvSource): Env | null {
  if (process.env.NODE_ENV === 'production') throw new Error('resetEnvForTests() is not available in production');
  cached = null;
  return source ? load(source) : null;
}
