import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { tradeQueryOptions } from './get-trade';
import { tradesListKey } from './get-trades';

/** `DELETE /api/trades/{id}`: only a finished trade (the server refuses an open one). */
export async function deleteTrade(id: string): Promise<void> {
  await api.delete<unknown>(`/api/trades/${encodeURIComponent(id)}`);
}

export function useDeleteTrade() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTrade,
    onSuccess: async (_data, id) => {
      // Dropped, never refetched: the server would answer 404.
      queryClient.removeQueries({ queryKey: tradeQueryOptions(id).queryKey, exact: true });
      await queryClient.invalidateQueries({ queryKey: tradesListKey });
      // A bot's own trade table lists it too.
      await queryClient.invalidateQueries({ queryKey: ['bots'] });
    },
  });
}
