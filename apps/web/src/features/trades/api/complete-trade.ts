import type { TradeCompletion } from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { tradeQueryOptions } from './get-trade';
import { tradesListKey } from './get-trades';

export type { TradeCompletion };

/** `POST /api/trades/{id}/complete`: closes the trade at market now; resting orders are cancelled first. */
export async function completeTrade(id: string): Promise<TradeCompletion> {
  return unwrapResults<TradeCompletion>(
    await api.post<unknown>(`/api/trades/${encodeURIComponent(id)}/complete`),
  );
}

export function useCompleteTrade() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeTrade,
    onSettled: async (_data, _error, id) => {
      await queryClient.invalidateQueries({ queryKey: tradeQueryOptions(id).queryKey, exact: true });
      await queryClient.invalidateQueries({ queryKey: tradesListKey });
      await queryClient.invalidateQueries({ queryKey: ['bots'] });
      await queryClient.invalidateQueries({ queryKey: ['trading-accounts'] });
    },
  });
}
