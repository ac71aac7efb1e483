import 'server-only';
import { ApplicationEnvelope, type Application, type ApplicationContract } from '@/lib/portal';
import { BoundedCache } from '@/lib/bounded-cache';
import { portalRequest, routes } from '@/server/portal';
import { readContract } from './contract-cache';

/** The URLs of one application, as the Portal returned them: everything below is reached through these. */
export interface ApplicationLinks {
  self: string;
  contract: string;
  answers: string;
  updateAnswers: string;
  repeatableItems: string;
  fileUploads: string;
  files: string;
  submit: string;
  autofillPreparation: string;
  autofillRuns: string;
}

const cache = new BoundedCache<string, ApplicationLinks>(5_000);
const remember = (id: string, links: ApplicationLinks) => cache.set(id, links);

export function linksFrom(app: Application, contract: ApplicationContract): ApplicationLinks {
  return {
    self: app.url,
    contract: app.contract_url,
    answers: contract.operations.read_answers_url,
    updateAnswers: contract.operations.update_answers_url,
    repeatableItems: contract.operations.repeatable_items_url,
    fileUploads: contract.operations.file_uploads_url,
    files: contract.operations.files_url,
    submit: app.submit_url,
    autofillPreparation: app.autofill_preparation_url,
    autofillRuns: app.autofill_runs_url,
  };
}

/**
 * An application's links. They do not change for the life of an application, so they are read once
 * (application, then its contract) and kept: a write costs one upstream call, not three.
 */
export async function applicationLinks(id: string, signal?: AbortSignal): Promise<ApplicationLinks> {
  const hit = cache.get(id);
  if (hit) return hit;
  const app = await portalRequest({ path: routes.application(id), schema: ApplicationEnvelope, signal });
  // Only the operations URLs are needed, and they never change: any kept copy of the contract will do.
  const { contract } = await readContract(app.data.application.contract_url, { signal, maxAgeMs: Infinity });
  const links = linksFrom(app.data.application, contract);
  remember(id, links);
  return links;
}

/** The links if they are already known, without any upstream call (so a caller can start everything at once). */
export function knownApplicationLinks(id: string): ApplicationLinks | undefined {
  return cache.get(id);
}

/** Stores links learnt from reads the caller made anyway. */
export function rememberLinks(id: string, app: Application, contract: ApplicationContract) {
  remember(id, linksFrom(app, contract));
}
