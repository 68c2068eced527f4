import type { Preferences } from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { toPreferences, userSettingsQueryOptions } from './get-user-settings';

/** PUT /user/settings takes any subset, notifications included. */
export type PreferencesPatch = Partial<Omit<Preferences, 'notifications'>> & {
  notifications?: Partial<Preferences['notifications']>;
};

export async function updateUserSettings(patch: PreferencesPatch): Promise<Preferences> {
  return toPreferences(unwrapResults<unknown>(await api.put<unknown>('/user/settings', patch)));
}

/** Saves a change; the screen shows the server's answer (the full preferences) at once. */
export function useUpdateUserSettings() {
  const queryClient = useQueryClient();
  const { queryKey } = userSettingsQueryOptions();
  return useMutation({
    mutationFn: updateUserSettings,
    // Optimistic: a switch flips when clicked, and flips back if the server refuses.
    onMutate: async (patch) => {
      await queryClient.cancelQueries({ queryKey });
      const previous = queryClient.getQueryData(queryKey);
      if (previous) {
        queryClient.setQueryData(queryKey, {
          ...previous,
          ...patch,
          notifications: { ...previous.notifications, ...patch.notifications },
        });
      }
      return { previous };
    },
    onError: (_error, _patch, context) => {
      if (context?.previous) queryClient.setQueryData(queryKey, context.previous);
    },
    onSuccess: (saved) => queryClient.setQueryData(queryKey, saved),
  });
}
