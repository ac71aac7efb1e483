import { autofillRoutes } from '@/server/autofill/autofill-routes';

export const { GET } = autofillRoutes.runUnusedText;
