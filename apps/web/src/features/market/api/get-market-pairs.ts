import type { marketSchema } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, unwrapResults } from '../../../lib/api-client';

export type MarketPair = z.infer<typeof marketSchema>;

/** `GET /market/pairs`: the markets of an account's venue (the default venue without one). */
export async function getMarketPairs(accountId?: string): Promise<MarketPair[]> {
  const results = unwrapResults<unknown>(await api.get<unknown>('/market/pairs', { params: { accountId } }));
  return Array.isArray(results) ? (results as MarketPair[]) : [];
}

/** Market data lives under `['market', …]`; it has no live events and is polled where it moves. */
export const marketPairsQueryOptions = (accountId?: string) =>
  queryOptions({
    queryKey: ['market', 'pairs', accountId ?? null],
    queryFn: () => getMarketPairs(accountId),
    staleTime: 5 * 60_000,
  });

export function useMarketPairs(accountId?: string) {
  return useQuery(marketPairsQueryOptions(accountId));
}
