import { type Bot, botAnswerSchema } from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseResults } from '../../../lib/api-client';
import type { UpdateBotBody } from '../utils/bot-rules';
import { botsQueryOptions } from './get-bots';

export async function updateBot({
  id,
  body,
}: {
  id: string;
  body: UpdateBotBody | { is_active: boolean };
}): Promise<Bot> {
  return parseResults(botAnswerSchema, await api.put<unknown>(`/api/bots/${encodeURIComponent(id)}`, body));
}

export function useUpdateBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBot,
    onSuccess: async (bot) => {
      queryClient.setQueryData(['bots', bot.id], bot);
      await queryClient.invalidateQueries({ queryKey: botsQueryOptions().queryKey });
      await queryClient.invalidateQueries({ queryKey: ['trading-accounts'] });
    },
  });
}
