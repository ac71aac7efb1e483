import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ProjectPage } from '@/components/funding/project-page';
import { formOpeningJson } from '@/server/applications/form-opening';
import { guardPage, readOrNotFound, type PageProps } from '@/server/http/page-guard';
import { readFormSnapshot } from '@/server/applications/form-snapshot';
import { projectCriteria } from '@/server/applications/project-criteria';
import { readProject } from '@/server/projects/read';
import { projectView } from '@/server/projects/project-views';
import { portalFeatures } from '@/server/portal';

export const metadata: Metadata = { title: 'Funding project' };

// /projects/[projectId] – a funding project: its criteria (the contract-driven form), finding funders, and the ranked results (staff only)
export default async function FundingProjectPage({ params, searchParams }: PageProps<'projectId'>) {
  const { projectId } = await params;
  const raw = await searchParams;
  const session = await guardPage({ path: `/projects/${projectId}`, query: raw, roles: ['staff'], ids: { project: projectId } });
  // A Portal without funding operations has no project to show; one whose document could not be read is failing
  // (the error page and its retry), not known to lack them.
  const features = await portalFeatures();
  if (!features.funding && !features.known) throw new Error('The Portal could not be asked what it offers.');
  if (!features.funding) notFound();
  // Read here, on the server, before anything is sent, so the criteria are in the first HTML and the status
  // is the reads' (as the intake form's page does).
  const section = raw.section;
  const [project, snapshotJson] = await Promise.all([
    readOrNotFound(readProject(projectId)),
    readOrNotFound(formOpeningJson(readFormSnapshot(projectCriteria, projectId), typeof section === 'string' ? section : null, { sid: session.sid, id: projectId })),
  ]);
  return (
    <ProjectPage
      initial={projectView(project.data)}
      snapshotJson={snapshotJson}
      deviceKey={`${session.userId}:${projectId}`}
    />
  );
}
