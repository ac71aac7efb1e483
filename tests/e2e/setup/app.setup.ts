import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test as setup } from '../support/fixtures';
import { STORAGE_STATE } from '../support/paths';

setup('the app answers and the browser storage state is written', async ({ request }) => {
  const response = await request.get('/');
  expect(response.status(), 'GET / of the app').toBe(200);
  expect(response.headers()['content-type']).toContain('text/html');

  // Nobody signs in yet, so the state is empty; signing in goes here once the app has sessions.
  await fs.mkdir(path.dirname(STORAGE_STATE), { recursive: true });
  await request.storageState({ path: STORAGE_STATE });
});
