import { intakeApplicationRoutes } from '@/server/applications/kind-routes';

// GET /api/applications/[applicationId]/answers/history – one answer's changes (schema_key, field_key, item_id) or every answer's, newest first (before, limit)
export const { GET } = intakeApplicationRoutes.history;
