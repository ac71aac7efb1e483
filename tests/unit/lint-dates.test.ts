import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// One date format everywhere: the pages write dates only through components/ui/when.tsx, as
// eslint.config.mjs enforces (a page with its own Intl options wrote "28/11/2026, 04:03:13" beside "28 Nov 2026").
const eslint = new ESLint({ cwd: process.cwd() });

async function dateErrors(filePath: string, source: string) {
  const [result] = await eslint.lintText(`${source}\n`, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('dates are written one way', () => {
  beforeAll(() => eslint.lintText('', { filePath: 'components/warm-up.tsx' }), 120_000);

  it.each([
    ['components/autofill/x.tsx', "export const a = (iso: string) => new Date(iso).toLocaleString('en-GB');"],
    ['components/x.tsx', "export const a = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { dateStyle: 'long' });"],
    ['app/x/page.tsx', "export const a = (d: Date) => d.toLocaleTimeString();"],
    ['lib/x.ts', "export const f = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });"],
  ])('%s: %s is an error', async (filePath, source) => {
    const errors = await dateErrors(filePath, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/components\/ui\/when\.tsx/);
  });

  it.each([
    ['components/ui/when.tsx', "export const f = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });"],
    ['components/x.tsx', "export const n = (x: number) => x.toLocaleString('en-GB');"],
    ['server/x.ts', "export const a = (iso: string) => new Date(iso).toLocaleString('en-GB');"],
  ])('%s: %s is allowed', async (filePath, source) => {
    expect(await dateErrors(filePath, source)).toEqual([]);
  });
});
