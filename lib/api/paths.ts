/**
 * Every /api path the browser calls, built in one place: each id, key and query value is encoded here,
 * once, so no component or query strings a URL together.
 */

const seg = encodeURIComponent;

type QueryValues = Record<string, string | number | null | undefined>;

/** `path?query` with the values that are set; the bare path when none is. */
function withQuery(path: string, values: QueryValues = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== null && value !== undefined) query.set(name, String(value));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** A page of a list: `page_size` and the cursor of the page before. */
type PageParams = { page_size?: number; cursor?: string | null };

/** Where an application's routes live: intake applications, deal applications and a project's criteria share the form. */
export type FormApiBase = `/api/applications/${string}` | `/api/deal-applications/${string}` | `/api/projects/${string}/criteria`;

/** The live events of a form's resource: a project's for its criteria, the application's otherwise. */
export function formLiveQuery(base: FormApiBase): { project_id: string } | { application_id: string } {
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

/** The routes of an application-like resource the contract-driven form works on. */
function formPaths<Base extends FormApiBase>(base: Base) {
  return {
    self: (): Base => base,
    /** `rest`: the token of the whole form the page's server read (form-handover), for the first read only. */
    form: (rest?: string) => withQuery(`${base}/form`, { rest }),
    contract: () => `${base}/contract`,
    answers: () => `${base}/answers`,
    submit: () => `${base}/submit`,
    items: (blockKey: string) => `${base}/items/${seg(blockKey)}`,
    item: (blockKey: string, itemId: string) => `${base}/items/${seg(blockKey)}/${seg(itemId)}`,
    files: (target: UploadTarget) =>
      withQuery(`${base}/files`, { block_key: target.blockKey, schema_key: target.schemaKey, field_key: target.fieldKey, item_id: target.itemId }),
    /** Every file of the application's file questions, a page at a time. */
    fileList: (page: PageParams = {}) => withQuery(`${base}/files`, page),
    file: (fileId: string) => `${base}/files/${seg(fileId)}`,
    fileDownload: (fileId: string) => `${base}/files/${seg(fileId)}/download`,
  };
}

export type FormPaths = ReturnType<typeof formPaths>;

/** An intake application's Autofill: preparation, evidence, runs and their suggestions. */
function autofillPaths(applicationBase: string) {
  const base = `${applicationBase}/autofill`;
  return {
    preparation: () => `${base}/preparation`,
    evidence: () => `${base}/preparation/files`,
    evidenceFile: (evidenceId: string) => `${base}/preparation/files/${seg(evidenceId)}`,
    start: () => `${base}/start`,
    runs: (query: { page_size?: number; cursor?: string | null } = {}) => withQuery(`${base}/runs`, query),
    run: (runId: string) => ({
      self: () => `${base}/runs/${seg(runId)}`,
      retry: () => `${base}/runs/${seg(runId)}/retry`,
      suggestions: (query: { page_size?: number; cursor?: string | null } = {}) => withQuery(`${base}/runs/${seg(runId)}/suggestions`, query),
    }),
    suggestion: (suggestionId: string) => ({
      accept: () => `${base}/suggestions/${seg(suggestionId)}/accept`,
      dismiss: () => `${base}/suggestions/${seg(suggestionId)}/dismiss`,
    }),
  };
}

export const apiPaths = {
  signIn: () => '/api/auth/sign-in',
  signOut: () => '/api/auth/sign-out',
  /** Server-sent events of the applications named in the query. */
  events: (query: QueryValues) => withQuery('/api/events', query),
  portal: () => '/api/portal',
  recipients: (page: PageParams = {}) => withQuery('/api/recipients', page),
  businesses: (page: PageParams = {}) => withQuery('/api/businesses', page),
  business: (businessId: string) => {
    const base = `/api/businesses/${seg(businessId)}`;
    return {
      self: () => base,
      stages: () => `${base}/stages`,
      people: () => `${base}/people`,
      stageTransitions: () => `${base}/stage-transitions`,
      upload: (uploadId: string, filename: string) => withQuery(`${base}/uploads/${seg(uploadId)}`, { filename }),
    };
  },
  /** Deals, a page at a time; `business_id` narrows them to one business's. */
  deals: (query: PageParams & { business_id?: string } = {}) => withQuery('/api/deals', query),
  deal: (dealId: string) => {
    const base = `/api/deals/${seg(dealId)}`;
    return { self: () => base, stageTransitions: () => `${base}/stage-transitions` };
  },
  invitation: (invitationId: string) => ({ revoke: () => `/api/invitations/${seg(invitationId)}/revoke` }),
  /** A signed-in person continues as the invited client of a link (its confirmation page). */
  acceptInvitation: () => '/api/invitations/accept',
  application: (applicationId: string) => {
    const paths = formPaths(`/api/applications/${seg(applicationId)}`);
    return { ...paths, invitations: () => `${paths.self()}/invitations`, place: () => `${paths.self()}/place`, autofill: autofillPaths(paths.self()) };
  },
  dealApplication: (dealApplicationId: string) => formPaths(`/api/deal-applications/${seg(dealApplicationId)}`),
  /** The form's routes from the base a page hands the form (an application's or a deal application's). */
  form: (base: FormApiBase) => formPaths(base),
  /** Funding projects (DESIGN.md §6): a business's list (business_id), one project, its criteria, runs and matches. */
  projects: (query: PageParams & { business_id?: string } = {}) => withQuery('/api/projects', query),
  project: (projectId: string) => {
    const base = `/api/projects/${seg(projectId)}` as const;
    return {
      self: () => base,
      criteria: () => formPaths(`${base}/criteria` as const),
      runs: (page: PageParams = {}) => withQuery(`${base}/runs`, page),
      run: (runId: string) => ({ self: () => `${base}/runs/${seg(runId)}`, retry: () => `${base}/runs/${seg(runId)}/retry` }),
      matches: (query: PageParams & { fit?: string | null; product_kind?: string | null } = {}) => withQuery(`${base}/matches`, query),
      match: (matchId: string) => ({
        shortlist: () => `${base}/matches/${seg(matchId)}/shortlist`,
        dismiss: () => `${base}/matches/${seg(matchId)}/dismiss`,
      }),
    };
  },
  /** The workspace's read model (DESIGN.md §7). */
  workspace: {
    businesses: (query: QueryValues = {}) => withQuery('/api/workspace/businesses', query),
    home: () => '/api/workspace/home',
    reviewInbox: () => '/api/workspace/review-inbox',
    reconcile: () => '/api/workspace/reconcile',
  },
};
