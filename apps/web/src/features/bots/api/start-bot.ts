import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { type Bot, toBot } from './bot-model';
import { botsQueryOptions } from './get-bots';

/** DESIGN §5: start activates the bot; it takes the strategy's next signal. */
export async function startBot(id: string): Promise<Bot> {
  return toBot(unwrapResults<unknown>(await api.post<unknown>(`/bots/${encodeURIComponent(id)}/start`)));
}

export function useStartBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startBot,
    onSuccess: async (bot) => {
      queryClient.setQueryData(['bots', bot.id], bot);
      await queryClient.invalidateQueries({ queryKey: botsQueryOptions().queryKey });
    },
  });
}
