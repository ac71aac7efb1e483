/** Leaf module: the env parser needs the level names without importing the logger (which reads the env). */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export const isEnabled = (level: LogLevel, threshold: LogLevel) => RANK[level] >= RANK[threshold];
