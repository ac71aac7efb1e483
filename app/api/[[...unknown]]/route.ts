import { AppError } from '@/server/http/app-error';
import { route } from '@/server/http/route';

// Any /api path no route of the app answers (every method): 404 in the API's error shape, not Next's HTML page.
// Public and without the CSRF check: it does nothing, and every caller should learn the path is wrong.
const unknown = route({ roles: 'public', csrf: false }, async () => {
  throw new AppError('not_found', 'There is no API route at this address.');
});

export { unknown as DELETE, unknown as GET, unknown as HEAD, unknown as OPTIONS, unknown as PATCH, unknown as POST, unknown as PUT };
