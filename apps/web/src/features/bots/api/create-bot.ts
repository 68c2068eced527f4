import { type Bot, botAnswerSchema } from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseResults } from '../../../lib/api-client';
import type { CreateBotBody } from '../utils/bot-rules';
import { botsQueryOptions } from './get-bots';

export async function createBot(body: CreateBotBody): Promise<Bot> {
  return parseResults(botAnswerSchema, await api.post<unknown>('/api/bots', body));
}

export function useCreateBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBot,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: botsQueryOptions().queryKey });
      // The account's bot count and distribution changed.
      await queryClient.invalidateQueries({ queryKey: ['trading-accounts'] });
    },
  });
}
