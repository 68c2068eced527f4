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
      queryClient.removeQueries({ queryKey: botQueryOptions(id).queryKey });
      await queryClient.invalidateQueries({ queryKey: botsQueryOptions().queryKey });
      await queryClient.invalidateQueries({ queryKey: ['trading-accounts'] });
    },
  });
}
