import { z } from 'zod';
import {
  AnswerItem,
  AnswerKey,
  AnswerWrite,
  ApplicationProgress,
  ContractSection,
  Question,
  RepeatableGroup,
} from '@/lib/portal';

/**
 * What the BFF sends the browser about an application: the Portal's resources without any Portal URL
 * (DESIGN.md §1), plus the ETag the browser quotes back in If-Match.
 */
const APPLICATION_KINDS = ['client_intake', 'deal', 'criteria'] as const;
export const ApplicationKind = z.enum(APPLICATION_KINDS);
export type ApplicationKind = z.infer<typeof ApplicationKind>;

export const ApplicationView = z.object({
  id: z.string(),
  kind: ApplicationKind,
  business: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  status: z.object({ key: z.string(), label: z.string(), updated_at: z.string().nullable() }).nullable(),
  progress: ApplicationProgress.nullable(),
  submitted_at: z.string().nullable(),
  updated_at: z.string(),
  revision: z.number().int(),
  answers_revision: z.number().int().nullable(),
  etag: z.string(),
  /** A project's criteria: the answers still holding the value prefilled from the intake application. */
  prefilled_answers: z.array(AnswerKey).optional(),
});
export type ApplicationView = z.infer<typeof ApplicationView>;

export const ContractView = z.object({
  contract_version: z.string(),
  answers_revision: z.number().int(),
  application_name: z.string(),
  description: z.string(),
  instructions: z.string(),
  sections: z.array(ContractSection),
  repeatable_groups: z.array(RepeatableGroup),
  questions: z.array(Question),
});
export type ContractView = z.infer<typeof ContractView>;

/** A reply about the answer set (answers or items): what it carries, the set's revision and its ETag. */
export const answerSetReply = <S extends z.ZodRawShape>(shape: S) =>
  z.object({ ...shape, answers_revision: z.number().int(), etag: z.string() });

export const AnswersPageView = answerSetReply({ items: z.array(AnswerItem), next_cursor: z.string().nullable() });
export type AnswersPageView = z.infer<typeof AnswersPageView>;

export const AnswersQuery = z.strictObject({
  page_size: z.coerce.number().int().min(1).max(500).optional(),
  cursor: z.string().min(1).max(2000).optional(),
  section_key: z.string().min(1).max(255).optional(),
});

export const AnswersWriteResult = answerSetReply({ updated_answers: z.array(AnswerWrite), affected_section_keys: z.array(z.string()) });
export type AnswersWriteResult = z.infer<typeof AnswersWriteResult>;

/** Every answer of the set as of now: sent with a 412 so the browser can merge without another read. */
export const CurrentAnswers = answerSetReply({ items: z.array(AnswerItem) });
export type CurrentAnswers = z.infer<typeof CurrentAnswers>;
