import { type Preferences, readPreferences } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';

export type { Preferences };

/** GET /user/settings, read over the contract's defaults (spec §3: defaults fill any gap). */
export async function getUserSettings(): Promise<Preferences> {
  return readPreferences(unwrapResults<unknown>(await api.get<unknown>('/user/settings')));
}

export const userSettingsQueryOptions = () =>
  queryOptions({ queryKey: ['user', 'settings'], queryFn: getUserSettings });

export function useUserSettings() {
  return useQuery(userSettingsQueryOptions());
}
