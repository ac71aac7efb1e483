import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { State } from './types';

/** Reads a saved state, or null when the file does not exist yet. A corrupt file stops start-up loudly. */
export function loadState(file: string): State | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  let state: State;
  try {
    state = JSON.parse(text) as State;
  } catch (e) {
    throw new Error(`${file}: the sandbox data file is not valid JSON (${(e as Error).message}); fix or remove it`);
  }
  if (typeof state !== 'object' || state === null || state.version !== 1) {
    throw new Error(`${file}: unsupported sandbox data version ${String((state as Partial<State> | null)?.version)}`);
  }
  return state;
}

/** Writes atomically (temp file then rename) so a crash never leaves half a file behind. */
function saveState(file: string, state: State) {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state));
  renameSync(tmp, file);
}

/** Coalesces saves: many writes in a burst cost one file write. */
export class Persister {
  private timer: NodeJS.Timeout | null = null;
  constructor(
    private readonly file: string | null,
    private readonly state: () => State,
    private readonly delayMs = 250,
  ) {}

  schedule() {
    if (!this.file || this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.delayMs);
    this.timer.unref();
  }

  flush() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.file) saveState(this.file, this.state());
  }
}
