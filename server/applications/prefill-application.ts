import 'server-only';
import type { BusinessCreateInput } from '@/lib/bff/businesses';
import { AnswersMutationResult } from '@/lib/portal';
import { intakeApplication } from './intake-application';
import { readAllAnswers } from './answers';
import { upstreamIfMatch } from './answers-etag';
import { readContract } from './contract-cache';
import { portalRequest } from '@/server/portal';
import { PortalError } from '@/server/portal/errors';
import { prefillAnswers } from './prefill-answers';

export interface PrefillOutcome {
  /** Labels of the questions that hold what the form gave. */
  questions: string[];
  answersRevision: number | null;
}

/**
 * Writes what the create form collected into the new application's unanswered questions (prefill-answers.ts),
 * through the Portal's answer write with If-Match. When someone wrote first (412) the answers are read again
 * and what is still unanswered is written, once; an answer is never overwritten.
 */
export async function prefillApplication(applicationId: string, input: BusinessCreateInput): Promise<PrefillOutcome> {
  const links = await intakeApplication.links.get(applicationId);
  const { contract } = await readContract(links.contract, { maxAgeMs: Infinity });
  for (let attempt = 1; ; attempt++) {
    const answers = await readAllAnswers(links);
    const { writes, filled } = prefillAnswers(contract.questions, answers.items, input);
    if (writes.length === 0) return { questions: filled, answersRevision: null };
    try {
      const res = await portalRequest({
        method: 'PATCH',
        url: links.updateAnswers,
        schema: AnswersMutationResult,
        body: { answers_revision: answers.answers_revision, answers: writes.map(({ label: _label, ...answer }) => answer) },
        ifMatch: upstreamIfMatch(answers.etag),
      });
      return { questions: filled, answersRevision: res.data.answers_revision };
    } catch (e) {
      if (attempt < 2 && e instanceof PortalError && e.status === 412) continue;
      throw e;
    }
  }
}
