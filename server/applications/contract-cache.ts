import 'server-only';
import { processWide } from '@/server/process-wide';
import { BoundedCache } from '@/lib/bounded-cache';
import { ApplicationContract } from '@/lib/portal';
import { portalRequest, portalRevalidate } from '@/server/portal';

/*
 * Contracts are the largest thing the BFF reads (the seed's 1,000-field contract is about 500 KB of JSON)
 * and the one that changes least, so each is kept with its ETag, keyed by its contract_url, and revalidated
 * with a conditional GET (If-None-Match): a 304 reuses the copy, and only a changed contract is sent again.
 *
 * Decision — a short freshness window (CONTRACT_FRESH_MS, 30 s) after a read that went upstream (200 or 304):
 * within it the copy is reused without asking at all. Why that is safe enough:
 *  - the questions, sections and groups are what contract_version names (spec 9.2 versions the contract by
 *    it; we take one contract_version to mean one fixed set of questions), and the operations URLs are
 *    fixed for the life of the application;
 *  - what does move is the contract's answers_revision (not its ETag: DESIGN §5 ties that to contract_version
 *    alone, so a revalidation after answer writes is still a 304). Callers that use a kept copy therefore
 *    must not rely on its answers_revision: the form snapshot takes the revision from its own answers read,
 *    and a kind's links need only URLs;
 *  - the one thing the window can hide is the Portal moving an application to another contract_version;
 *    the spec does not say that happens, and if it does the form sees it at most 30 s late (the next
 *    write is still checked upstream).
 * Callers that hand the contract itself to the browser with its ETag (GET …/contract) pass maxAgeMs 0:
 * always revalidated, so their answers_revision and ETag are exact.
 */
export const CONTRACT_FRESH_MS = 30_000;

/** Enough for every application in use at once; a large contract's parsed copy is a few MB, a funding one far less. */
const MAX_CONTRACTS = 200;

export interface ContractRead {
  contract: ApplicationContract;
  /** The ETag of the copy returned (null when the Portal sent none; such a copy is not kept). */
  etag: string | null;
  /** The Request-Id of the upstream call; null when no call was made. */
  requestId: string | null;
  /** What it cost upstream: a full read, a 304, or nothing. */
  upstream: 'fetched' | 'not_modified' | 'none';
}

/** One upstream read of a contract: unconditional without `etag`, conditional (If-None-Match) with it. */
export type ContractFetch = (
  url: string,
  etag: string | undefined,
) => Promise<
  | { notModified: true; etag: string | null; requestId: string | null }
  | { notModified: false; contract: ApplicationContract; etag: string | null; requestId: string | null }
>;

interface Entry {
  etag: string;
  contract: ApplicationContract;
  /** When an upstream read last confirmed this copy (Date.now() ms). */
  checkedAt: number;
}

export interface ContractCacheOptions {
  fetch: ContractFetch;
  now?: () => number;
  max?: number;
}

export interface ReadContractOptions {
  /**
   * How old a confirmed copy may be and still be returned without asking: 0 always revalidates, Infinity
   * takes any kept copy (for what never changes, e.g. the operations URLs). CONTRACT_FRESH_MS by default.
   */
  maxAgeMs?: number;
}

/** The cache's logic, over an injected fetch and clock (the unit tests drive it without a Portal). */
export function createContractCache({ fetch, now = Date.now, max = MAX_CONTRACTS }: ContractCacheOptions) {
  const entries = new BoundedCache<string, Entry>(max);

  return {
    /** The kept copy, however old, without any upstream call (to start work that depends on it early). */
    peek(url: string): ApplicationContract | undefined {
      return entries.get(url)?.contract;
    },

    forget(url: string) {
      entries.delete(url);
    },

    get size() {
      return entries.size;
    },

    async read(url: string, { maxAgeMs = CONTRACT_FRESH_MS }: ReadContractOptions = {}): Promise<ContractRead> {
      const held = entries.get(url);
      if (held && now() - held.checkedAt < maxAgeMs) {
        return { contract: held.contract, etag: held.etag, requestId: null, upstream: 'none' };
      }
      const res = await fetch(url, held?.etag);
      if (res.notModified) {
        // A 304 only ever answers our If-None-Match, so `held` is the copy it confirms.
        if (!held) throw new Error('contract cache: a 304 without a kept copy');
        // A concurrent read may have kept a newer copy meanwhile: never replace that with this older one.
        const current = entries.get(url);
        if (current === undefined || current === held) entries.set(url, { ...held, checkedAt: now() });
        return { contract: held.contract, etag: held.etag, requestId: res.requestId, upstream: 'not_modified' };
      }
      // Without an ETag a copy could never be revalidated: it is used once and not kept.
      if (res.etag) entries.set(url, { etag: res.etag, contract: res.contract, checkedAt: now() });
      else entries.delete(url);
      return { contract: res.contract, etag: res.etag, requestId: res.requestId, upstream: 'fetched' };
    },
  };
}


const portalContractFetch: ContractFetch = async (url, etag) => {
  if (etag === undefined) {
    const res = await portalRequest({ url, schema: ApplicationContract });
    return { notModified: false, contract: res.data, etag: res.etag, requestId: res.requestId };
  }
  const res = await portalRevalidate({ url, schema: ApplicationContract, ifNoneMatch: etag });
  if (res.notModified) return { notModified: true, etag: res.etag, requestId: res.requestId };
  return { notModified: false, contract: res.data, etag: res.etag, requestId: res.requestId };
};

/** The process's contracts (intake and deal applications alike: both are keyed by their contract_url). */
/** One per process (not per bundle): a contract the form page read is kept for the form's routes too. */
export const contractCache = processWide('contract-cache', () => createContractCache({ fetch: portalContractFetch }));

/** An application's contract from its contract_url, reused per ReadContractOptions.maxAgeMs. */
export const readContract = (url: string, options?: ReadContractOptions) => contractCache.read(url, options);
