import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { type Row, field, isRow, listFrom } from '../../../lib/fields';

export interface Portfolio {
  summary: Row;
  holdings: Row[];
}

export async function getPortfolio(): Promise<Portfolio> {
  const results = unwrapResults<unknown>(await api.get<unknown>('/portfolio'));
  return {
    summary: isRow(results) ? results : {},
    holdings: listFrom(results, 'holdings', 'balances', 'assets', 'accounts').filter(
      (row) => field(row, 'asset', 'currency', 'symbol', 'nickname') !== undefined,
    ),
  };
}

export const portfolioQueryOptions = () => queryOptions({ queryKey: ['portfolio'], queryFn: getPortfolio });

export function usePortfolio() {
  return useQuery(portfolioQueryOptions());
}
