import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { type Row, listFrom } from '../../../lib/fields';

export async function getStrategies(): Promise<Row[]> {
  return listFrom(unwrapResults(await api.get<unknown>('/api/strategies')), 'strategies');
}

export const strategiesQueryOptions = () =>
  queryOptions({ queryKey: ['strategies'], queryFn: getStrategies });

export function useStrategies() {
  return useQuery(strategiesQueryOptions());
}
