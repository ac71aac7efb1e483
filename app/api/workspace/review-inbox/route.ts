import { route } from '@/server/http/route';
import { reviewInbox } from '@/server/read-model/workspace-views';

// GET /api/workspace/review-inbox – applications with pending Autofill suggestions, the longest waiting first
export const GET = route({ roles: ['staff', 'reviewer'] }, async ({ db }) => ({ body: await reviewInbox(db) }));
