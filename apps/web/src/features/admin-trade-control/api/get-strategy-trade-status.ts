import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { type Row, isRow } from '../../../lib/fields';

export async function getStrategyTradeStatus(strategyId: string): Promise<Row> {
  const results = unwrapResults<unknown>(
    await api.get<unknown>(`/admin/strategies/${encodeURIComponent(strategyId)}/trades/status`),
  );
  return isRow(results) ? results : {};
}

export const strategyTradeStatusQueryOptions = (strategyId: string) =>
  queryOptions({
    queryKey: ['admin', 'strategies', strategyId, 'trades-status'],
    queryFn: () => getStrategyTradeStatus(strategyId),
  });

export function useStrategyTradeStatus(strategyId: string | undefined) {
  return useQuery({ ...strategyTradeStatusQueryOptions(strategyId ?? ''), enabled: Boolean(strategyId) });
}
