import fs from 'node:fs/promises';
import path from 'node:path';
import { DEMO_ACCOUNTS } from '../../../server/auth/demo-users';
import { expect, test as setup } from '../support/fixtures';
import { STRICT_STORAGE_STATE } from '../support/paths';

const staff = DEMO_ACCOUNTS.find((a) => a.role === 'staff')!;

setup('staff are signed in once on the app whose Portal is strict', async ({ request, baseURL }) => {
  const signIn = await request.post('/api/auth/sign-in', {
    headers: { 'X-CSRF': '1', Origin: baseURL! },
    data: { email: staff.email, password: staff.password },
  });
  expect(signIn.status(), await signIn.text()).toBe(200);
  await fs.mkdir(path.dirname(STRICT_STORAGE_STATE), { recursive: true });
  await request.storageState({ path: STRICT_STORAGE_STATE });
});
