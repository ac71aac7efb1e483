import 'server-only';
import { withConflictReply } from '@/server/http/conflict-reply';
import { etagHeader, requireIdempotencyKey, requireIfMatch } from '@/server/http/headers';
import { route } from '@/server/http/route';
import { portalRequest } from '@/server/portal';
import type { SubmittedKind } from './kind';
import { applicationIdOf, kindParams } from './params';

/**
 * POST …/submit (If-Match: the application's ETag; Idempotency-Key, both passed on unchanged, so a retry
 * of the same click replays the first reply): missing answers come back as a 422 listing each of them, a
 * 412 with the application as it is now.
 */
export function submitRoutes<Id extends string>(kind: SubmittedKind<Id>) {
  const POST = route(
    {
      roles: kind.roles.write,
      params: kindParams(kind).application,
      application: applicationIdOf(kind),
      audit: { operation: kind.audit.submit, object: ({ params }) => ({ type: kind.audit.type, id: params[kind.idParam], applicationId: params[kind.idParam] }) },
    },
    async ({ params, req, upstream }) => {
      const id = params[kind.idParam];
      const ifMatch = requireIfMatch(req);
      const idempotencyKey = requireIdempotencyKey(req);
      const links = await kind.links.get(id, req.signal);
      return withConflictReply(
        upstream,
        async () => {
          const res = await portalRequest({ method: 'POST', url: links.submit, schema: kind.upstream.schema, ifMatch, idempotencyKey, signal: req.signal });
          upstream.requestId = res.requestId;
          const etag = res.etag ?? '';
          return { body: { application: kind.view(kind.upstream.unwrap(res.data), etag) }, headers: etagHeader(etag) };
        },
        // Answers changed since the browser's read: the application as it is now, with the ETag to retry with.
        async () => {
          const now = await kind.read(id, req.signal);
          return { current: kind.view(now.app, now.etag ?? ''), etag: now.etag };
        },
      );
    },
  );
  return { POST };
}
