// Stands in for the repository's instrumentation.ts, which Next would otherwise find (see proxy.js): nothing to start.
export function register() {}
