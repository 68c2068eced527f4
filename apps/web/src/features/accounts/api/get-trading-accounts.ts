import { type TradingAccount, tradingAccountSchema } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, parseResults } from '../../../lib/api-client';

export type { TradingAccount };

export async function getTradingAccounts(): Promise<TradingAccount[]> {
  return parseResults(tradingAccountSchema.array(), await api.get<unknown>('/api/trading-accounts'));
}

/** Every account query (list, bots distributions) lives under this key, so one invalidation refreshes all. */
export const tradingAccountsQueryOptions = () =>
  queryOptions({ queryKey: ['trading-accounts'], queryFn: getTradingAccounts });

export function useTradingAccounts() {
  return useQuery(tradingAccountsQueryOptions());
}
