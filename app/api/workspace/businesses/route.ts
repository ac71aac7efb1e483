import { WorkspaceBusinessesQuery } from '@/lib/bff/workspace';
import { route } from '@/server/http/route';
import { listWorkspaceBusinesses } from '@/server/read-model/queries';

// GET /api/workspace/businesses – the businesses table from the read model: q, stage, status, progress, sort, dir, page, page_size
export const GET = route({ roles: ['staff'], query: WorkspaceBusinessesQuery }, async ({ query, db }) => ({
  body: await listWorkspaceBusinesses(db, query),
}));
