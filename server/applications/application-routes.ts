import 'server-only';
import { formApi } from '@/lib/api/endpoints';
import { z } from 'zod';
import type { FormSnapshotView } from '@/lib/bff/form-snapshot';
import { readContract } from './contract-cache';
import { contractView } from './application-views';
import { etagHeader } from '@/server/http/headers';
import { takeOver } from './form-handover';
import { readFormSnapshot } from './form-snapshot';
import type { AnyApplicationKind } from './kind';
import { kindRoute } from './kind-route';
import { kindParams } from './kind-params';

const FormQuery = z.strictObject({ rest: z.string().regex(/^[\w-]{16,64}$/).optional() });

/** The reads of the application itself: GET … (status and progress; its ETag is what submit quotes), …/contract and …/form. */
export function applicationRoutes<Id extends string>(kind: AnyApplicationKind<Id>) {
  const spec = { roles: kind.roles.read, params: kindParams(kind).application };

  const application = kindRoute(kind, formApi.application.GET, spec, async ({ id }) => {
    const res = await kind.read(id);
    const etag = res.etag ?? '';
    return { body: { application: kind.view(res.app, etag) }, headers: etagHeader(etag) };
  });

  // The questions the form is rendered from.
  const contract = kindRoute(kind, formApi.contract.GET, spec, async ({ id }) => {
    const known = kind.links.known(id);
    const app = known ? null : (await kind.read(id)).app;
    // Always revalidated (maxAgeMs 0), so the ETag is exact; a kept copy is reused only on a 304.
    const read = await readContract(known?.contract ?? kind.contractUrl(app), { maxAgeMs: 0 });
    if (app) kind.links.remember(id, app, read.contract);
    const view = contractView(read.contract);
    // The ETag names contract_version only, so a 304 says nothing of answers_revision: the application does.
    const current = read.upstream === 'fetched' ? null : kind.view((app ? { app } : await kind.read(id)).app, '').answers_revision;
    return { body: { contract: current === null ? view : { ...view, answers_revision: current } }, headers: etagHeader(read.etag) };
  });

  // Everything the form opens with: what the page read a moment ago when it names the token it got for it.
  const form = kindRoute(kind, formApi.form.GET, { ...spec, query: FormQuery }, async ({ id, query, session }) => {
    const handed = query.rest && session ? takeOver(query.rest, session.sid, id) : undefined;
    const body: FormSnapshotView = handed ?? (await readFormSnapshot(kind, id));
    // The answers ETag: what the browser quotes in If-Match on its first answer write.
    return { body, headers: etagHeader(body.answers.etag) };
  });

  return { application: { GET: application }, contract: { GET: contract }, form: { GET: form } };
}
