import { route } from '@/server/http/route';
import { readFreshness, readLastPass } from '@/server/read-model/queries';
import { reconcileInBackground } from '@/server/read-model/scheduler';

// GET /api/workspace/reconcile – how fresh the read model is and what the last complete pass cost
export const GET = route({ roles: ['staff'] }, async ({ db }) => ({
  body: { freshness: await readFreshness(db), last_pass: await readLastPass(db) },
}));

// POST /api/workspace/reconcile – "Refresh now": starts a pass (joined when one runs here, skipped when another instance runs one)
export const POST = route({ roles: ['staff'] }, async ({ db }) => {
  reconcileInBackground(db, 'request');
  return { status: 202, body: { freshness: { ...(await readFreshness(db)), reconciling: true } } };
});
