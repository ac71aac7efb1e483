import type { FormBase } from './endpoint';

export type { FormBase };

/**
 * The bases of the three application-like resources the contract-driven form works on (the `{form}` of
 * formApi's paths in lib/api/endpoints.ts), each as its route files' folder names it.
 */
export const FORM_BASES = {
  intake: '/api/applications/[applicationId]',
  deal: '/api/deal-applications/[dealApplicationId]',
  criteria: '/api/projects/[projectId]/criteria',
} as const;

const seg = encodeURIComponent;

export const intakeFormBase = (applicationId: string): FormBase => `/api/applications/${seg(applicationId)}`;
export const dealApplicationFormBase = (dealApplicationId: string): FormBase => `/api/deal-applications/${seg(dealApplicationId)}`;
export const projectCriteriaFormBase = (projectId: string): FormBase => `/api/projects/${seg(projectId)}/criteria`;

/** Whether the BFF keeps the history of a form's answers (applications, not a project's criteria). */
export const formKeepsHistory = (base: FormBase): boolean => !base.endsWith('/criteria');

/** The live events of a form's resource: a project's for its criteria, the application's otherwise. */
export function formLiveQuery(base: FormBase): { project_id: string } | { application_id: string } {
  const segments = base.split('/');
  if (base.endsWith('/criteria')) return { project_id: decodeURIComponent(segments[segments.length - 2]!) };
  return { application_id: decodeURIComponent(segments[segments.length - 1]!) };
}

/** The file question (and, for a repeatable question, the item) a file is attached to. */
export interface UploadTarget {
  blockKey: string;
  schemaKey: string;
  fieldKey: string;
  itemId: string | null;
}
