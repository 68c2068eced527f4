import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { type TradeDetail, tradeQueryOptions } from './get-trade';
import { tradesListKey } from './get-trades';

/** `PUT /api/trades/{id}`: the stop-loss (percent from the entry, a price, or null for none). */
export type UpdateTradeBody =
  | { stopLossPercent: string | null; breakEvenAfterTp1?: boolean }
  | { stopLossPrice: string | null; breakEvenAfterTp1?: boolean }
  | { takeProfits: Array<{ percent: string; sizePercent: string }> };

export async function updateTrade({ id, body }: { id: string; body: UpdateTradeBody }): Promise<TradeDetail> {
  return unwrapResults<TradeDetail>(await api.put<unknown>(`/api/trades/${encodeURIComponent(id)}`, body));
}

export function useUpdateTrade() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTrade,
    onSuccess: async (detail) => {
      queryClient.setQueryData(tradeQueryOptions(detail.trade.id).queryKey, detail);
      await queryClient.invalidateQueries({ queryKey: tradesListKey });
    },
  });
}
