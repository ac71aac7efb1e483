import 'server-only';
import { BoundedCache } from '@/lib/bounded-cache';
import { FundingMatch, MatchRun, Project } from '@/lib/portal';
import { AppError } from '@/server/http/app-error';
import { portalRequest, routes } from '@/server/portal';
import { processWide } from '@/server/process-wide';

/** A project's links as the Portal returned them: they never change, so they are kept once read. */
export interface ProjectLinks {
  criteria: string;
  matchRuns: string;
  matches: string;
}

// One per process, not per Next bundle: the page of matches and the decision on one are different routes.
const projectLinks = processWide('project-links', () => new BoundedCache<string, ProjectLinks>(5_000));
/** Which project a run belongs to (it never changes): a match names its run only. */
const runProjects = processWide('run-projects', () => new BoundedCache<string, string>(20_000));
/** Which project a match belongs to (it never changes), for every match this process has seen. */
const matchProjects = processWide('match-projects', () => new BoundedCache<string, string>(100_000));

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

/** Notes the project of matches read from it (its matches_url, or a decision below its path that the Portal took). */
export function rememberMatches(projectId: string, matches: ReadonlyArray<Pick<FundingMatch, 'id' | 'run'>>) {
  for (const m of matches) {
    matchProjects.set(m.id, projectId);
    runProjects.set(m.run.id, projectId);
  }
}

/** A match of the project, read (the 412 of a decision carries it); 404 when it is another project's. */
export async function readProjectMatch(projectId: string, matchId: string) {
  const res = await portalRequest({ path: routes.match(matchId), schema: FundingMatch });
  const runId = res.data.run.id;
  const owner = runProjects.get(runId) ?? (await portalRequest({ path: routes.matchRun(runId), schema: MatchRun })).data.project.id;
  rememberMatches(owner, [res.data]);
  if (owner !== projectId) throw notInProject('match');
  return res;
}

/**
 * Refuses a match of another project (404) before anything is written. A match the person decides on came
 * from a page of this project's matches, so its project is known without a read; only a match this process
 * never saw (another instance served the page, or it restarted since) is read first.
 */
export async function checkMatchOfProject(projectId: string, matchId: string): Promise<void> {
  const owner = matchProjects.get(matchId);
  if (owner === undefined) await readProjectMatch(projectId, matchId);
  else if (owner !== projectId) throw notInProject('match');
}
