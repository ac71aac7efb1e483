import { z } from 'zod';

/** ID prefixes of spec §2 and DESIGN.md §5 (recipient, repeatable item, answer file). */
export const ID_PREFIXES = {
  business: 'biz_',
  application: 'ciappl_',
  person: 'pers_',
  personTag: 'ptag_',
  businessPipeline: 'bpipe_',
  businessStage: 'bstg_',
  fileUpload: 'upl_',
  autofillRun: 'afrun_',
  autofillSuggestion: 'afsug_',
  deal: 'deal_',
  dealPipeline: 'dpipe_',
  dealStage: 'dstg_',
  dealApplication: 'dapp_',
  recipient: 'rcpt_',
  repeatableItem: 'ritem_',
  answerFile: 'afile_',
  project: 'proj_',
  projectCriteria: 'pcrit_',
  matchRun: 'mrun_',
  match: 'match_',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/**
 * Identifier patterns: the prefix, then lowercase letters and digits. An upload id may hold anything after
 * its prefix (it is the Portal's, quoted back in a path).
 */
export const ID_PATTERNS = Object.fromEntries(
  Object.entries(ID_PREFIXES).map(([kind, prefix]) => [kind, new RegExp(kind === 'fileUpload' ? `^${prefix}.+$` : `^${prefix}[a-z0-9]+$`)]),
) as Record<IdKind, RegExp>;

export const id = (kind: IdKind) => z.string().regex(ID_PATTERNS[kind], `must match ${ID_PATTERNS[kind].source}`);

export const BusinessId = id('business');
export const ApplicationId = id('application');
export const PersonId = id('person');
export const PersonTagId = id('personTag');
export const BusinessPipelineId = id('businessPipeline');
export const BusinessStageId = id('businessStage');
export const FileUploadId = id('fileUpload');
export const AutofillRunId = id('autofillRun');
export const AutofillSuggestionId = id('autofillSuggestion');
export const DealId = id('deal');
export const DealPipelineId = id('dealPipeline');
export const DealStageId = id('dealStage');
export const DealApplicationId = id('dealApplication');
export const RecipientId = id('recipient');
export const RepeatableItemId = id('repeatableItem');
export const AnswerFileId = id('answerFile');
export const ProjectId = id('project');
export const ProjectCriteriaId = id('projectCriteria');
export const MatchRunId = id('matchRun');
export const MatchId = id('match');
