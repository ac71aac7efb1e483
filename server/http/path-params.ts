import 'server-only';
import { z } from 'zod';
import { EvidenceSourceId } from '@/lib/bff/autofill';
import { INVITATION_ID_PATTERN } from '@/lib/bff/invitations';
import { BlockKeyParam } from '@/lib/bff/items';
import { ID_PATTERNS } from '@/lib/portal';

/*
 * The path parameters of every BFF route, one schema per dynamic segment set, each named `<Object>Params`
 * after the object its last segment names. Ids are checked against their Portal pattern before anything
 * puts them into an upstream URL.
 */

/** One id segment: `[key]`, checked against its pattern. */
const idParams = <K extends string>(key: K, pattern: RegExp, what: string) =>
  z.strictObject({ [key]: z.string().regex(pattern, `not ${what}`) } as Record<K, z.ZodString>);

export const ApplicationParams = idParams('applicationId', ID_PATTERNS.application, 'an application id');
export type ApplicationParams = z.infer<typeof ApplicationParams>;

export const DealApplicationParams = idParams('dealApplicationId', ID_PATTERNS.dealApplication, 'a deal application id');
export type DealApplicationParams = z.infer<typeof DealApplicationParams>;

export const BusinessParams = idParams('businessId', ID_PATTERNS.business, 'a business id');
export type BusinessParams = z.infer<typeof BusinessParams>;

export const DealParams = idParams('dealId', ID_PATTERNS.deal, 'a deal id');
export type DealParams = z.infer<typeof DealParams>;

export const InvitationParams = idParams('invitationId', INVITATION_ID_PATTERN, 'an invitation id');
export type InvitationParams = z.infer<typeof InvitationParams>;

/** A document slot of a new business. */
export const UploadParams = BusinessParams.extend({ uploadId: z.string().max(255).regex(ID_PATTERNS.fileUpload, 'not an upload id') });
export type UploadParams = z.infer<typeof UploadParams>;

/** Below an intake application: Autofill's evidence, runs and suggestions. */
export const EvidenceParams = ApplicationParams.extend({ evidenceId: EvidenceSourceId });
export type EvidenceParams = z.infer<typeof EvidenceParams>;

export const RunParams = ApplicationParams.extend({ runId: z.string().regex(ID_PATTERNS.autofillRun, 'not an Autofill run id') });
export type RunParams = z.infer<typeof RunParams>;

export const SuggestionParams = ApplicationParams.extend({
  suggestionId: z.string().regex(ID_PATTERNS.autofillSuggestion, 'not an Autofill suggestion id'),
});
export type SuggestionParams = z.infer<typeof SuggestionParams>;

/** Below any kind of application (its own id segment first): a repeatable group, an item, a file. */
export const itemGroupParams = <S extends z.ZodObject>(application: S) => application.extend({ blockKey: BlockKeyParam });
export const itemParams = <S extends z.ZodObject>(application: S) =>
  itemGroupParams(application).extend({ itemId: z.string().regex(ID_PATTERNS.repeatableItem, 'not a repeatable item id') });
export const fileParams = <S extends z.ZodObject>(application: S) =>
  application.extend({ fileId: z.string().regex(ID_PATTERNS.answerFile, 'not a file id') });

/** A funding project (DESIGN.md §6), and its runs and matches below it. */
export const ProjectParams = idParams('projectId', ID_PATTERNS.project, 'a project id');
export type ProjectParams = z.infer<typeof ProjectParams>;

export const MatchRunParams = ProjectParams.extend({ runId: z.string().regex(ID_PATTERNS.matchRun, 'not a match run id') });
export type MatchRunParams = z.infer<typeof MatchRunParams>;

export const MatchParams = ProjectParams.extend({ matchId: z.string().regex(ID_PATTERNS.match, 'not a match id') });
export type MatchParams = z.infer<typeof MatchParams>;
