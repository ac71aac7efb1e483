import 'server-only';
import type { Migration } from './types';

// The reconciler degrades rather than loops: a pass walks phases (businesses, deals, the businesses of deals,
// projects) and a stopped one resumes in the phase where it stopped (`phase`, with `cursor` as that phase's
// place); the steps a Portal does not offer or that failed are skipped and named in `skipped` (JSON: [{step,
// why}]) when the pass completes, so the workspace says what it could not check.
const sql = /* sql */ `
ALTER TABLE workspace_sync ADD COLUMN phase text;
ALTER TABLE workspace_sync ADD COLUMN skipped text;
ALTER TABLE workspace_sync ADD COLUMN pass_skipped text;
`;

export const reconcilePhases: Migration = { version: 7, name: 'reconcile-phases', sql };
