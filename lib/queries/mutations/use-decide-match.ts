import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { matchDismissApi, matchShortlistApi } from '@/lib/api/endpoints';
import { ApiError, conflictCurrent } from '@/lib/api/api-error';
import type { MatchView, MatchDecisionVerb } from '@/lib/bff/projects';
import { putMatch } from '../projects';

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
      try {
        const { match } = await callApi(verb === 'shortlist' ? matchShortlistApi.POST : matchDismissApi.POST, {
          params: { projectId, matchId: before.id },
          headers: { 'If-Match': before.etag },
        });
        return { kind: 'decided', match };
      } catch (e) {
        const current = conflictCurrent<MatchView>(e);
        if (!(e instanceof ApiError) || !current) throw e;
        return { kind: 'changed', current };
      }
    },
    onSuccess: (outcome) => putMatch(queryClient, projectId, outcome.kind === 'decided' ? outcome.match : outcome.current),
  });
}
