import type { TradeControlStatus } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { tradeControlKey } from './get-admin-strategies';

export type { TradeControlStatus };
export type TradeControlBot = TradeControlStatus['bots'][number];

/** GET /admin/strategies/:id/trades/status: the strategy's figures and each of its bots. */
export async function getStrategyTradeStatus(strategyId: string): Promise<TradeControlStatus> {
  return unwrapResults<TradeControlStatus>(
    await api.get<unknown>(`/admin/strategies/${encodeURIComponent(strategyId)}/trades/status`),
  );
}

export const strategyTradeStatusQueryOptions = (strategyId: string) =>
  queryOptions({
    queryKey: [...tradeControlKey, 'status', strategyId],
    queryFn: () => getStrategyTradeStatus(strategyId),
  });

export function useStrategyTradeStatus(strategyId: string) {
  return useQuery(strategyTradeStatusQueryOptions(strategyId));
}
