import { useMutation, useMutationState } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { formApi } from '@/lib/api/endpoints';
import type { FormBase } from '@/lib/api/form-base';

/**
 * Removes a file attached to a file question (no version is quoted: a file is never edited, only added or
 * removed). `removing` lists the files whose removal is under way, several at once.
 */
export function useDeleteFile(apiBase: FormBase) {
  const mutationKey = ['delete-file', apiBase] as const;
  const mutation = useMutation({
    mutationKey,
    mutationFn: (fileId: string) => callApi(formApi.file.DELETE, { params: { form: apiBase, fileId } }),
  });
  const removing = useMutationState({ filters: { mutationKey, status: 'pending' }, select: (m) => m.state.variables as string });
  return { ...mutation, removing };
}
