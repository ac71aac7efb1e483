import 'server-only';
import { Readable } from 'node:stream';
import { applicationApi } from '@/lib/api/endpoints';
import { safeNamePart } from '@/lib/exports/entry-names';
import { intakeApplication } from '@/server/applications/intake-application';
import { kindRoute } from '@/server/applications/kind-route';
import { kindParams } from '@/server/applications/kind-params';
import type { ResolvedSession } from '@/server/auth';
import { contentDisposition } from '@/server/portal';
import { businessNameOf, packageDocument } from './application-document';
import { renderApplicationPdf } from './application-pdf';
import { collectApplication, hashDocuments, type Collected } from './collect';
import { packageZip } from './package-zip';

/**
 * GET /api/applications/[applicationId]/pdf (staff; the invited client for its own application) and
 * GET …/package (staff: the ZIP for a funder). Everything is read from the Portal before the reply starts,
 * so a read that fails after its retries is an error reply, never a truncated PDF.
 */

const params = kindParams(intakeApplication).application;

const preparedBy = (session: ResolvedSession | null) =>
  session?.kind === 'user' ? `${session.userName} (${session.userEmail})` : 'The applicant, through their invitation';

/** `<business> – application – <date>.pdf`, the date in UTC. */
function fileName(collected: Collected, generatedAt: Date, ext: 'pdf' | 'zip') {
  const what = ext === 'pdf' ? 'application' : 'funder package';
  return `${safeNamePart(businessNameOf(collected), 'Business', 80)} – ${what} – ${generatedAt.toISOString().slice(0, 10)}.${ext}`;
}

function download(body: Readable, type: string, name: string) {
  return new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, {
    status: 200,
    headers: { 'Content-Type': type, 'Content-Disposition': contentDisposition(name), 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' },
  });
}

const pdf = kindRoute(intakeApplication, applicationApi.pdf.GET, { roles: ['staff', 'client'], params }, async ({ id, session }) => {
  const generatedAt = new Date();
  const collected = await collectApplication(id);
  const reads = await hashDocuments(collected.files);
  const doc = renderApplicationPdf(packageDocument(collected, reads, { preparedBy: preparedBy(session), generatedAt }), generatedAt);
  return download(doc as unknown as Readable, 'application/pdf', fileName(collected, generatedAt, 'pdf'));
});

const zip = kindRoute(intakeApplication, applicationApi.package.GET, { roles: ['staff'], params }, async ({ id, session }) => {
  const generatedAt = new Date();
  const collected = await collectApplication(id);
  const context = { preparedBy: preparedBy(session), generatedAt };
  return download(packageZip(collected, { pdf: fileName(collected, generatedAt, 'pdf') }, context), 'application/zip', fileName(collected, generatedAt, 'zip'));
});

/** The route handlers of the funder package: each route file under app/api re-exports its methods. */
export const packageRoutes = { pdf: { GET: pdf }, package: { GET: zip } };
