import { DEFAULT_PREFERENCES, type Preferences, preferencesSchema } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';

export type { Preferences };

/** Whatever the server sent, read as the preferences of spec §3 (defaults fill any gap). */
export function toPreferences(results: unknown): Preferences {
  const raw = (typeof results === 'object' && results !== null ? results : {}) as Partial<Preferences>;
  const merged = {
    ...DEFAULT_PREFERENCES,
    ...raw,
    notifications: { ...DEFAULT_PREFERENCES.notifications, ...raw.notifications },
  };
  const parsed = preferencesSchema.safeParse(merged);
  return parsed.success ? parsed.data : DEFAULT_PREFERENCES;
}

/** GET /user/settings. */
export async function getUserSettings(): Promise<Preferences> {
  return toPreferences(unwrapResults<unknown>(await api.get<unknown>('/user/settings')));
}

export const userSettingsQueryOptions = () =>
  queryOptions({ queryKey: ['user', 'settings'], queryFn: getUserSettings });

export function useUserSettings() {
  return useQuery(userSettingsQueryOptions());
}
