import 'server-only';
import type { ProjectListView, ProjectsQueryInput } from '@/lib/bff/projects';
import { FundingMatchPage, ProjectPage, type Project } from '@/lib/portal';
import { portalRequest, routes } from '@/server/portal';
import { bestMatchView, projectView } from './project-views';

/** The best match of a matched project: the first of its latest completed run's matches (they come by score). */
async function bestOf(p: Project) {
  if (p.status === 'draft') return null;
  const res = await portalRequest({ url: p.matches_url, schema: FundingMatchPage, query: { page_size: 1 } });
  const best = res.data.items[0];
  return best ? bestMatchView(best) : null;
}

/** A page of projects (a business's, with business_id), each with its best fit: one read per matched project, in parallel. */
export async function listProjects(query: ProjectsQueryInput): Promise<ProjectListView> {
  const res = await portalRequest({ path: routes.projects(), schema: ProjectPage, query });
  const items = await Promise.all(res.data.items.map(async (p) => ({ ...projectView(p), best_match: await bestOf(p) })));
  return { items, next_cursor: res.data.next_cursor, previous_cursor: res.data.previous_cursor };
}
