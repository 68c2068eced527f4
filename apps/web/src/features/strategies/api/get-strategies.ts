import type { Strategy } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { listFrom } from '../../../lib/fields';

export type { Strategy };

/** Every strategy the user may use: the admins' public ones and their own private ones. */
export async function getStrategies(): Promise<Strategy[]> {
  const results = unwrapResults(await api.get<unknown>('/api/strategies'));
  return listFrom(results, 'strategies') as unknown as Strategy[];
}

export const strategiesQueryOptions = () =>
  queryOptions({ queryKey: ['strategies'], queryFn: getStrategies });

export function useStrategies() {
  return useQuery(strategiesQueryOptions());
}
