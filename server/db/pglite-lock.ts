import 'server-only';
import { closeSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { processAlive, readPidFile } from '@/server/launcher/pid-file';

/**
 * PGlite runs PostgreSQL inside this process and does not guard its directory against a second
 * process (the CLI while the app runs, a second `next start`): two writers would corrupt it. A lock
 * file holding the owner's pid turns that into a clear error; a lock left by a dead process is taken over.
 */
export class EmbeddedDbInUseError extends Error {
  constructor(path: string, pid: number) {
    super(
      `The embedded database ${path} is in use by process ${pid}. Stop that process first, ` +
        'or set DATABASE_URL to share a PostgreSQL database between processes.',
    );
    this.name = 'EmbeddedDbInUseError';
  }
}

/** Takes the lock for dbPath; returns its release function. */
export function lockEmbeddedDb(dbPath: string): () => void {
  const lockPath = `${dbPath}.lock`;
  mkdirSync(dirname(lockPath), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      const release = () => {
        process.removeListener('exit', release);
        if (readPidFile(lockPath) === process.pid) unlinkSync(lockPath);
      };
      process.on('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readPidFile(lockPath);
      if (owner !== null && processAlive(owner)) throw new EmbeddedDbInUseError(dbPath, owner);
      unlinkSync(lockPath);
    }
  }
  throw new Error(`could not take the lock ${lockPath}`);
}
