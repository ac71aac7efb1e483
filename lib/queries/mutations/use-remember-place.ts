import { useMutation } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { applicationApi } from '@/lib/api/endpoints';

/**
 * Tells the BFF which section the invited client opened, so their next visit reopens it. A lost one only
 * means the next visit starts a section earlier, so a failure is not shown.
 */
export function useRememberPlace(applicationId: string) {
  return useMutation({
    mutationFn: (sectionKey: string) =>
      callApi(applicationApi.place.PUT, { params: { applicationId }, body: { section_key: sectionKey } }),
  });
}
