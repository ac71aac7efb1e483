import { afterEach, beforeEach, vi } from 'vitest';

/** Fake timers and a bare `window` (online/offline events) for code that runs in the browser, around each test. */
export function withFakeBrowser() {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('window', new EventTarget());
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
}
