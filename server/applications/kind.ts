import 'server-only';
import type { z } from 'zod';
import type { ApplicationView } from '@/lib/bff/applications';
import type { AnswerWrite, ApplicationContract } from '@/lib/portal';
import type { Role } from '@/lib/bff/roles';
import { portalRequest, type PortalPath } from '@/server/portal';
import { kindLinks, type ApplicationLinks, type KindLinks } from './kind-links';

/** What an answers write replies, whatever the kind. */
export interface AnswersWriteResult {
  answers_revision: number;
  updated_answers: AnswerWrite[];
  affected_section_keys: string[];
}

/**
 * What the audit log calls each write on an application of this kind. Kept as the routes have always
 * recorded them: tests and the log's readers depend on the names. A kind without items, files or submit
 * leaves those out.
 */
export interface KindAudit {
  /** The application itself: its object type, and what an answers write and a submit are called. */
  application: { type: string; answersUpdate: string; submit?: string };
  items?: { create: string; update: string; delete: string };
  files?: { upload: string; delete: string };
}

/**
 * One application-like resource (an intake application, a deal application, …): everything the routes and
 * server functions of server/applications need to know about it. A new kind is one of these.
 */
export interface ApplicationKindSpec<Id extends string, E, A, L extends ApplicationLinks, Au extends KindAudit = KindAudit> {
  /** The path segment naming an application of this kind (`[applicationId]`), and its path parameters. */
  idParam: Id;
  params: z.ZodObject<Record<Id, z.ZodString>, z.core.$strict>;
  /**
   * Who may read (GET) and who may write. A client session reaches only its invited application, so a kind
   * reachable by clients lists 'client' here and every route checks the application is the session's.
   */
  roles: { read: readonly Role[]; write: readonly Role[] };
  /**
   * The application upstream: its path (or, for a kind reached only through another resource's link, its
   * URL), its reply (reads and submit alike), and the application inside.
   */
  upstream: ({ path: (id: string) => PortalPath } | { url: (id: string) => Promise<string> }) & {
    schema: z.ZodType<E>;
    unwrap: (reply: E) => A;
  };
  /** The reply of an answers write. */
  answersResult: z.ZodType<AnswersWriteResult>;
  /** The application as the browser sees it (one form serves every kind). */
  view: (app: A, etag: string) => ApplicationView;
  contractUrl: (app: A) => string;
  /** Its links, learnt from the application and its contract. */
  linksOf: (app: A, contract: ApplicationContract) => L;
  audit: Au;
  /**
   * Reviewed before submit (DESIGN.md §9): the invited client's writes stop while staff review it, and a
   * submission ends the review.
   */
  reviewed?: boolean;
}

export interface ApplicationRead<A> {
  app: A;
  etag: string | null;
  requestId: string | null;
}

export interface ApplicationKind<Id extends string, E, A, L extends ApplicationLinks, Au extends KindAudit = KindAudit>
  extends ApplicationKindSpec<Id, E, A, L, Au> {
  /** One read of the application. */
  read(id: string): Promise<ApplicationRead<A>>;
  /** Its links, read once and kept. */
  links: KindLinks<A, L>;
}

/** Any kind, for code that does not care which (the routes do not look into the upstream shapes). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyApplicationKind<Id extends string = string, L extends ApplicationLinks = ApplicationLinks, Au extends KindAudit = KindAudit> = ApplicationKind<Id, any, any, L, Au>;

/** A kind whose contracts have repeatable groups. */
export type KindWithItems<Id extends string> = AnyApplicationKind<Id, ApplicationLinks, KindAudit & Pick<Required<KindAudit>, 'items'>>;
/** A kind whose contracts have file questions. */
export type KindWithFiles<Id extends string> = AnyApplicationKind<Id, ApplicationLinks, KindAudit & Pick<Required<KindAudit>, 'files'>>;
/** A kind that is submitted: its links name where. */
type SubmitAudit = { application: { submit: string } };
export type SubmittedKind<Id extends string> = AnyApplicationKind<Id, ApplicationLinks & { submit: string }, KindAudit & SubmitAudit>;
/** A kind with everything: answers, items, files and submit. */
export type CompleteKind<Id extends string> = AnyApplicationKind<Id, ApplicationLinks & { submit: string }, Required<KindAudit> & SubmitAudit>;

export function defineApplicationKind<Id extends string, E, A, L extends ApplicationLinks, Au extends KindAudit>(
  spec: ApplicationKindSpec<Id, E, A, L, Au>,
): ApplicationKind<Id, E, A, L, Au> {
  const read = async (id: string): Promise<ApplicationRead<A>> => {
    const up = spec.upstream;
    const at = 'path' in up ? { path: up.path(id) } : { url: await up.url(id) };
    const res = await portalRequest({ ...at, schema: up.schema });
    return { app: spec.upstream.unwrap(res.data), etag: res.etag, requestId: res.requestId };
  };
  const links = kindLinks<A, L>({ read: async (id) => (await read(id)).app, contractUrl: spec.contractUrl, linksOf: spec.linksOf });
  return { ...spec, read, links };
}
