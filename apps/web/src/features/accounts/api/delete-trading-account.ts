import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { tradingAccountsQueryOptions } from './get-trading-accounts';

/** What happens to the account's bots: the server refuses while bots remain, unless they go too. */
export type AccountBotsPolicy = 'refuse' | 'delete';

export async function deleteTradingAccount({ id, bots }: { id: string; bots: AccountBotsPolicy }) {
  await api.delete<unknown>(`/api/trading-accounts/${encodeURIComponent(id)}`, { params: { bots } });
}

export function useDeleteTradingAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTradingAccount,
    onSuccess: async (_data, { bots }) => {
      await queryClient.invalidateQueries({ queryKey: tradingAccountsQueryOptions().queryKey });
      // Bots deleted with the account leave the bot list.
      if (bots === 'delete') await queryClient.invalidateQueries({ queryKey: ['bots'] });
    },
  });
}
