import { z } from 'zod';

/** Identifier patterns of spec §2 and DESIGN.md §5 (recipient, repeatable item, answer file) and §6 (projects). */
export const ID_PATTERNS = {
  business: /^biz_[a-z0-9]+$/,
  application: /^ciappl_[a-z0-9]+$/,
  person: /^pers_[a-z0-9]+$/,
  personTag: /^ptag_[a-z0-9]+$/,
  businessPipeline: /^bpipe_[a-z0-9]+$/,
  businessStage: /^bstg_[a-z0-9]+$/,
  fileUpload: /^upl_.+$/,
  autofillRun: /^afrun_[a-z0-9]+$/,
  autofillSuggestion: /^afsug_[a-z0-9]+$/,
  deal: /^deal_[a-z0-9]+$/,
  dealPipeline: /^dpipe_[a-z0-9]+$/,
  dealStage: /^dstg_[a-z0-9]+$/,
  dealApplication: /^dapp_[a-z0-9]+$/,
  recipient: /^rcpt_[a-z0-9]+$/,
  repeatableItem: /^ritem_[a-z0-9]+$/,
  answerFile: /^afile_[a-z0-9]+$/,
  project: /^proj_[a-z0-9]+$/,
  projectCriteria: /^pcrit_[a-z0-9]+$/,
  matchRun: /^mrun_[a-z0-9]+$/,
  match: /^match_[a-z0-9]+$/,
} as const;

export type IdKind = keyof typeof ID_PATTERNS;

/** ID prefixes, so the sandbox and tests mint identifiers that match the patterns above. */
export const ID_PREFIXES: Record<IdKind, string> = {
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
};

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
