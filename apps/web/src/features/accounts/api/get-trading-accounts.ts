import type { TradingAccount } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { listFrom } from '../../../lib/fields';

export type { TradingAccount };

export async function getTradingAccounts(): Promise<TradingAccount[]> {
  const results = unwrapResults(await api.get<unknown>('/api/trading-accounts'));
  return listFrom(results, 'tradingAccounts', 'accounts') as unknown as TradingAccount[];
}

/** Every account query (list, bots distributions) lives under this key, so one invalidation refreshes all. */
export const tradingAccountsQueryOptions = () =>
  queryOptions({ queryKey: ['trading-accounts'], queryFn: getTradingAccounts });

export function useTradingAccounts() {
  return useQuery(tradingAccountsQueryOptions());
}
