import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { type Row, listFrom } from '../../../lib/fields';

/** GET /market/pairs; a pair may come as a bare symbol string or an object. */
export async function getMarketPairs(): Promise<Row[]> {
  const results = unwrapResults<unknown>(await api.get<unknown>('/market/pairs'));
  const list = Array.isArray(results) ? results : listFrom(results, 'pairs');
  return list.map((pair) => (typeof pair === 'string' ? { symbol: pair } : (pair as Row)));
}

export const marketPairsQueryOptions = () =>
  queryOptions({ queryKey: ['market', 'pairs'], queryFn: getMarketPairs, staleTime: 60_000 });

export function useMarketPairs() {
  return useQuery(marketPairsQueryOptions());
}
