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
import { strictRoutes } from '../profiles/strict';
import type { SandboxProfile } from '../options';

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

const tables: Record<SandboxProfile, RouteDef[]> = { full: routes, strict: strictRoutes(routes) };
registerRoutesForOpenApi(tables);

/** The operations a sandbox of this profile serves. */
export const routeTable = (profile: SandboxProfile): RouteDef[] => tables[profile];
