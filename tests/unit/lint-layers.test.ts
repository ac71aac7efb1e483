import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The layers of README's "Architecture", as eslint.config.mjs enforces them: each import is linted as if it
// stood in a file of that folder, by the project's own configuration.
const eslint = new ESLint({ cwd: process.cwd() });

async function layerErrors(filePath: string, source: string) {
  const [result] = await eslint.lintText(`${source}\nexport const used = [x];\n`, { filePath });
  return result!.messages
    .filter((m) => m.ruleId === 'import/no-restricted-paths' || m.ruleId === 'import/no-nodejs-modules' || m.ruleId === 'no-restricted-globals')
    .map((m) => m.message);
}

describe('layering lint rules', () => {
  // The first lint loads the configuration, the parsers and the TypeScript resolver: seconds on a busy machine.
  beforeAll(() => eslint.lintText('', { filePath: 'lib/warm-up.ts' }), 120_000);

  it.each([
    ['components/x.tsx', "import { x } from '@/server/portal';", /components\/ runs in the browser/],
    ['components/deals/x.tsx', "import type { x } from '../../server/portal';", /components\/ runs in the browser/],
    ['server/portal/x.ts', "import { x } from '@/server/sandbox/server';", /Only the sandbox imports the sandbox/],
    ['server/launcher/x.ts', "import { x } from '../sandbox/keys';", /Only the sandbox imports the sandbox/],
    ['app/api/x/route.ts', "import { x } from '@/server/sandbox/options';", /Only the sandbox imports the sandbox/],
    ['server/sandbox/x.ts', "import { x } from '@/server/portal';", /The sandbox stands alone/],
    ['server/sandbox/handlers/x.ts', "import { x } from '../../env';", /The sandbox stands alone/],
    ['lib/x.ts', "import { x } from 'node:crypto';", /Node.js builtin module "node:crypto"/],
    ['lib/forms/x.ts', "import { x } from 'crypto';", /Node.js builtin module "crypto"/],
    ['lib/forms/x.ts', "import { x } from '@/server/env';", /lib\/ runs on both sides/],
    ['server/projects/x.ts', "import { x } from '@/server/applications/project-criteria';", /the application wing/],
    ['server/portal/x.ts', "import type { x } from '../applications/kind';", /the application wing/],
    ['server/http/x.ts', "import { x } from '@/server/applications/kind-route';", /the application wing/],
    ['server/x.ts', "import { x } from './applications/form-snapshot';", /the application wing/],
    ['lib/forms/x.ts', "import { x } from '@/components/intake-form/runtime/form-runtime';", /never imports components\//],
    ['lib/forms/x.ts', 'const x = localStorage.getItem("k");', /localStorage is the browser's/],
    ['lib/x.ts', 'const x = () => window.addEventListener("online", () => undefined);', /window is the browser's/],
  ])('%s: %s is an error', async (filePath, source, message) => {
    const errors = await layerErrors(filePath, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  });

  it.each([
    ['components/x.tsx', "import { x } from '@/lib/bff/deals';"],
    ['components/intake-form/runtime/x.ts', 'const x = typeof localStorage === "undefined" ? null : window;'],
    ['app/api/x/route.ts', "import { x } from '@/server/portal';"],
    ['server/portal/x.ts', "import { x } from '@/lib/portal/demo-keys';"],
    ['server/launcher/x.ts', "import { x } from 'node:child_process';"],
    ['server/sandbox/handlers/x.ts', "import { x } from '../server';"],
    ['server/sandbox/x.ts', "import { x } from '@/lib/portal';"],
    ['server/applications/x.ts', "import { x } from '@/server/projects/read';\nimport { y } from './kind';\nexport const also = [y];"],
    ['server/autofill/x.ts', "import { x } from '@/server/applications/intake-application';"],
    ['server/projects/project-routes.ts', "import { x } from '@/server/applications/project-criteria';"],
    ['app/api/x/route.ts', "import { x } from '@/server/applications/kind-routes';"],
    ['tests/x.ts', "import { x } from '@/server/sandbox/server';\nimport { y } from 'node:fs';\nexport const also = [y];"],
  ])('%s: %s is allowed', async (filePath, source) => {
    expect(await layerErrors(filePath, source)).toEqual([]);
  });
});
