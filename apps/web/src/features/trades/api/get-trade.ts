import type { LadderLevel, TradeDetail } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { OPEN_TRADE_REFRESH_MS } from '../components/open-position-figures';

export type { LadderLevel, TradeDetail };

export async function getTrade(id: string): Promise<TradeDetail> {
  return unwrapResults<TradeDetail>(await api.get<unknown>(`/api/trades/${encodeURIComponent(id)}`));
}

/** `['trades', id]`: under the same root as the lists, so one invalidation of `['trades']` refreshes both. */
export const tradeQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['trades', id], queryFn: () => getTrade(id) });

/** `enabled: false` stops asking, e.g. while the trade is being deleted (the server would say 404). */
export function useTrade(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  // Fills at the venue arrive as live `trade`/`order` events, which refresh ['trades']; an open trade is
  // also read again every few seconds for its current price and unrealised PnL.
  return useQuery({
    ...tradeQueryOptions(id),
    enabled,
    refetchInterval: (query) => {
      const status = query.state.data?.trade.status;
      return status === 'open' || status === 'closing' ? OPEN_TRADE_REFRESH_MS : false;
    },
  });
}
