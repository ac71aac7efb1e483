import { readFileSync } from 'node:fs';

// A lock that names its holder by process id: the build lock and the embedded database's. No `server-only`:
// the launcher runs this outside Next.

/** Whether a process with this id is running (signal 0 tests without signalling; EPERM: someone else's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The process id a lock file holds, or null when it holds none (not written yet, gone, or not a pid). */
export function readPidFile(path: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
