import type { Metadata } from 'next';
import { ApplicationTimeline } from '@/components/history/application-timeline';
import { fieldOf, formModel, recordedValueText, type FormModel } from '@/lib/forms';
import { ApplicationEnvelope } from '@/lib/portal';
import { readContract } from '@/server/applications/contract-cache';
import { applicationLinks } from '@/server/applications/intake-application';
import { appDb } from '@/server/db/app-db';
import { applicationTimeline } from '@/server/history/timeline';
import { timelineView, type FieldDescriber } from '@/server/history/timeline-view';
import { guardPage, readOrNotFound, type PageProps } from '@/server/http/page-guard';
import { portalRequest, routes } from '@/server/portal';
import { businessOfApplicationRow } from '@/server/read-model/queries';

export const metadata: Metadata = { title: 'Timeline' };

const PAGE = 100;

// /applications/[applicationId]/timeline – what happened to an application in this app, newest first (staff only)
export default async function TimelinePage({ params, searchParams }: PageProps<'applicationId'>) {
  const { applicationId } = await params;
  const query = await searchParams;
  await guardPage({ path: `/applications/${applicationId}/timeline`, query, roles: ['staff'], ids: { application: applicationId } });
  // An application the Portal does not have is a 404; its contract names the questions.
  const links = await readOrNotFound(applicationLinks(applicationId));
  const { contract } = await readContract(links.contract);
  const fields = timelineFields(formModel(contract));
  const before = typeof query.before === 'string' && !Number.isNaN(Date.parse(query.before)) ? new Date(query.before) : null;
  const db = await appDb();
  const [page, business] = await Promise.all([applicationTimeline(db, applicationId, PAGE, before), businessOf(applicationId)]);
  return <ApplicationTimeline applicationId={applicationId} business={business} timeline={timelineView(page, fields)} />;
}

async function businessOf(applicationId: string) {
  const row = await businessOfApplicationRow(await appDb(), applicationId);
  const business = row ?? (await portalRequest({ path: routes.application(applicationId), schema: ApplicationEnvelope })).data.application.business;
  return business ? { id: business.id, name: business.name ?? `Unnamed business (${business.id})` } : null;
}

/** Fields named as the form names them ("Owners – Email" for one part of a question), values as the form shows them. */
function timelineFields(model: FormModel): FieldDescriber {
  return {
    label(schemaKey, fieldKey) {
      const q = model.questionBySchemaKey.get(schemaKey);
      if (!q) return schemaKey;
      const field = q.fields.length > 1 ? q.fields.find((f) => f.fieldKey === fieldKey) : undefined;
      return field ? `${q.label} – ${field.label}` : q.label;
    },
    value: (schemaKey, fieldKey, value) => recordedValueText(fieldOf(model, schemaKey, fieldKey), value),
  };
}
