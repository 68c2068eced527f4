import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { botQueryOptions } from './get-bot';
import { botsQueryOptions } from './get-bots';

export async function deleteBot(id: string): Promise<void> {
  await api.delete<unknown>(`/api/bots/${encodeURIComponent(id)}`);
}

export function useDeleteBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBot,
    onSuccess: async (_data, id) => {
      await queryClient.invalidateQueries({ queryKey: botsQueryOptions().queryKey, exact: true });
      await queryClient.invalidateQueries({ queryKey: ['trading-accounts'] });
      // The bot's own queries (detail, trades) are dropped, never refetched: the server would answer 404.
      queryClient.removeQueries({ queryKey: botQueryOptions(id).queryKey });
    },
  });
}
