import { z } from 'zod';
import { LIMITS } from '@/lib/portal';
import type { Reply, RouteDef } from '../http/context';

/*
 * The strict profile (SANDBOX_PROFILE=strict): a Portal that serves only what the upstream spec guarantees, so
 * the BFF is tested against the little it may rely on. Where the spec lists a resource's fields, replies carry
 * only those; where it gives no shape (API root, stage items, error bodies), the replies are lean or carry
 * something extra, as a real Portal's may.
 */

/**
 * Operations of DESIGN.md's completions that the spec does not name: the lists it invents (pipelines,
 * recipients) and every funding operation (DESIGN.md §6). The stages of a pipeline stay: a business's or a
 * deal's `stages_url` points at them.
 */
const ABSENT: readonly RegExp[] = [
  /^business-pipelines\/$/,
  /^deal-pipelines\/$/,
  /^recipients\//,
  /^projects\//,
  /^project-criteria\//,
  /^match-runs\//,
  /^matches\//,
];

/** Spec 2.14: the fields of a deal (is_sample optional). Anything a completion adds (a funding match) is left out. */
const DEAL_FIELDS = [
  'id',
  'object',
  'revision',
  'application',
  'project',
  'recipient',
  'name',
  'status',
  'workflow',
  'created_at',
  'updated_at',
  'url',
  'is_sample',
] as const;

/** The only query parameters the spec names: page_size and cursor (section_key on answers), at most 100 a page. */
const strictPaging = {
  page_size: z.coerce.number().int().min(LIMITS.paging.min).max(LIMITS.paging.max).optional(),
  cursor: z.string().min(1).optional(),
};
const SectionKey = z.string().min(LIMITS.sectionKey.min).max(LIMITS.sectionKey.max);

const isAnswers = (r: RouteDef) => /(^|\/)answers\/$/.test(r.path);
/** The answer set: answers and repeatable items, versioned by answers_revision. */
const isAnswerSet = (r: RouteDef) => isAnswers(r) || /(^|\/)repeatable-items\/:block\/(:item\/)?$/.test(r.path);
const isStages = (r: RouteDef) => /^(business|deal)-pipelines\/:id\/stages\/$/.test(r.path);
const isDeal = (r: RouteDef) => /^deals\//.test(r.path);

/** The API root as the spec describes it: the owning Portal, the key's access targets and its permissions. */
const StrictApiRoot = z.strictObject({
  object: z.literal('api_root'),
  portal: z.strictObject({ id: z.string(), name: z.string() }),
  key: z.strictObject({ permissions: z.array(z.string()), channel_slugs: z.array(z.string()) }),
});

const StrictStagePage = z.strictObject({
  object: z.literal('list'),
  items: z.array(z.strictObject({ id: z.string(), name: z.string() })),
  next_cursor: z.string().nullable(),
  previous_cursor: z.string().nullable(),
});

function pick(o: unknown, keys: readonly string[]): unknown {
  if (!o || typeof o !== 'object') return o;
  const src = o as Record<string, unknown>;
  return Object.fromEntries(keys.filter((k) => k in src).map((k) => [k, src[k]]));
}

/** A deal reply (one deal or a page of them) with only the spec's fields. */
function specDeal(body: unknown): unknown {
  const b = body as { object?: unknown; items?: unknown[] } | null;
  if (b && b.object === 'list' && Array.isArray(b.items)) return { ...b, items: b.items.map((d) => pick(d, DEAL_FIELDS)) };
  if (b && b.object === 'deal') return pick(b, DEAL_FIELDS);
  return body;
}

function transformReply(route: RouteDef, reply: Reply): Reply {
  if (reply.status >= 300) return reply;
  if (route.path === '') {
    const root = reply.body as { object: string; portal: unknown; key: { permissions: string[]; channel_slugs: string[] } };
    return { ...reply, body: { object: root.object, portal: root.portal, key: { permissions: root.key.permissions, channel_slugs: root.key.channel_slugs } } };
  }
  if (isStages(route)) {
    const page = reply.body as { items: Array<{ id: string; name: string }> };
    return { ...reply, body: { ...page, items: page.items.map((s) => ({ id: s.id, name: s.name })) } };
  }
  if (isAnswerSet(route)) {
    // The spec's version of the answers is answers_revision: the answer set carries no ETag here.
    const { ETag: _etag, ...headers } = reply.headers ?? {};
    return { ...reply, headers, etag: false };
  }
  if (isDeal(route)) return { ...reply, body: specDeal(reply.body) };
  return reply;
}

function strictRoute(route: RouteDef): RouteDef {
  const query = route.query ? z.strictObject({ ...strictPaging, ...(isAnswers(route) && route.method === 'GET' ? { section_key: SectionKey.optional() } : {}) }) : undefined;
  const response = route.path === '' ? StrictApiRoot : isStages(route) ? StrictStagePage : route.response;
  return {
    ...route,
    query,
    response,
    // Which writes need If-Match is not shown; answer and item updates are guarded by answers_revision in the body.
    ...(isAnswerSet(route) && route.ifMatch ? { ifMatch: 'optional' as const } : {}),
    handle: async (ctx) => transformReply(route, await route.handle(ctx)),
  };
}

/** The strict profile's route table, made from the full one. */
export function strictRoutes(routes: readonly RouteDef[]): RouteDef[] {
  return routes.filter((r) => !ABSENT.some((re) => re.test(r.path))).map(strictRoute);
}

/** Error bodies of a strict Portal carry a property the BFF does not know (the spec leaves their fields unshown). */
export function strictErrorReply(reply: Reply, docsOrigin: string): Reply {
  const body = reply.body as { error?: { code?: unknown } } | undefined;
  if (reply.status < 400 || !body?.error || typeof body.error !== 'object') return reply;
  const code = typeof body.error.code === 'string' ? body.error.code : 'error';
  return { ...reply, body: { ...body, error: { ...body.error, documentation_url: `${docsOrigin}/docs/errors#${code}` } } };
}
