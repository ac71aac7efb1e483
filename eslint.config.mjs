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
    target: './lib',
    from: './components',
    message: 'lib/ runs on both sides and never imports components/ (browser code): describe what it needs as a type in lib/.',
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
    // The application wing (intake, deal application, project criteria) sits above what it uses: the Portal
    // client, http, the read model, projects' reads. Only app/, the route modules (*-routes.ts, which app/api
    // re-exports) and the wing's consumers (Autofill, the funder package) import it.
    target: ['./server/!(applications|autofill|package)/**/!(*-routes).ts', './server/*.ts'],
    from: './server/applications',
    message: 'server/applications (the application wing) is imported only by app/, route modules, server/autofill and server/package: what the wing uses must not import it back.',
  },
  {
    target: './server/sandbox',
    from: './server',
    except: ['./sandbox'],
    message: 'The sandbox stands alone: it imports lib/ and itself, never the app’s server/.',
  },
];

/** Globals only a browser has: code using them does not belong in lib/. */
const BROWSER_ONLY = [
  'window',
  'document',
  'navigator',
  'location',
  'history',
  'localStorage',
  'sessionStorage',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
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
    // Shared by the browser and the server: no Node built-ins (`node:crypto`, `fs`, …) and no browser-only
    // globals (the form's runtime, which needs them, lives in components/intake-form/runtime).
    files: ['lib/**/*.{ts,tsx,mts,js,mjs}'],
    rules: {
      'import/no-nodejs-modules': 'error',
      'no-restricted-globals': ['error', ...BROWSER_ONLY.map((name) => ({ name, message: `lib/ runs on both sides: ${name} is the browser's (browser-only code goes in components/).` }))],
    },
  },
  {
    // Command-line entry points, the standalone sandbox's access log and benchmarks print on purpose.
    files: ['server/launcher/**', 'server/cli/**', 'server/sandbox/**', 'tests/bench/**'],
    rules: { 'no-console': 'off' },
  },
];

export default config;
