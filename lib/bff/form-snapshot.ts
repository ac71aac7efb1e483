import { z } from 'zod';
import { ApplicationView, ContractView, CurrentAnswers } from './applications';
import { FileView } from './files';
import { RepeatableItemView } from './items';

/**
 * Everything a form page opens with, in one reply: the application, its contract, every answer, every
 * repeatable item of every group the contract lets us list, and every attached file. One browser request
 * instead of five or more, and the BFF reads the upstream in parallel (the contract is reused while its
 * contract_version holds).
 */
export const FormSnapshotView = z.object({
  application: ApplicationView,
  contract: ContractView,
  answers: CurrentAnswers,
  items: z.array(RepeatableItemView),
  files: z.array(FileView),
});
export type FormSnapshotView = z.infer<typeof FormSnapshotView>;
