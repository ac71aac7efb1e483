/**
 * One T per server process, kept on globalThis: the Next server bundles pages and route handlers
 * separately, each with its own copy of a module, so a module variable would be one per bundle (a page's
 * contract cache unseen by the form route's, a handover the route could not take).
 */
export function processWide<T>(name: string, make: () => T): T {
  const key = Symbol.for(`intake-bff.${name}`);
  const holder = globalThis as typeof globalThis & { [k: symbol]: unknown };
  return (holder[key] ??= make()) as T;
}
