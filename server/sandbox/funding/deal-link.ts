import type { DealCreateBody, ErrorDetail } from '@/lib/portal';
import { SandboxError } from '../http/errors';
import { effectivePermissions, type ApiKeyDef } from '../keys';
import type { Sandbox } from '../sandbox';
import type { DealRec } from '../store/types';
import { fundingState } from './state';
import type { MatchRec, ProjectRec } from './types';

/*
 * A deal for a funding match (DESIGN.md §6): `POST deals/` with project_id and match_id (both or neither).
 * The match must belong to the project, the project to the deal's business, the deal's recipient must be the
 * match's, and the match must be shortlisted and without a deal yet. Linking writes the match, so the key
 * needs projects:write besides deals:write.
 */

export interface DealLink {
  project: ProjectRec;
  match: MatchRec;
}

const invalid = (details: ErrorDetail[]) => new SandboxError('validation_failed', 'The deal cannot be made for this match.', details);

/** The project and match a deal create names, checked; null when it names neither. */
export function dealLinkOf(sb: Sandbox, key: ApiKeyDef, body: DealCreateBody): DealLink | null {
  if (body.project_id === undefined && body.match_id === undefined) return null;
  if (!effectivePermissions(key).has('projects:write')) {
    throw new SandboxError('forbidden', 'A deal for a funding match also needs projects:write.', [
      { code: 'missing_permission', message: 'Requires projects:write.' },
    ]);
  }
  if (body.project_id === undefined || body.match_id === undefined) {
    const missing = body.project_id === undefined ? 'project_id' : 'match_id';
    const other = missing === 'project_id' ? 'match_id' : 'project_id';
    throw invalid([{ code: 'required', message: `${missing} is required with ${other}.`, parameter: missing }]);
  }
  const st = fundingState(sb);
  const details: ErrorDetail[] = [];
  const project = st.projects[body.project_id];
  const match = st.matches[body.match_id];
  if (!project) details.push({ code: 'unknown_project', message: `No project ${body.project_id} exists.`, parameter: 'project_id' });
  else if (project.business_id !== body.business_id) {
    details.push({ code: 'project_business_mismatch', message: `The project belongs to ${project.business_id}.`, parameter: 'project_id' });
  }
  if (!match) details.push({ code: 'unknown_match', message: `No match ${body.match_id} exists.`, parameter: 'match_id' });
  else {
    if (project && match.project_id !== project.id) {
      details.push({ code: 'match_project_mismatch', message: 'The match belongs to another project.', parameter: 'match_id' });
    }
    if (body.recipient_id !== match.recipient_id) {
      details.push({ code: 'recipient_mismatch', message: `recipient_id must be the match's recipient, ${match.recipient_id}.`, parameter: 'recipient_id' });
    }
  }
  if (details.length > 0 || !project || !match) throw invalid(details);
  if (match.deal_id) {
    throw new SandboxError('conflict', `A deal (${match.deal_id}) was already made for this match.`, [
      { code: 'match_has_deal', message: 'One deal per match.', parameter: 'match_id' },
    ]);
  }
  if (match.decision !== 'shortlisted') {
    throw new SandboxError('conflict', 'Only a shortlisted match can become a deal: shortlist it first.', [
      { code: 'match_not_shortlisted', message: `The match's decision is ${match.decision}.`, parameter: 'match_id' },
    ]);
  }
  return { project, match };
}

/** Records the link both ways: the deal names its project and match, the match its deal. */
export function linkDeal(sb: Sandbox, link: DealLink, deal: DealRec) {
  deal.project_id = link.project.id;
  deal.match_id = link.match.id;
  link.match.deal_id = deal.id;
  link.match.revision += 1;
  link.match.updated_at = deal.created_at;
  sb.changed();
}

/** How a deal names the match it was made from: {id, object, url}, or null. */
export function dealMatch(sb: Sandbox, d: DealRec) {
  return d.match_id ? { id: d.match_id, object: 'funding_match' as const, url: sb.urls.match(d.match_id) } : null;
}

/** How a deal names its project: {id, object, name}, or null. */
export function dealProject(sb: Sandbox, d: DealRec) {
  const p = d.project_id ? sb.state.funding?.projects[d.project_id] : undefined;
  return p ? { id: p.id, object: 'project' as const, name: p.name } : null;
}
