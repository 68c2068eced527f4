import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { type Row, field, isRow } from '../../../lib/fields';

export async function getTrade(id: string): Promise<Row> {
  const results = unwrapResults<unknown>(await api.get<unknown>(`/api/trades/${encodeURIComponent(id)}`));
  const trade = field(results, 'trade') ?? results;
  return isRow(trade) ? trade : {};
}

export const tradeQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['trades', id], queryFn: () => getTrade(id) });

export function useTrade(id: string) {
  return useQuery(tradeQueryOptions(id));
}
