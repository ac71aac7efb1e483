import 'server-only';
import { currentRequest } from '@/server/context/request-context';
import { getEnv } from '@/server/env/get-env';
import { emit, type LogConfig, type LogFields } from './emit';
import type { LogLevel } from './levels';
import { maskString } from './redact';

/** Secrets worth masking even when the configuration failed to parse (the process is about to stop anyway). */
const RAW_SECRET_VARS = ['PORTAL_API_KEY', 'SESSION_SECRET', 'WEBHOOK_SECRET', 'METRICS_TOKEN'] as const;

function config(): LogConfig {
  try {
    const env = getEnv();
    return {
      level: env.logLevel,
      secrets: [env.portalApiKey, env.sessionSecret, ...(env.webhookSecret ? [env.webhookSecret] : []), ...(env.metricsToken ? [env.metricsToken] : [])],
    };
  } catch {
    const secrets = RAW_SECRET_VARS.map((name) => process.env[name]).filter((v): v is string => !!v);
    return { level: 'info', secrets };
  }
}

const at =
  (level: LogLevel) =>
  (msg: string, fields?: LogFields): void =>
    emit(level, msg, fields, config(), currentRequest()?.requestId);

/** Structured JSON-lines logger; every line is redacted (see redact.ts) and filtered by LOG_LEVEL. */
export const log = {
  debug: at('debug'),
  info: at('info'),
  warn: at('warn'),
  error: at('error'),
};
export type Logger = typeof log;

/** Masks the configured secrets and credential-shaped text in a string that leaves the process (error messages). */
export const maskSecrets = (value: string): string => maskString(value, config().secrets);
