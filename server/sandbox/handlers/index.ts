import type { RouteDef } from '../http/context';
import { answerRoutes } from './answers';
import { applicationRoutes } from './applications';
import { autofillPreparationRoutes } from './autofill';
import { autofillRunRoutes } from './autofill-runs';
import { businessRoutes } from './businesses';
import { dealApplicationRoutes } from './deal-applications';
import { dealRoutes } from './deals';
import { fileRoutes } from './files';
import { itemRoutes } from './items';
import { criteriaRoutes } from './criteria';
import { matchRunRoutes } from './match-runs';
import { matchRoutes } from './matches';
import { projectRoutes } from './projects';
import { openApiRoutes, registerRoutesForOpenApi } from './openapi';
import { rootRoutes } from './root';

/** Every /v1/ operation of the sandbox. */
export const routes: RouteDef[] = [
  ...rootRoutes,
  ...openApiRoutes,
  ...businessRoutes,
  ...applicationRoutes,
  ...answerRoutes,
  ...itemRoutes,
  ...fileRoutes,
  ...autofillPreparationRoutes,
  ...autofillRunRoutes,
  ...dealRoutes,
  ...dealApplicationRoutes,
  ...projectRoutes,
  ...criteriaRoutes,
  ...matchRunRoutes,
  ...matchRoutes,
];
registerRoutesForOpenApi(routes);
