import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { type Row, listFrom } from '../../../lib/fields';

export async function getTradingAccounts(): Promise<Row[]> {
  return listFrom(
    unwrapResults(await api.get<unknown>('/api/trading-accounts')),
    'tradingAccounts',
    'accounts',
  );
}

export const tradingAccountsQueryOptions = () =>
  queryOptions({ queryKey: ['trading-accounts'], queryFn: getTradingAccounts });

export function useTradingAccounts() {
  return useQuery(tradingAccountsQueryOptions());
}
