import { type Bot, botAnswerSchema } from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseResults } from '../../../lib/api-client';
import { botsQueryOptions } from './get-bots';

/** DESIGN §5: stop deactivates; with closePosition (the default) it also exits the open trade at market. */
export async function stopBot({ id, closePosition }: { id: string; closePosition: boolean }): Promise<Bot> {
  const body = await api.post<unknown>(`/bots/${encodeURIComponent(id)}/stop`, { closePosition });
  return parseResults(botAnswerSchema, body);
}

export function useStopBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: stopBot,
    onSuccess: async (bot) => {
      queryClient.setQueryData(['bots', bot.id], bot);
      // Closing the position changes the trades too: the whole bots key is refreshed.
      await queryClient.invalidateQueries({ queryKey: botsQueryOptions().queryKey });
    },
  });
}
