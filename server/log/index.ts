import 'server-only';

export { log, maskSecrets, type Logger } from './logger';
export { setLogSink, type LogSink } from './sink';
export { LOG_LEVELS, type LogLevel } from './levels';
export { clip } from './clip';
export { REDACTED, maskString, redact } from './redact';
export type { LogFields } from './emit';
