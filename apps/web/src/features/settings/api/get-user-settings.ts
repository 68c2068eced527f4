import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { type Row, isRow } from '../../../lib/fields';

export async function getUserSettings(): Promise<Row> {
  const results = unwrapResults<unknown>(await api.get<unknown>('/user/settings'));
  return isRow(results) ? results : {};
}

export const userSettingsQueryOptions = () =>
  queryOptions({ queryKey: ['user', 'settings'], queryFn: getUserSettings });

export function useUserSettings() {
  return useQuery(userSettingsQueryOptions());
}
