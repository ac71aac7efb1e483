import { intakeApplicationRoutes } from '@/server/applications/kind-routes';

// GET/POST /api/applications/[applicationId]/files – a page of the files attached to file questions; POST ?block_key=&schema_key=&field_key=&item_id= uploads one (the body is its bytes, named in X-Filename)
export const { GET, POST } = intakeApplicationRoutes.files;
