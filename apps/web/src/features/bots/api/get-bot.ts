import { type Bot, botAnswerSchema } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, parseResults } from '../../../lib/api-client';

export async function getBot(id: string): Promise<Bot> {
  return parseResults(botAnswerSchema, await api.get<unknown>(`/api/bots/${encodeURIComponent(id)}`));
}

export const botQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['bots', id], queryFn: () => getBot(id) });

/** `enabled: false` stops asking, e.g. while the bot is being deleted (the server would say 404). */
export function useBot(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...botQueryOptions(id), enabled });
}
