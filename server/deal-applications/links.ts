import 'server-only';
import { DealApplication, type ApplicationContract } from '@/lib/portal';
import { BoundedCache } from '@/lib/bounded-cache';
import { readContract } from '@/server/applications/contract-cache';
import { portalRequest, routes } from '@/server/portal';

/** The URLs of one deal application, as the Portal returned them: everything below is reached through these. */
export interface DealApplicationLinks {
  self: string;
  contract: string;
  answers: string;
  updateAnswers: string;
  repeatableItems: string;
  /** Where upload credentials for a file question are asked for. */
  fileUploads: string;
  /** The files attached to its file questions. */
  files: string;
  submit: string;
}

const cache = new BoundedCache<string, DealApplicationLinks>(5_000);
const remember = (id: string, links: DealApplicationLinks) => cache.set(id, links);

export function dealLinksFrom(app: DealApplication, contract: ApplicationContract): DealApplicationLinks {
  return {
    self: app.url,
    contract: app.contract_url,
    answers: contract.operations.read_answers_url,
    updateAnswers: contract.operations.update_answers_url,
    repeatableItems: contract.operations.repeatable_items_url,
    fileUploads: contract.operations.file_uploads_url,
    files: contract.operations.files_url,
    submit: app.submit_url,
  };
}

/**
 * A deal application's links. They do not change for the life of the application, so they are read once
 * (application, then its contract) and kept: a write costs one upstream call, not three.
 */
export async function dealApplicationLinks(id: string, signal?: AbortSignal): Promise<DealApplicationLinks> {
  const hit = cache.get(id);
  if (hit) return hit;
  const app = await portalRequest({ path: routes.dealApplication(id), schema: DealApplication, signal });
  // Only the operations URLs are needed, and they never change: any kept copy of the contract will do.
  const { contract } = await readContract(app.data.contract_url, { signal, maxAgeMs: Infinity });
  const links = dealLinksFrom(app.data, contract);
  remember(id, links);
  return links;
}

/** The links if they are already known, without any upstream call. */
export function knownDealApplicationLinks(id: string): DealApplicationLinks | undefined {
  return cache.get(id);
}

/** Stores links learnt from reads the caller made anyway. */
export function rememberDealApplicationLinks(id: string, app: DealApplication, contract: ApplicationContract) {
  remember(id, dealLinksFrom(app, contract));
}
