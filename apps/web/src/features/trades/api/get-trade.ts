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
  // No polling: fills at the venue arrive as live `trade`/`order` events, which refresh ['trades'].
  return useQuery({ ...tradeQueryOptions(id), enabled });
}
