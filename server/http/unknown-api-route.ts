import 'server-only';
import { endpoint } from '@/lib/api/endpoint';
import { AppError } from './app-error';
import { route } from './route';

/** Not a route of the table: whatever path no route answers. */
const unknownApi = endpoint<{ reply: never }>()('GET', '/api/[[...unknown]]');

// Any /api path no route of the app answers (every method): 404 in the API's error shape, not Next's HTML page.
// Public and without the CSRF check: it does nothing, and every caller should learn the path is wrong.
export const unknownApiRoute = route(unknownApi, { roles: 'public', csrf: false }, async () => {
  throw new AppError('not_found', 'There is no API route at this address.');
});
