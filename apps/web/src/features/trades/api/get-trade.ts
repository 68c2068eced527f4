import type { LadderLevel, TradeDetail } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';

export type { LadderLevel, TradeDetail };

export async function getTrade(id: string): Promise<TradeDetail> {
  return unwrapResults<TradeDetail>(await api.get<unknown>(`/api/trades/${encodeURIComponent(id)}`));
}

/** `['trades', id]`: under the same root as the lists, so one invalidation of `['trades']` refreshes both. */
export const tradeQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['trades', id], queryFn: () => getTrade(id) });

/** `enabled: false` stops asking, e.g. while the trade is being deleted (the server would say 404). */
export function useTrade(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    ...tradeQueryOptions(id),
    enabled,
    // Until the live-update stream covers it, an open trade is re-read every few seconds: its
    // take-profits fill at the venue without anyone asking.
    refetchInterval: (query) => {
      const status = query.state.data?.trade.status;
      return status === 'open' || status === 'closing' ? 5_000 : false;
    },
  });
}
