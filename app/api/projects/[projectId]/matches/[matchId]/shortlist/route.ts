import { decisionRoute } from '@/server/projects/decision-route';

// POST /api/projects/[projectId]/matches/[matchId]/shortlist – shortlist a match (If-Match: its etag; 412 with the match as it is now)
export const POST = decisionRoute('shortlist');
