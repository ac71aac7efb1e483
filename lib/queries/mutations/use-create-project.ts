import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postWithNewKey } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';
import type { ProjectCreateInput } from '@/lib/bff/projects';
import { type ProjectReply, projectKey, projectsKey } from '../projects';

/** Creates a funding project (one Idempotency-Key per click); it is cached, and the business's list read again. */
export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProjectCreateInput) => postWithNewKey<ProjectReply>(apiPaths.projects(), body).then((r) => r.project),
    onSuccess: (project) => {
      queryClient.setQueryData(projectKey(project.id), project);
      void queryClient.invalidateQueries({ queryKey: projectsKey(project.business.id) });
    },
  });
}
