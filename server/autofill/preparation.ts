import 'server-only';
import { BoundedCache } from '@/lib/bounded-cache';
import { AutofillPreparation, type PreparationUpdateBody } from '@/lib/portal';
import type { IntakeLinks } from '@/server/applications/intake-application';
import { portalRequest, urlBelow } from '@/server/portal';

/*
 * The Autofill preparation, reached through the application's autofill_preparation_url. Its start_url comes
 * from a read and is kept per application (it does not change), so a start costs one upstream call.
 */

const startUrls = new BoundedCache<string, string>(5_000);
const rememberStartUrl = (applicationId: string, url: string) => startUrls.set(applicationId, url);

type PreparationResponse = Awaited<ReturnType<typeof portalRequest<typeof AutofillPreparation>>>;

/** Every preparation reply passes through here, so its start_url is learnt. */
function learn(applicationId: string, res: PreparationResponse): PreparationResponse {
  rememberStartUrl(applicationId, res.data.start_url);
  return res;
}

export async function readPreparation(applicationId: string, links: IntakeLinks) {
  return learn(applicationId, await portalRequest({ url: links.autofillPreparation, schema: AutofillPreparation }));
}

export async function updatePreparation(
  applicationId: string,
  links: IntakeLinks,
  body: PreparationUpdateBody,
  ifMatch: string,
) {
  const res = await portalRequest({ method: 'PATCH', url: links.autofillPreparation, schema: AutofillPreparation, body, ifMatch });
  return learn(applicationId, res);
}

/** Removes one evidence file: `files/{evidence id}/` below the preparation, with the preparation's ETag. */
export async function deleteEvidence(applicationId: string, links: IntakeLinks, evidenceId: string, ifMatch: string) {
  const url = urlBelow(links.autofillPreparation, 'files', evidenceId);
  return learn(applicationId, await portalRequest({ method: 'DELETE', url, schema: AutofillPreparation, ifMatch }));
}

/** The preparation's start_url, read once when not known yet. */
export async function startUrlOf(applicationId: string, links: IntakeLinks): Promise<string> {
  return startUrls.get(applicationId) ?? (await readPreparation(applicationId, links)).data.start_url;
}
