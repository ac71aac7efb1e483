import 'server-only';
import { DealAnswersMutationResult, type AnswersUpdateBody } from '@/lib/portal';
import { portalRequest } from '@/server/portal';
import type { DealApplicationLinks } from './links';

export function writeDealAnswers(links: DealApplicationLinks, body: AnswersUpdateBody, ifMatch: string, signal?: AbortSignal) {
  return portalRequest({ method: 'PATCH', url: links.updateAnswers, schema: DealAnswersMutationResult, body, ifMatch, signal });
}
