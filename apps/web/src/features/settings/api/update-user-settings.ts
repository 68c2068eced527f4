import { type Preferences, type PreferencesPatch, mergePreferences, readPreferences } from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { userSettingsQueryOptions } from './get-user-settings';

let previousSave: Promise<unknown> = Promise.resolve();

/**
 * PUT /user/settings, one at a time from this tab: the server merges a partial update into what it
 * read, so two at once (a theme and a language switched quickly) could lose one of them.
 */
export function updateUserSettings(patch: PreferencesPatch): Promise<Preferences> {
  const save = previousSave
    .catch(() => undefined)
    .then(async () =>
      readPreferences(unwrapResults<unknown>(await api.put<unknown>('/user/settings', patch))),
    );
  previousSave = save;
  return save;
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
      if (previous) queryClient.setQueryData(queryKey, mergePreferences(previous, patch));
      return { previous };
    },
    onError: (_error, _patch, context) => {
      if (context?.previous) queryClient.setQueryData(queryKey, context.previous);
    },
    onSuccess: (saved) => queryClient.setQueryData(queryKey, saved),
  });
}
