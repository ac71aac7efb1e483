import 'server-only';
import { WorkspaceBusinessesQuery } from '@/lib/bff/workspace';
import { route } from '@/server/http/route';
import { listWorkspaceBusinesses, readFreshness, readLastPass } from '@/server/read-model/queries';
import { reconcileInBackground } from '@/server/read-model/scheduler';
import { staffHome, reviewInbox } from '@/server/read-model/workspace-views';
import { api } from '@/lib/api/endpoints';

// GET /api/workspace/businesses – the businesses table from the read model: q, stage, status, progress, sort, dir, page, page_size
const workspace_businesses_GET = route(api.workspace.businesses.GET, { roles: ['staff'], query: WorkspaceBusinessesQuery }, async ({ query, db }) => ({
  body: await listWorkspaceBusinesses(db, query),
}));

// GET /api/workspace/home – staff home: counts by stage, waiting on the client, recently submitted, reviews waiting
const workspace_home_GET = route(api.workspace.home.GET, { roles: ['staff'] }, async ({ db }) => ({ body: await staffHome(db) }));

// GET /api/workspace/reconcile – how fresh the read model is and what the last complete pass cost
const workspace_reconcile_GET = route(api.workspace.reconcile.GET, { roles: ['staff'] }, async ({ db }) => ({
  body: { freshness: await readFreshness(db), last_pass: await readLastPass(db) },
}));

// POST /api/workspace/reconcile – "Refresh now": starts a pass (joined when one runs here, skipped when another instance runs one)
const workspace_reconcile_POST = route(api.workspace.reconcile.POST, { roles: ['staff'] }, async ({ db }) => {
  reconcileInBackground(db, 'request');
  return { status: 202, body: { freshness: { ...(await readFreshness(db)), reconciling: true } } };
});

// GET /api/workspace/review-inbox – applications with pending Autofill suggestions, the longest waiting first
const workspace_reviewInbox_GET = route(api.workspace.reviewInbox.GET, { roles: ['staff', 'reviewer'] }, async ({ db }) => ({ body: await reviewInbox(db) }));

/** The route handlers of workspace: each route file under app/api re-exports its methods. */
export const workspaceRoutes = {
  businesses: { GET: workspace_businesses_GET },
  home: { GET: workspace_home_GET },
  reconcile: { GET: workspace_reconcile_GET, POST: workspace_reconcile_POST },
  reviewInbox: { GET: workspace_reviewInbox_GET },
};
