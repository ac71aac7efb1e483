import 'server-only';
import { readKindFormSnapshot } from '@/server/application-kinds/form-snapshot';
import { intakeApplication } from '@/server/application-kinds/intake';

/** Everything an intake application's form opens with (the form page reads it on the server). */
export const readFormSnapshot = (applicationId: string) => readKindFormSnapshot(intakeApplication, applicationId);
