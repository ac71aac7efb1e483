import { autofillRoutes } from '@/server/autofill/autofill-routes';

export const { POST } = autofillRoutes.evidence;
