import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';
import type { ClientPlaceBody } from '@/lib/bff/invitations';

/**
 * Tells the BFF which section the invited client opened, so their next visit reopens it. A lost one only
 * means the next visit starts a section earlier, so a failure is not shown.
 */
export function useRememberPlace(applicationId: string) {
  return useMutation({
    mutationFn: (sectionKey: string) =>
      apiFetch<ClientPlaceBody>(apiPaths.application(applicationId).place(), { method: 'PUT', body: { section_key: sectionKey } }),
  });
}
