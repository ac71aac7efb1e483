import { useMutation } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { applicationApi } from '@/lib/api/endpoints';

/**
 * Tells the BFF which section the invited client opened, so their next visit reopens it, and the browser's time
 * zone (their reminders' quiet hours). A lost one only means the next visit starts a section earlier, so a
 * failure is not shown.
 */
export function useRememberPlace(applicationId: string) {
  return useMutation({
    mutationFn: ({ sectionKey, timeZone }: { sectionKey: string; timeZone?: string }) =>
      callApi(applicationApi.place.PUT, { params: { applicationId }, body: { section_key: sectionKey, ...(timeZone ? { time_zone: timeZone } : {}) } }),
  });
}
