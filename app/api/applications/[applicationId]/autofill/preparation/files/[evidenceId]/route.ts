import { autofillRoutes } from '@/server/autofill/autofill-routes';

export const { DELETE } = autofillRoutes.evidenceFile;
