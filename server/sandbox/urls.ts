/** The sandbox's own URLs: every link it returns is built here, under one origin and base path. */
export function sandboxUrls(origin: string) {
  const v1 = `${origin}/v1/`;
  const app = (id: string) => `${v1}client-intake-applications/${id}/`;
  return {
    origin,
    base: v1,
    business: (id: string) => `${v1}businesses/${id}/`,
    businessStatus: (id: string) => `${v1}businesses/${id}/status/`,
    businessPipelineStages: (id: string) => `${v1}business-pipelines/${id}/stages/`,
    application: app,
    contract: (id: string) => `${app(id)}contract/`,
    answers: (id: string) => `${app(id)}answers/`,
    repeatableItems: (id: string) => `${app(id)}repeatable-items/`,
    fileUploads: (id: string) => `${app(id)}file-uploads/`,
    files: (id: string) => `${app(id)}files/`,
    file: (id: string, fileId: string) => `${app(id)}files/${fileId}/`,
    submit: (id: string) => `${app(id)}submit/`,
    autofillPreparation: (id: string) => `${app(id)}autofill-preparation/`,
    autofillStart: (id: string) => `${app(id)}autofill-preparation/start/`,
    autofillRuns: (id: string) => `${app(id)}autofill-runs/`,
    autofillEvidenceFiles: (id: string) => `${app(id)}autofill-preparation/files/`,
    autofillRun: (id: string, runId: string) => `${app(id)}autofill-runs/${runId}/`,
    autofillRunRetry: (id: string, runId: string) => `${app(id)}autofill-runs/${runId}/retry/`,
    autofillRunSuggestions: (id: string, runId: string) => `${app(id)}autofill-runs/${runId}/suggestions/`,
    deal: (id: string) => `${v1}deals/${id}/`,
    dealPipelineStages: (id: string) => `${v1}deal-pipelines/${id}/stages/`,
    /** A deal application; its contract/, answers/, repeatable-items/, file-uploads/, files/ and submit/ are below it. */
    dealApplication: (id: string) => `${v1}deal-applications/${id}/`,
    project: (id: string) => `${v1}projects/${id}/`,
    projectMatchRuns: (id: string) => `${v1}projects/${id}/match-runs/`,
    projectMatches: (id: string) => `${v1}projects/${id}/matches/`,
    /** A project's criteria; contract/, answers/, repeatable-items/, file-uploads/ and files/ are below it. */
    criteria: (id: string) => `${v1}project-criteria/${id}/`,
    matchRun: (id: string) => `${v1}match-runs/${id}/`,
    matchRunMatches: (id: string) => `${v1}match-runs/${id}/matches/`,
    matchRunRetry: (id: string) => `${v1}match-runs/${id}/retry/`,
    match: (id: string) => `${v1}matches/${id}/`,
    transfer: (uploadId: string, token: string) => `${origin}/transfers/${uploadId}?token=${token}`,
    download: (fileId: string, token: string) => `${origin}/downloads/${fileId}?token=${token}`,
  };
}
export type SandboxUrls = ReturnType<typeof sandboxUrls>;
