import pino from 'pino';

/*
 * The sandbox's log: JSON lines through pino in the app's shape (`ts`, `level`, `msg`), on stdout. Its own
 * setup because the sandbox stands alone (it imports nothing of the app's server/); it has no secrets of the
 * app to mask and logs no headers or bodies.
 */
export const sandboxLog = pino({
  level: process.env.LOG_LEVEL === 'debug' || process.env.LOG_LEVEL === 'warn' || process.env.LOG_LEVEL === 'error' ? process.env.LOG_LEVEL : 'info',
  base: { component: 'sandbox' },
  messageKey: 'msg',
  timestamp: () => `,"ts":"${new Date().toISOString()}"`,
  formatters: { level: (label) => ({ level: label }) },
});
