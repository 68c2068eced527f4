import { profileUpdate, userProfileSchema } from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, parseResults } from '../../../lib/api-client';
import { useSession } from '../../../lib/session-store';
import { type UserProfile, userProfileQueryOptions } from './get-user-profile';

/** The form: a display name of at most 80 characters; empty clears it. */
export const profileFormSchema = z.object({
  displayName: z.string().trim().max(80),
});
export type ProfileFormValues = z.infer<typeof profileFormSchema>;

/** PUT /user/profile {displayName}; the session's user follows (the menu shows the new name). */
export async function updateUserProfile(values: ProfileFormValues): Promise<UserProfile> {
  const body = profileUpdate.parse({ displayName: values.displayName || null });
  return parseResults(userProfileSchema, await api.put<unknown>('/user/profile', body));
}

export function useUpdateUserProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUserProfile,
    onSuccess: (profile) => {
      queryClient.setQueryData(userProfileQueryOptions().queryKey, profile);
      const session = useSession.getState();
      if (session.user) session.setUser({ ...session.user, displayName: profile.displayName });
    },
  });
}
