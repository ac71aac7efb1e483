import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

/**
 * The layers (README, "Architecture"). `import/no-restricted-paths` resolves each import the way TypeScript
 * does (eslint-config-next registers eslint-plugin-import with the TypeScript resolver), so the `@/` alias
 * and relative paths are judged by the file they reach. tests/ may import anything.
 */
const LAYERS = [
  {
    target: './components',
    from: './server',
    message: 'components/ runs in the browser: give it a view model from lib/ instead of importing server/.',
  },
  {
    target: './lib',
    from: './server',
    message: 'lib/ runs on both sides and never imports server/.',
  },
  {
    // server/ outside the sandbox: the app must run where there is no sandbox at all.
    target: ['./server/!(sandbox)/**', './server/*'],
    from: './server/sandbox',
    message: 'Only the sandbox imports the sandbox: the app talks to it over HTTP, the launcher starts it as a child process.',
  },
  {
    target: './app',
    from: './server/sandbox',
    message: 'Only the sandbox imports the sandbox: the app talks to it over HTTP.',
  },
  {
    target: './server/sandbox',
    from: './server',
    except: ['./sandbox'],
    message: 'The sandbox stands alone: it imports lib/ and itself, never the app’s server/.',
  },
];

/** Dates are written one way everywhere (components/ui/when.tsx), not by each page's own Intl options. */
const ONE_DATE_FORMAT = 'Write dates with formatDate / formatDateTime / <When> from components/ui/when.tsx: one format everywhere.';

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: ['.next/**', 'tests/bench/form-render/next-floor/.next/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts', '.data/**', '.scratch/**'],
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['{app,components,lib,server}/**/*.{ts,tsx,mts,js,mjs}'],
    rules: { 'import/no-restricted-paths': ['error', { zones: LAYERS }] },
  },
  {
    files: ['{app,components,lib}/**/*.{ts,tsx,mts,js,mjs}'],
    ignores: ['components/ui/when.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name=/^toLocale(Date|Time)String$/]", message: ONE_DATE_FORMAT },
        { selector: "CallExpression[callee.property.name='toLocaleString'][callee.object.type='NewExpression'][callee.object.callee.name='Date']", message: ONE_DATE_FORMAT },
        { selector: "NewExpression[callee.object.name='Intl'][callee.property.name='DateTimeFormat']", message: ONE_DATE_FORMAT },
      ],
    },
  },
  {
    // Shared by the browser and the server: no Node built-ins (`node:crypto`, `fs`, …).
    files: ['lib/**/*.{ts,tsx,mts,js,mjs}'],
    rules: { 'import/no-nodejs-modules': 'error' },
  },
  {
    // Command-line entry points, the standalone sandbox's access log and benchmarks print on purpose.
    files: ['server/launcher/**', 'server/cli/**', 'server/sandbox/**', 'tests/bench/**'],
    rules: { 'no-console': 'off' },
  },
];

export default config;
