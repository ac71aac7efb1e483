import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiError, conflictCurrent } from '@/lib/api/api-error';
import { apiFetch } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';
import { MatchView, type MatchDecisionVerb } from '@/lib/bff/projects';
import { putMatch } from '../projects';

const MatchReply = z.object({ match: MatchView });

export interface MatchDecision {
  /** The match as the page showed it: its etag goes in If-Match. */
  before: MatchView;
  verb: MatchDecisionVerb;
}

/** Decided (the match after it), or refused because the match changed first (412): the match now. */
export type MatchDecisionOutcome = { kind: 'decided'; match: MatchView } | { kind: 'changed'; current: MatchView };

/** Shortlists or dismisses a match; the lists follow the outcome. */
export function useDecideMatch(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ before, verb }: MatchDecision): Promise<MatchDecisionOutcome> => {
      const paths = apiPaths.project(projectId).match(before.id);
      try {
        const { match } = await apiFetch(paths[verb](), { method: 'POST', headers: { 'If-Match': before.etag }, schema: MatchReply });
        return { kind: 'decided', match };
      } catch (e) {
        const current = conflictCurrent(e, MatchView);
        if (!(e instanceof ApiError) || !current) throw e;
        return { kind: 'changed', current };
      }
    },
    onSuccess: (outcome) => putMatch(queryClient, projectId, outcome.kind === 'decided' ? outcome.match : outcome.current),
  });
}
