import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withBuildLock } from '@/server/launcher/build';

/* The build lock (server/launcher/build.ts): one build at a time, and a killed holder's lock is not waited out. */

const lockIn = () => join(mkdtempSync(join(tmpdir(), 'build-lock-')), 'lock');

describe('withBuildLock', () => {
  it('takes over a lock whose holder is gone at once', () => {
    const lock = lockIn();
    // A process that has exited: its id names no running process.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), gone.stdout);
    const started = Date.now();
    let ran = false;
    withBuildLock(() => {
      ran = true;
    }, lock);
    expect(ran).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(existsSync(lock)).toBe(false);
  });

  it('waits while its holder runs, and goes once the holder lets go', async () => {
    const lock = lockIn();
    mkdirSync(lock);
    // A live holder that lets go after a second.
    const holder = spawn(process.execPath, ['-e', `setTimeout(() => require('node:fs').rmSync(${JSON.stringify(lock)}, { recursive: true }), 1000)`]);
    writeFileSync(join(lock, 'pid'), String(holder.pid));
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    const started = Date.now();
    withBuildLock(() => undefined, lock);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    await exited;
  });
});
