import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callWithNewKey } from '@/lib/api/client';
import { projectsApi } from '@/lib/api/endpoints';
import type { ProjectCreateInput } from '@/lib/bff/projects';
import { projectKey, projectsKey } from '../projects';

/** Creates a funding project (one Idempotency-Key per click); it is cached, and the business's list read again. */
export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProjectCreateInput) => callWithNewKey(projectsApi.POST, { body }).then((r) => r.project),
    onSuccess: (project) => {
      queryClient.setQueryData(projectKey(project.id), project);
      void queryClient.invalidateQueries({ queryKey: projectsKey(project.business.id) });
    },
  });
}
