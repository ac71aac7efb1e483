import { useMutation, useMutationState } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/api-fetch';
import { apiPaths, type FormApiBase } from '@/lib/api/paths';
import type { FileDeleteResult } from '@/lib/bff/files';

/**
 * Removes a file attached to a file question (no version is quoted: a file is never edited, only added or
 * removed). `removing` lists the files whose removal is under way, several at once.
 */
export function useDeleteFile(apiBase: FormApiBase) {
  const mutationKey = ['delete-file', apiBase] as const;
  const mutation = useMutation({
    mutationKey,
    mutationFn: (fileId: string) => apiFetch<FileDeleteResult>(apiPaths.form(apiBase).file(fileId), { method: 'DELETE' }),
  });
  const removing = useMutationState({ filters: { mutationKey, status: 'pending' }, select: (m) => m.state.variables as string });
  return { ...mutation, removing };
}
