/**
 * What the log keeps of a value nobody has vouched for yet (a header of an unsigned webhook, a path): at most
 * `max` characters and how long it was, so a client cannot write megabytes into the log with one request.
 */
export function clip(value: string | null | undefined, max = 200): string | null {
  if (value === null || value === undefined) return null;
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} characters)`;
}
