import 'server-only';

interface Named {
  id: string;
  name: string;
}

/** What a business and a deal show alike: who they are, where they stand in their pipeline, and whether a sample. */
export function workflowObjectView<N, S>(o: {
  id: string;
  name: N;
  revision: number;
  status: S;
  workflow: { pipeline: Named; stage: Named };
  is_sample?: boolean;
}) {
  return {
    id: o.id,
    name: o.name,
    revision: o.revision,
    status: o.status,
    workflow: { pipeline: o.workflow.pipeline, stage: o.workflow.stage },
    is_sample: o.is_sample ?? false,
  };
}
