import path from 'node:path';

/** The repository root (this file is tests/e2e/support/paths.ts). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/**
 * Storage state written by the `setup` project and loaded by the browser projects.
 * It lives under test-results/ (git-ignored, recreated on every run by the setup project).
 */
export const STORAGE_STATE = path.join(REPO_ROOT, 'test-results', '.auth', 'storage-state.json');

/** The same for the app pointed at the strict sandbox (SANDBOX_PROFILE=strict): the `strict` project's journeys. */
export const STRICT_STORAGE_STATE = path.join(REPO_ROOT, 'test-results', '.auth', 'strict-storage-state.json');

/** Environment variable through which the global setup hands the app's URL to the workers. */
export const BASE_URL_ENV = 'E2E_BASE_URL';

/** …and the URL of the second app, whose Portal is the strict sandbox. */
export const STRICT_BASE_URL_ENV = 'E2E_STRICT_BASE_URL';

/** Environment variable through which the global setup hands the Portal sandbox's origin to the workers. */
export const SANDBOX_ORIGIN_ENV = 'E2E_SANDBOX_ORIGIN';
