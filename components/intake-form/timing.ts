/**
 * User Timing marks for the form's own work (shown in DevTools' performance panel and read by the
 * form benchmarks): how long opening the form takes in the browser, apart from network and framework.
 */
export function measured<T>(name: string, work: () => T): T {
  if (typeof performance === 'undefined' || typeof performance.mark !== 'function') return work();
  const start = `${name}:start`;
  performance.mark(start);
  try {
    return work();
  } finally {
    performance.measure(name, start);
  }
}
