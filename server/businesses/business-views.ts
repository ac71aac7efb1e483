import 'server-only';
import type {
  BusinessCreatedView,
  BusinessListView,
  BusinessStageTransitionView,
  BusinessView,
  PeopleView,
  PipelineListView,
  PortalView,
} from '@/lib/bff/businesses';
import type {
  ApiRoot,
  BusinessCreateResult,
  BusinessPage,
  BusinessStageTransitionResult,
  BusinessStatusResult,
  ParticipantList,
} from '@/lib/portal';
import { workflowObjectView } from '@/server/workflows/workflow-views';

/** Upstream shapes turned into what the browser gets: no Portal URL leaves the server. */

/**
 * The key's kind, when the root does not name it: the spec says a source key's access targets are channel
 * slugs, and that lead submission (a source key's permission) is write-only.
 */
function keyKind(key: ApiRoot['key']): 'portal' | 'source' {
  if (key.kind) return key.kind;
  const leadsOnly = key.permissions.includes('leads:submit') && !key.permissions.includes('businesses:write');
  return key.channel_slugs.length > 0 || leadsOnly ? 'source' : 'portal';
}

export function portalView(root: ApiRoot): PortalView {
  const { permissions, channel_slugs } = root.key;
  return {
    portal: { id: root.portal.id ?? null, name: root.portal.name },
    environment: root.environment ?? null,
    key: { kind: keyKind(root.key), permissions, channel_slugs },
  };
}

export function businessListView(page: BusinessPage): BusinessListView {
  return {
    items: page.items.map((b) => ({ id: b.id, name: b.name })),
    next_cursor: page.next_cursor,
    previous_cursor: page.previous_cursor,
  };
}

const text = (v: unknown) => (typeof v === 'string' ? v : null);

/**
 * The upload slots replace the signed upload URLs, which stay on the server (upload-slots.ts). The Portal's own
 * invitation page (invitation_url) is a Portal URL too: clients are invited through the app's links instead.
 */
export function businessCreatedView(r: BusinessCreateResult, prefilled: BusinessCreatedView['prefilled']): BusinessCreatedView {
  return {
    business: { id: r.business.id, name: r.business.name },
    application: { id: r.application.id },
    // Warnings are open objects upstream: only their code and message are known to be safe to show.
    warnings: r.warnings.map((w) => ({ code: text(w.code), message: text(w.message) })),
    uploads: r.file_uploads.map((u) => ({ id: u.id, request_path: u.request_path, multiple: u.multiple })),
    prefilled,
  };
}

export function businessView(r: BusinessStatusResult, etag: string): BusinessView {
  return { ...workflowObjectView(r.business), application: r.application ? { id: r.application.id } : null, etag };
}

export function stageTransitionView(r: BusinessStageTransitionResult, etag: string): BusinessStageTransitionView {
  return { id: r.id, stage: r.stage, revision: r.revision, updated_at: r.updated_at, etag };
}

/** frontend_link is a Portal URL: staff reach people through the BFF only. */
export function peopleView(list: ParticipantList): PeopleView {
  return {
    revision: list.revision,
    items: list.items.map((p) => ({
      id: p.id,
      full_name: p.full_name,
      email: p.email,
      phone_number: p.phone_number,
      company_name: p.company_name,
      job_title: p.job_title,
      notes: p.notes,
      is_do_not_contact: p.is_do_not_contact,
      is_primary: p.is_primary,
      owner: p.owner,
      tags: p.tags,
      created_at: p.created_at,
      updated_at: p.updated_at,
    })),
  };
}

/** Business and deal pipelines alike: their stages_url stays here (the stages routes follow it). */
export function pipelineListView(page: {
  items: Array<{ id: string; name: string }>;
  next_cursor: string | null;
  previous_cursor: string | null;
}): PipelineListView {
  return { items: page.items.map((p) => ({ id: p.id, name: p.name })), next_cursor: page.next_cursor, previous_cursor: page.previous_cursor };
}
