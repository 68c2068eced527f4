import { type Bot, botAnswerSchema } from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseResults } from '../../../lib/api-client';
import { botsQueryOptions } from './get-bots';

/** DESIGN §5: start activates the bot; it takes the strategy's next signal. */
export async function startBot(id: string): Promise<Bot> {
  return parseResults(botAnswerSchema, await api.post<unknown>(`/bots/${encodeURIComponent(id)}/start`));
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
