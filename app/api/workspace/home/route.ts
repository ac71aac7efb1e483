import { route } from '@/server/http/route';
import { staffHome } from '@/server/read-model/workspace-views';

// GET /api/workspace/home – staff home: counts by stage, waiting on the client, recently submitted, reviews waiting
export const GET = route({ roles: ['staff'] }, async ({ db }) => ({ body: await staffHome(db) }));
