import 'server-only';
import { BoundedCache } from '@/lib/bounded-cache';
import { FundingMatch, MatchRun, Project } from '@/lib/portal';
import { AppError } from '@/server/http/app-error';
import { portalRequest, routes } from '@/server/portal';

/** A project's links as the Portal returned them: they never change, so they are kept once read. */
export interface ProjectLinks {
  criteria: string;
  matchRuns: string;
  matches: string;
}

const projectLinks = new BoundedCache<string, ProjectLinks>(5_000);
/** Which project a run belongs to (it never changes): a match names its run only. */
const runProjects = new BoundedCache<string, string>(20_000);

export async function readProject(projectId: string) {
  const res = await portalRequest({ path: routes.project(projectId), schema: Project });
  const p = res.data;
  projectLinks.set(p.id, { criteria: p.criteria_url, matchRuns: p.match_runs_url, matches: p.matches_url });
  return res;
}

/** The project's links: from an earlier read, else one read of the project. */
export async function linksOfProject(projectId: string): Promise<ProjectLinks> {
  const known = projectLinks.get(projectId);
  if (known) return known;
  await readProject(projectId);
  return projectLinks.get(projectId)!;
}

/** Another project's object named below this project's path is indistinguishable from a missing one. */
const notInProject = (what: string) => new AppError('not_found', `No such ${what} in this project.`);

/** A run of the project, read; 404 when the run belongs to another project. */
export async function readProjectRun(projectId: string, runId: string) {
  const res = await portalRequest({ path: routes.matchRun(runId), schema: MatchRun });
  runProjects.set(res.data.id, res.data.project.id);
  if (res.data.project.id !== projectId) throw notInProject('match run');
  return res;
}

/** A match of the project, read (its ETag is what a decision quotes upstream); 404 when it is another project's. */
export async function readProjectMatch(projectId: string, matchId: string) {
  const res = await portalRequest({ path: routes.match(matchId), schema: FundingMatch });
  const runId = res.data.run.id;
  const owner = runProjects.get(runId) ?? (await portalRequest({ path: routes.matchRun(runId), schema: MatchRun })).data.project.id;
  runProjects.set(runId, owner);
  if (owner !== projectId) throw notInProject('match');
  return res;
}
