import 'server-only';
import { processWide } from '@/server/process-wide';
import { BoundedCache } from '@/lib/bounded-cache';
import type { ApplicationContract } from '@/lib/portal';
import { readContract } from './contract-cache';

/**
 * The URLs of one application, of any kind, as the Portal returned them: everything below the application
 * is reached through these, never through a path built here.
 */
export interface ApplicationLinks {
  self: string;
  contract: string;
  answers: string;
  updateAnswers: string;
  repeatableItems: string;
  /** Where upload credentials for a file question are asked for. */
  fileUploads: string;
  /** The files attached to its file questions. */
  files: string;
}

/** The links an application's contract gives, whatever its kind: its operations. */
export function contractLinks(app: { url: string; contract_url: string }, contract: ApplicationContract): ApplicationLinks {
  return {
    self: app.url,
    contract: app.contract_url,
    answers: contract.operations.read_answers_url,
    updateAnswers: contract.operations.update_answers_url,
    repeatableItems: contract.operations.repeatable_items_url,
    fileUploads: contract.operations.file_uploads_url,
    files: contract.operations.files_url,
  };
}

/** How a kind's links are learnt: its application read, where its contract is, and what the two give. */
export interface LinksSource<A, L> {
  read: (id: string) => Promise<A>;
  contractUrl: (app: A) => string;
  linksOf: (app: A, contract: ApplicationContract) => L;
}

export interface KindLinks<A, L> {
  /**
   * An application's links. They do not change for the life of an application, so they are read once
   * (application, then its contract) and kept: a write costs one upstream call, not three.
   */
  get(id: string): Promise<L>;
  /** The links if they are already known, without any upstream call (so a caller can start everything at once). */
  known(id: string): L | undefined;
  /** Keeps the links learnt from reads the caller made anyway, and returns them. */
  remember(id: string, app: A, contract: ApplicationContract): L;
}

/** One kept set of links per application of a kind. */
export function kindLinks<A, L>(source: LinksSource<A, L>): KindLinks<A, L> {
  // One per process for every kind (application ids carry their kind's prefix), shared by pages and routes.
  const cache = processWide('kind-links', () => new BoundedCache<string, unknown>(15_000)) as BoundedCache<string, L>;
  const remember = (id: string, app: A, contract: ApplicationContract) => {
    const links = source.linksOf(app, contract);
    cache.set(id, links);
    return links;
  };
  return {
    async get(id) {
      const hit = cache.get(id);
      if (hit) return hit;
      const app = await source.read(id);
      // Only the operations URLs are needed, and they never change: any kept copy of the contract will do.
      const { contract } = await readContract(source.contractUrl(app), { maxAgeMs: Infinity });
      return remember(id, app, contract);
    },
    known: (id) => cache.get(id),
    remember,
  };
}
