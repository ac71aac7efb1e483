import type { BusinessSort } from '@/lib/bff/workspace';

/** The businesses table's columns, as headers and as the "Sort by" choices. */
export const SORT_LABEL: Record<BusinessSort, string> = {
  name: 'Business',
  contact: 'Contact',
  stage: 'Stage',
  status: 'Application',
  progress: 'Progress',
  submitted: 'Submitted',
  activity: 'Last activity',
};
