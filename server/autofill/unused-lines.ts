/**
 * The lines of the Autofill text that no suggestion came from. The Portal does not list them, but every
 * suggestion names the line (or the sentence of it, or the heading with its paragraph) it was read from, so
 * the lines that none of them quotes are the ones Autofill could not use. Excerpts are clipped (ending in
 * "…") and spaces in them collapsed, so both sides are compared that way.
 */

const BULLET = /^(?:[-*•·]|\d{1,2}[.)])\s+/;
const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

export function unusedLines(text: string, excerpts: readonly string[]): string[] {
  const quoted = excerpts.map((e) => squash(e).replace(/…$/, '').trim()).filter((e) => e !== '');
  const unused: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = squash(raw);
    // What a quote would hold of the line: no list marker, no colon ending a heading.
    const core = line.replace(BULLET, '').replace(/:$/, '').trim();
    if (core === '') continue;
    if (quoted.some((q) => q.includes(core) || core.includes(q))) continue;
    unused.push(line);
  }
  return unused;
}
