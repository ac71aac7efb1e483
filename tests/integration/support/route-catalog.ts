import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { EvidenceUploadReply, PreparationReply, RunReply, SuggestionsPageView } from '@/lib/bff/autofill';
import { FileUploadResult } from '@/lib/bff/files';
import { InvitationCreated } from '@/lib/bff/invitations';
import { ItemWriteResult } from '@/lib/bff/items';
import type { RunningSandbox } from '@/server/sandbox/server';
import { freshApplication } from './applications';
import { BffClient, bffStack, signedIn, type Reply } from './bff';
import { createBusiness, createDeal, newIdempotencyKey } from './bff-businesses';
import { matchedProject } from './projects';
import { KEYS, SandboxClient } from './sandbox';
import { FundingMatchPage } from '@/lib/portal';
import { poller } from '../../support/poller';

/*
 * Every browser-facing route of the app, read from the files themselves: a route added under app/api or
 * app/invite is in the catalog without anyone listing it, so the security suites cover it from day one.
 */

export const HTTP_METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface CatalogRoute {
  /** The route file, relative to the repository root. */
  file: string;
  /** The URL pattern with its dynamic segments, e.g. /api/applications/[applicationId]/answers. */
  pattern: string;
  /** The names of the dynamic segments, in order. */
  params: string[];
  /** The HTTP methods the file exports. */
  methods: HttpMethod[];
}

/** One (route, method) pair, named the way the tables of the tests name it: `PATCH /api/…/answers`. */
export interface CatalogCall {
  route: CatalogRoute;
  method: HttpMethod;
  key: string;
}

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ROUTE_ROOTS = ['app/api', 'app/invite'];

function filesNamed(dir: string, names: readonly string[]): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return filesNamed(path, names);
    return names.includes(e.name) ? [path] : [];
  });
}

/** The URL path of an app-router file: route groups `(x)` and private folders `_x` are not in the URL. */
function urlPathOf(file: string): string {
  const segments = relative(join(REPO_ROOT, 'app'), file).split(sep).slice(0, -1);
  return `/${segments.filter((s) => !/^\(.*\)$/.test(s)).join('/')}`;
}

const METHOD_EXPORT = new RegExp(String.raw`^export\s+(?:const|let|var|async\s+function|function)\s+(${HTTP_METHODS.join('|')})\b`, 'gm');
const EXPORT_LIST = /^export\s*\{([^}]*)\}/gm;
/** `export const { GET, PATCH } = kindRoutes.answers;`: the destructured names are the exports. */
const DESTRUCTURED_EXPORT = /^export\s+(?:const|let|var)\s*\{([^}]*)\}\s*=/gm;

/**
 * The HTTP methods a route file exports, whether as `export const GET = …`, functions, an export list
 * (`export { GET as … }`) or destructured (`export const { GET, POST } = …`, renamed with `:`).
 */
export function exportedMethods(source: string): HttpMethod[] {
  const found = new Set<HttpMethod>();
  const add = (name: string | undefined) => {
    if (name && (HTTP_METHODS as readonly string[]).includes(name)) found.add(name as HttpMethod);
  };
  for (const m of source.matchAll(METHOD_EXPORT)) add(m[1]);
  for (const m of source.matchAll(EXPORT_LIST)) for (const part of m[1]!.split(',')) add(part.trim().split(/\s+as\s+/).pop()?.trim());
  for (const m of source.matchAll(DESTRUCTURED_EXPORT)) for (const part of m[1]!.split(',')) add(part.split('=')[0]!.split(':').pop()?.trim());
  return HTTP_METHODS.filter((m) => found.has(m));
}

/**
 * The catch-all that answers any /api path no route has (app/api/[[...unknown]]): no object, role or input of
 * its own, so the matrices have nothing to try on it; pages-status.test.ts calls it with every method.
 */
export const UNKNOWN_API_ROUTE = '/api/[[...unknown]]';

/** Every route.ts under app/api and app/invite with the methods it exports, sorted by pattern. */
export function routeCatalog(): CatalogRoute[] {
  return ROUTE_ROOTS.flatMap((root) => filesNamed(join(REPO_ROOT, root), ['route.ts', 'route.tsx', 'route.js']))
    .filter((file) => urlPathOf(file) !== UNKNOWN_API_ROUTE)
    .map((file) => {
      const pattern = urlPathOf(file);
      return {
        file: relative(REPO_ROOT, file),
        pattern,
        params: [...pattern.matchAll(/\[(?:\.\.\.)?([^\]]+)\]/g)].map((m) => m[1]!),
        methods: exportedMethods(readFileSync(file, 'utf8')),
      };
    })
    .sort((a, b) => a.pattern.localeCompare(b.pattern));
}

export function catalogCalls(routes: CatalogRoute[] = routeCatalog()): CatalogCall[] {
  return routes.flatMap((route) => route.methods.map((method) => ({ route, method, key: `${method} ${route.pattern}` })));
}

/** Every page's URL pattern, dynamic segments included (`/applications/[applicationId]/review`), sorted. */
export function pagePatterns(): string[] {
  return filesNamed(join(REPO_ROOT, 'app'), ['page.tsx', 'page.ts', 'page.jsx', 'page.js'])
    .map(urlPathOf)
    .map((p) => (p === '/' ? '/' : p.replace(/\/$/, '')))
    .sort();
}

/** Pages rendered by the server, without dynamic segments (those need real values to mean anything). */
export function staticPagePaths(): string[] {
  return pagePatterns().filter((p) => !p.includes('['));
}

/** The pattern with its segments filled in; a segment without a value fails loudly, so a new one gets one. */
export function fillPath(route: CatalogRoute, values: Readonly<Record<string, string>>): string {
  return route.pattern.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, (_m, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`no value for [${name}] of ${route.pattern}: add one to the route fixtures`);
    return encodeURIComponent(v);
  });
}

// ---------------------------------------------------------------------------------------------------------
// Real objects to put into the paths

/** One intake application with one object of every kind a route below it names. */
export interface ApplicationFixture {
  applicationId: string;
  blockKey: string;
  itemId: string;
  fileId: string;
  evidenceId: string;
  runId: string;
  suggestionId: string;
}

export interface RouteFixtures {
  /** The application the client session is invited to. */
  a: ApplicationFixture;
  /** The victim: another business's application. */
  b: ApplicationFixture;
  businessId: string;
  uploadId: string;
  dealId: string;
  dealApplicationId: string;
  dealBlockKey: string;
  dealItemId: string;
  dealFileId: string;
  invitationId: string;
  /** A funding project with a completed match run and its best match. */
  projectId: string;
  matchRunId: string;
  matchId: string;
}

const portal = () => new SandboxClient({ baseUrl: bffStack().sandboxBaseUrl } as RunningSandbox, KEYS.full);

async function must(r: Reply, status: number, what: string) {
  if (r.status !== status) throw new Error(`${what} → ${r.status}: ${r.text.slice(0, 500)}`);
  return r;
}

/** A body POSTed as raw bytes, the way the app's upload controls send files (X-Filename, X-CSRF). */
async function postBytes(client: BffClient, path: string, bytes: Uint8Array, contentType: string, filename: string): Promise<Reply> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Content-Type': contentType,
    'X-Filename': encodeURIComponent(filename),
    'X-CSRF': '1',
    Origin: client.base,
  };
  if (client.cookies.size) headers.Cookie = client.cookieHeader();
  const res = await fetch(`${client.base}${path}`, { method: 'POST', headers, body: bytes as BodyInit });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body, text };
}

const until = poller({ timeoutMs: 30_000, everyMs: 50 });

/**
 * A new application (its own business, made with the demo key) holding a finished Autofill run with a
 * suggestion, a repeatable item, an attached file and an evidence file, all made by `staff` through the BFF.
 */
export async function applicationFixture(staff: BffClient, name = 'Security Test Ltd'): Promise<ApplicationFixture> {
  const applicationId = await freshApplication(portal(), name);
  const base = `/api/applications/${applicationId}`;

  const prep = PreparationReply.parse((await must(await staff.get(`${base}/autofill/preparation`), 200, 'read preparation')).body);
  const patched = await staff.patch(`${base}/autofill/preparation`, {
    ifMatch: prep.etag!,
    body: { text_input: 'Contact name: Luca Fontana\nPreferred contact: phone' },
  });
  const ready = PreparationReply.parse((await must(patched, 200, 'write preparation')).body);
  const started = await staff.post(`${base}/autofill/start`, {
    body: { expected_preparation_revision: ready.preparation.revision },
    idempotencyKey: newIdempotencyKey('start'),
  });
  const runId = RunReply.parse((await must(started, 201, 'start a run')).body).run.id;
  await until(
    async () => RunReply.parse((await must(await staff.get(`${base}/autofill/runs/${runId}`), 200, 'read run')).body).run.status,
    (s) => s === 'completed' || s === 'failed',
    `run ${runId}`,
  );
  const suggestions = SuggestionsPageView.parse((await must(await staff.get(`${base}/autofill/runs/${runId}/suggestions`), 200, 'list suggestions')).body);
  const suggestionId = suggestions.items[0]?.id;
  if (!suggestionId) throw new Error(`run ${runId} proposed nothing`);

  const evidence = await postBytes(staff, `${base}/autofill/preparation/files`, new TextEncoder().encode('Trading name: Harbour Street Café\n'), 'text/plain', 'notes.txt');
  const evidenceId = EvidenceUploadReply.parse((await must(evidence, 201, 'upload evidence')).body).uploaded_file?.id;
  if (!evidenceId) throw new Error('the evidence upload named no file');

  const item = await staff.post(`${base}/items/owners`, { body: {} });
  const itemId = ItemWriteResult.parse((await must(item, 201, 'create an item')).body).item.item_id;

  const pdf = new Uint8Array(randomBytes(2048));
  pdf.set(new TextEncoder().encode('%PDF-1.4\n'));
  const target = new URLSearchParams({ block_key: 'bank_statements', schema_key: 'bank_statements', field_key: 'files' });
  const file = await postBytes(staff, `${base}/files?${target}`, pdf, 'application/pdf', 'statement.pdf');
  const fileId = FileUploadResult.parse((await must(file, 201, 'upload a file')).body).file.id;

  return { applicationId, blockKey: 'owners', itemId, fileId, evidenceId, runId, suggestionId };
}

/** Real ids for every kind of path segment the routes have: two applications, a business, a deal, an invitation. */
export async function routeFixtures(staff: BffClient): Promise<RouteFixtures> {
  const [a, b, business] = await Promise.all([
    applicationFixture(staff, 'Security Client Ltd'),
    applicationFixture(staff, 'Security Victim Ltd'),
    createBusiness(staff),
  ]);
  const uploadId = business.created.uploads[0]?.id;
  if (!uploadId) throw new Error('the new business has no upload slot');
  const { deal } = await createDeal(staff, { business_id: business.created.business.id });
  const dealApplicationId = deal.application?.id;
  if (!dealApplicationId) throw new Error(`deal ${deal.id} has no application`);
  const dealItem = await must(await staff.post(`/api/deal-applications/${dealApplicationId}/items/directors`, { body: {} }), 201, 'create a deal item');
  const dealPdf = new TextEncoder().encode('%PDF-1.4\n% management accounts\n');
  const dealTarget = new URLSearchParams({ block_key: 'management_accounts', schema_key: 'management_accounts', field_key: 'files' });
  const dealFile = await postBytes(staff, `/api/deal-applications/${dealApplicationId}/files?${dealTarget}`, dealPdf, 'application/pdf', 'accounts.pdf');
  const dealFileId = FileUploadResult.parse((await must(dealFile, 201, 'upload a deal application file')).body).file.id;
  const invited = await must(await staff.post(`/api/applications/${b.applicationId}/invitations`, { body: {} }), 201, 'invite');
  const { project, run } = await matchedProject(portal(), business.created.business.id);
  const matchId = (await portal().read(FundingMatchPage, project.matches_url)).data.items[0]?.id;
  if (!matchId) throw new Error(`project ${project.id} has no match`);
  return {
    a,
    b,
    businessId: business.created.business.id,
    uploadId,
    dealId: deal.id,
    dealApplicationId,
    dealBlockKey: 'directors',
    dealItemId: ItemWriteResult.parse(dealItem.body).item.item_id,
    dealFileId,
    invitationId: InvitationCreated.parse(invited.body).invitation.id,
    projectId: project.id,
    matchRunId: run.id,
    matchId,
  };
}

/** Whether a route is about one intake application (its first segment names it). */
/** Staff signed in, and with them the objects every route of the catalog needs (routeFixtures). */
export async function staffWithFixtures(): Promise<{ staff: BffClient; f: RouteFixtures }> {
  const staff = (await signedIn('staff')).client;
  return { staff, f: await routeFixtures(staff) };
}

export const isApplicationRoute = (route: CatalogRoute) => route.pattern.startsWith('/api/applications/[applicationId]');

/**
 * The values of a route's segments: the application's own objects below /api/applications, the deal
 * application's below /api/deal-applications, the shared ones elsewhere. `token` is never a live one.
 */
export function segmentValues(route: CatalogRoute, f: RouteFixtures, app: ApplicationFixture): Record<string, string> {
  const deal = route.pattern.startsWith('/api/deal-applications/');
  const project = route.pattern.startsWith('/api/projects/');
  return {
    applicationId: app.applicationId,
    blockKey: deal ? f.dealBlockKey : app.blockKey,
    itemId: deal ? f.dealItemId : app.itemId,
    fileId: deal ? f.dealFileId : app.fileId,
    evidenceId: app.evidenceId,
    runId: project ? f.matchRunId : app.runId,
    suggestionId: app.suggestionId,
    businessId: f.businessId,
    uploadId: f.uploadId,
    dealId: f.dealId,
    dealApplicationId: f.dealApplicationId,
    invitationId: f.invitationId,
    projectId: f.projectId,
    matchId: f.matchId,
    token: `not-a-real-token-${randomBytes(6).toString('hex')}`,
  };
}

/**
 * The query a call needs to be well-formed, so that what refuses it is the check under test and not the
 * query's own validation (route() reads the query before it checks whose application it is).
 */
const WELL_FORMED_QUERY: Record<string, string> = {
  'POST /api/applications/[applicationId]/files': 'block_key=bank_statements&schema_key=bank_statements&field_key=files',
  'POST /api/deal-applications/[dealApplicationId]/files': 'block_key=management_accounts&schema_key=management_accounts&field_key=files',
  'POST /api/businesses/[businessId]/uploads/[uploadId]': 'filename=document.pdf',
};

/** The call's path with its segments filled in and the query it needs. */
export function callPath(call: CatalogCall, values: Readonly<Record<string, string>>): string {
  const query = WELL_FORMED_QUERY[call.key];
  return `${fillPath(call.route, values)}${query ? `?${query}` : ''}`;
}

/**
 * Sends one catalog call the way the app's fetch wrapper would (X-CSRF and Origin on writes), with a body
 * that cannot do much: `{}` for JSON writes and no If-Match or Idempotency-Key unless given, so an
 * authorised write mostly stops at validation or a precondition, after the authorisation it is about.
 */
export function sendCall(client: BffClient, call: CatalogCall, path: string, headers: Record<string, string> = {}) {
  const hasBody = call.method === 'POST' || call.method === 'PATCH' || call.method === 'PUT';
  return client.call(call.method, path, { body: hasBody ? {} : undefined, headers });
}

/** The refusal the route wrapper itself gives, as opposed to one the Portal gave (which names its request). */
export function errorOf(r: Reply): { code: string; request_id: string | null } | null {
  const e = (r.body as { error?: { code?: unknown; request_id?: unknown } } | undefined)?.error;
  return e && typeof e.code === 'string' ? { code: e.code, request_id: typeof e.request_id === 'string' ? e.request_id : null } : null;
}

/** True when the reply shows the call got past authentication, role and per-object checks. */
export function wasAuthorised(r: Reply): boolean {
  if (r.status === 401 || r.status === 403) return false;
  // The BFF's own 404 for another application names no upstream request; a Portal 404 does.
  if (r.status === 404 && !errorOf(r)?.request_id) return false;
  return true;
}

export function expectRefused(r: Reply, status: 401 | 403 | 404, code: string, where: string) {
  expect(r.status, `${where}: ${r.text.slice(0, 300)}`).toBe(status);
  expect(errorOf(r), where).toEqual({ code, request_id: null });
}
