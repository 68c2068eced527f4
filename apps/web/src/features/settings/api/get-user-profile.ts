import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { isRow } from '../../../lib/fields';

/** The user object of spec §3 plus the display name the user chose. */
export interface UserProfile {
  id: string;
  email: string;
  role: string;
  useTwoFa: boolean;
  displayName: string | null;
  createdAt?: string;
  [field: string]: unknown;
}

export function toUserProfile(results: unknown): UserProfile {
  if (!isRow(results)) throw new Error('Invalid response from server');
  return {
    ...results,
    id: String(results.id ?? ''),
    email: typeof results.email === 'string' ? results.email : '',
    role: typeof results.role === 'string' ? results.role : 'user',
    useTwoFa: results.useTwoFa === true,
    displayName: typeof results.displayName === 'string' ? results.displayName : null,
    createdAt: typeof results.createdAt === 'string' ? results.createdAt : undefined,
  };
}

/** GET /user/profile. */
export async function getUserProfile(): Promise<UserProfile> {
  return toUserProfile(unwrapResults<unknown>(await api.get<unknown>('/user/profile')));
}

export const userProfileQueryOptions = () =>
  queryOptions({ queryKey: ['user', 'profile'], queryFn: getUserProfile });

export function useUserProfile() {
  return useQuery(userProfileQueryOptions());
}
