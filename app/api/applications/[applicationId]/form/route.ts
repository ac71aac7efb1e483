import type { FormSnapshotView } from '@/lib/bff/form-snapshot';
import { readFormSnapshot } from '@/server/applications/form-snapshot';
import { byApplication } from '@/server/applications/route-params';
import { route } from '@/server/http/route';
import { ApplicationParams, etagHeader } from '@/server/http/params';

// GET /api/applications/[applicationId]/form – everything the form page opens with
export const GET = route(
  { roles: ['staff', 'reviewer', 'client'], params: ApplicationParams, application: byApplication },
  async ({ params, req, upstream }) => {
    const { requestId, ...snapshot } = await readFormSnapshot(params.applicationId, req.signal);
    upstream.requestId = requestId;
    const body: FormSnapshotView = snapshot;
    // The answers ETag: what the browser quotes in If-Match on its first answer write.
    return { body, headers: etagHeader(snapshot.answers.etag) };
  },
);
