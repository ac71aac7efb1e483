import 'server-only';
import { dealApplication } from '@/server/application-kinds/deal';
import { readKindFormSnapshot } from '@/server/application-kinds/form-snapshot';

/** Everything a deal application's form opens with: the same reads as an intake application's (kind 'deal'). */
export const readDealFormSnapshot = (dealApplicationId: string) => readKindFormSnapshot(dealApplication, dealApplicationId);
