import { execFileSync } from 'node:child_process';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

// zod (≈ 40 KiB compressed) stays out of the browser's JavaScript except on pages whose form is checked by a zod
// schema (zodResolver). Each client module ('use client') is bundled as the browser would get it (esbuild drops
// type-only imports as Next's compiler does), and whatever reaches zod must be one of those forms.
const ZOD_FORMS = [
  'components/auth/sign-in-form.tsx',
  'components/businesses/business-create-form.tsx',
  'components/businesses/invitation-create-form.tsx',
  'components/deals/deal-create-form.tsx',
  'components/funding/business-funding.tsx',
];

const clientModules = execFileSync('grep', ['-rlE', `^['"]use client['"]`, 'app', 'components', 'lib'], { encoding: 'utf8' })
  .split('\n')
  .filter(Boolean)
  .sort();

/** The chain of static imports from `entry` to zod, or null when it does not reach it. */
function pathToZod(inputs: Metafile['inputs'], entry: string): string[] | null {
  const from = new Map<string, string | null>([[entry, null]]);
  const queue = [entry];
  while (queue.length) {
    const file = queue.shift()!;
    for (const imp of inputs[file]?.imports ?? []) {
      if (imp.kind === 'dynamic-import' || from.has(imp.path)) continue;
      from.set(imp.path, file);
      if (imp.path.includes('node_modules/zod/')) {
        const chain = [imp.path];
        for (let f: string | null = file; f; f = from.get(f) ?? null) chain.unshift(f);
        return chain;
      }
      queue.push(imp.path);
    }
  }
  return null;
}

describe('zod in the browser', () => {
  let inputs: Metafile['inputs'];
  beforeAll(async () => {
    const result = await build({
      entryPoints: clientModules,
      bundle: true,
      write: false,
      metafile: true,
      outdir: 'out',
      splitting: true,
      format: 'esm',
      platform: 'browser',
      jsx: 'automatic',
      logLevel: 'silent',
      // The framework and the other packages are not what this looks at.
      external: ['next', 'next/*', 'react', 'react-dom', 'react/*', '@tanstack/*', 'react-hook-form', '@hookform/*', '*.css'],
    });
    inputs = result.metafile.inputs;
  }, 120_000);

  it('finds the client modules', () => {
    expect(clientModules).toEqual(expect.arrayContaining(['components/intake-form/intake-form.tsx', ...ZOD_FORMS]));
  });

  it('reaches only the client modules that import a zod-checked form', () => {
    const reaching = clientModules.map((m) => ({ module: m, chain: pathToZod(inputs, m) })).filter((r) => r.chain);
    const unexpected = reaching.filter((r) => !r.chain!.some((f) => ZOD_FORMS.includes(f)));
    expect(unexpected.map((r) => r.chain!.join(' → '))).toEqual([]);
  });

  it.each(ZOD_FORMS)('%s still has its schema', (form) => {
    expect(pathToZod(inputs, form)).not.toBeNull();
  });

  it('keeps the intake form, the header and the fetch helpers free of it', () => {
    for (const m of ['components/intake-form/intake-form-page.tsx', 'components/auth/sign-out-button.tsx', 'components/providers/query-provider.tsx']) {
      expect(pathToZod(inputs, m), m).toBeNull();
    }
  });
});
