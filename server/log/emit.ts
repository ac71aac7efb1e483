import 'server-only';
import type { Logger as PinoLogger } from 'pino';
import { processWide } from '@/server/process-wide';
import { isEnabled, type LogLevel } from './levels';
import { createPino } from './pino-core';
import { maskString, redact } from './redact';
import { currentSink } from './sink';

export interface LogConfig {
  level: LogLevel;
  /** Values masked wherever they appear (API key, session and webhook secrets). */
  secrets: readonly string[];
}

export type LogFields = Record<string, unknown>;

const RESERVED = new Set(['ts', 'level', 'msg', 'bff_request_id']);

// One pino per process (the sink is looked up per line, so a test's setLogSink takes effect at once).
const pinoLogger = (): PinoLogger =>
  processWide('pino', () =>
    createPino('debug', (line) => {
      try {
        currentSink()(line);
      } catch {
        // A broken sink must never take a request down with it.
      }
    }),
  );

/**
 * Writes one JSON line through pino, with the fields redacted first (names and values: redact.ts). Takes its
 * configuration as an argument so the env module can log its own start-up warnings without importing the
 * logger, which itself reads the env.
 */
export function emit(level: LogLevel, msg: string, fields: LogFields | undefined, config: LogConfig, bffRequestId?: string): void {
  if (!isEnabled(level, config.level)) return;
  const entry: Record<string, unknown> = {};
  // The browser request this line belongs to (server/context), so one request's lines can be gathered.
  if (bffRequestId) entry.bff_request_id = bffRequestId;
  if (fields) {
    const safe = redact(fields, config.secrets) as Record<string, unknown>;
    for (const [k, v] of Object.entries(safe)) entry[RESERVED.has(k) ? `field_${k}` : k] = v;
  }
  const logger = pinoLogger();
  try {
    logger[level](entry, maskString(msg, config.secrets));
  } catch {
    logger[level]({ log_error: 'fields could not be serialised' }, maskString(msg, config.secrets));
  }
}
