import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { invitationReminderNowApi, invitationRemindersApi } from '@/lib/api/endpoints';

export const remindersKey = (invitationId: string) => ['reminders', invitationId] as const;

/** An invitation's reminders: steps, messages and the next one. They move with time, so they are read fresh. */
export const remindersQuery = (invitationId: string) =>
  queryOptions({
    queryKey: remindersKey(invitationId),
    queryFn: ({ signal }) => callApi(invitationRemindersApi.GET, { params: { invitationId }, signal }),
    staleTime: 0,
  });

/** Pauses or resumes the invitation's reminders; the reply is the new state. */
export function useSetRemindersPaused(invitationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (paused: boolean) => callApi(invitationRemindersApi.PUT, { params: { invitationId }, body: { paused } }),
    onSuccess: (view) => queryClient.setQueryData(remindersKey(invitationId), view),
  });
}

/** Sends a reminder at once (the server allows one per REMINDER_NOW_MINUTES). */
export function useSendReminderNow(invitationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(invitationReminderNowApi.POST, { params: { invitationId } }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: remindersKey(invitationId) }),
  });
}
