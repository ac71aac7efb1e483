import 'server-only';
import { AnswerPage, type AnswerItem } from '@/lib/portal';
import type { CurrentAnswers } from '@/lib/bff/applications';
import { portalRequest } from '@/server/portal';
import type { ApplicationLinks } from './kind-links';
import { answerSetEtag } from './answers-etag';

/** Reads every page of the answer set (page size 500: a 1,000-field contract takes three calls). */
export async function readAllAnswers(links: Pick<ApplicationLinks, 'answers'>): Promise<CurrentAnswers> {
  const items: AnswerItem[] = [];
  let cursor: string | null = null;
  let revision = 0;
  let etag = '';
  do {
    const res: Awaited<ReturnType<typeof portalRequest<typeof AnswerPage>>> = await portalRequest({
      url: links.answers,
      schema: AnswerPage,
      query: { page_size: 500, ...(cursor ? { cursor } : {}) },
    });
    items.push(...res.data.items);
    cursor = res.data.next_cursor;
    revision = res.data.answers_revision;
    etag = answerSetEtag(res.etag, res.data.answers_revision);
  } while (cursor);
  return { items, answers_revision: revision, etag };
}
