import { availableParallelism } from 'node:os';

/**
 * How many app instances `npm start` runs behind its port (APP_INSTANCES): by default one per core on
 * PostgreSQL, which every instance shares, and one on the embedded database, which one process owns.
 * `npm run dev` always runs one. Throws a message naming the variable when the value cannot work.
 */
export function appInstances(env: Readonly<Record<string, string | undefined>>, dev: boolean, cores = availableParallelism()): number {
  const postgres = /^postgres(ql)?:\/\//i.test(env.DATABASE_URL ?? '');
  const raw = env.APP_INSTANCES?.trim();
  if (!raw) return postgres && !dev ? cores : 1;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 64) throw new Error(`APP_INSTANCES must be a whole number from 1 to 64 (got ${JSON.stringify(raw)})`);
  if (n > 1 && !postgres) throw new Error('APP_INSTANCES above 1 needs DATABASE_URL (PostgreSQL): the embedded database belongs to one process');
  if (n > 1 && dev) throw new Error('APP_INSTANCES above 1 is for `npm start`; `npm run dev` runs one instance');
  return n;
}
