import { type UserProfile, userProfileSchema } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, parseResults } from '../../../lib/api-client';

export type { UserProfile };

/** GET /user/profile: the user object of spec §3, the display name they chose, their preferences. */
export async function getUserProfile(): Promise<UserProfile> {
  return parseResults(userProfileSchema, await api.get<unknown>('/user/profile'));
}

export const userProfileQueryOptions = () =>
  queryOptions({ queryKey: ['user', 'profile'], queryFn: getUserProfile });

export function useUserProfile() {
  return useQuery(userProfileQueryOptions());
}
