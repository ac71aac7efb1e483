import pino, { type DestinationStream, type Logger as PinoLogger } from 'pino';

/*
 * The one pino setup of the app and the sandbox: JSON lines with `ts` (ISO time), `level` (its name) and
 * `msg`, no pid or host (the platform adds those), written synchronously to a sink the caller chooses (stdout,
 * or a test's array). Leaf module, free of 'server-only', so the standalone sandbox uses it too.
 */
export function createPino(level: string, write: (line: string) => void): PinoLogger {
  const destination: DestinationStream = { write: (chunk: string) => write(chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk) };
  return pino(
    {
      level,
      base: null,
      messageKey: 'msg',
      timestamp: () => `,"ts":"${new Date().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}
