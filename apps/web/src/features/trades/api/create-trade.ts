import type { TradeCreateBody } from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { type TradeDetail, tradeQueryOptions } from './get-trade';
import { tradesListKey } from './get-trades';

/** What the form sends: decimals as strings, `price` only for a limit entry. */
export type CreateTradeBody = Omit<TradeCreateBody, 'takeProfits' | 'breakEvenAfterTp1'> & {
  takeProfits?: Array<{ role?: string; percent: string; sizePercent: string }>;
  breakEvenAfterTp1?: boolean;
};

/** `POST /api/trades`: a manual trade (no bot). */
export async function createTrade(body: CreateTradeBody): Promise<TradeDetail> {
  return unwrapResults<TradeDetail>(await api.post<unknown>('/api/trades', body));
}

export function useCreateTrade() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTrade,
    onSuccess: async (detail) => {
      queryClient.setQueryData(tradeQueryOptions(detail.trade.id).queryKey, detail);
      await queryClient.invalidateQueries({ queryKey: tradesListKey });
      // The entry moved money: balances shown elsewhere are stale.
      await queryClient.invalidateQueries({ queryKey: ['trading-accounts'] });
    },
  });
}
