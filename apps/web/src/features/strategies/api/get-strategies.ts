import { type Strategy, strategySchema } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, parseResults } from '../../../lib/api-client';

export type { Strategy };

/** Every strategy the user may use: the admins' public ones and their own private ones. */
export async function getStrategies(): Promise<Strategy[]> {
  return parseResults(strategySchema.array(), await api.get<unknown>('/api/strategies'));
}

export const strategiesQueryOptions = () =>
  queryOptions({ queryKey: ['strategies'], queryFn: getStrategies });

export function useStrategies() {
  return useQuery(strategiesQueryOptions());
}
