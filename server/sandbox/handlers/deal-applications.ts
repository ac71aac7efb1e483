import type { RouteDef } from '../http/context';
import { answerRoutesFor } from './answers';
import { DEAL_APPLICATION } from './application-kinds';
import { applicationRoutesFor } from './applications';
import { fileRoutesFor } from './files';
import { itemRoutesFor } from './items';

/**
 * Deal applications (spec 2.15) through the same machinery as client intake applications, below
 * deal-applications/{id}/: read, contract/, answers/, repeatable-items/, file-uploads/, files/ and submit/.
 * Reads need deals:read, writes deals:write (see DEAL_APPLICATION).
 */
export const dealApplicationRoutes: RouteDef[] = [
  ...applicationRoutesFor(DEAL_APPLICATION),
  ...answerRoutesFor(DEAL_APPLICATION),
  ...itemRoutesFor(DEAL_APPLICATION),
  ...fileRoutesFor(DEAL_APPLICATION),
];
