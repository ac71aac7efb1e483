import 'server-only';
import { answersRoutes } from './answers-routes';
import { historyRoutes } from './history-routes';
import { applicationRoutes } from './application-routes';
import { projectCriteria } from './project-criteria';
import { dealApplication } from './deal-application';
import { fileRoutes, filesRoutes } from './file-routes';
import { intakeApplication } from './intake-application';
import type { CompleteKind } from './kind';
import { itemGroupRoutes, itemRoutes } from './item-routes';
import { submitRoutes } from './submit-routes';

/**
 * Every route of an application kind that has it all (answers, repeatable items, files, submit), each a
 * `{ GET, … }` for its route file to re-export. A kind without some of them builds only what it has, from
 * the same factories.
 */
export function applicationKindRoutes<Id extends string>(kind: CompleteKind<Id>) {
  return {
    ...applicationRoutes(kind),
    answers: answersRoutes(kind),
    history: historyRoutes(kind),
    itemGroup: itemGroupRoutes(kind),
    item: itemRoutes(kind),
    files: filesRoutes(kind),
    ...fileRoutes(kind),
    submit: submitRoutes(kind),
  };
}

/** /api/applications/[applicationId]/… */
export const intakeApplicationRoutes = applicationKindRoutes(intakeApplication);

/** /api/deal-applications/[dealApplicationId]/… */
export const dealApplicationRoutes = applicationKindRoutes(dealApplication);

/** /api/projects/[projectId]/criteria/…: the reads and the answers (the criteria have no items, files or submit). */
export const projectCriteriaRoutes = { ...applicationRoutes(projectCriteria), answers: answersRoutes(projectCriteria) };
