import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { field } from '../../../lib/fields';
import { type Bot, toBot } from './bot-model';

export async function getBot(id: string): Promise<Bot> {
  const results = unwrapResults<unknown>(await api.get<unknown>(`/api/bots/${encodeURIComponent(id)}`));
  return toBot(field(results, 'bot') ?? results);
}

export const botQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['bots', id], queryFn: () => getBot(id) });

/** `enabled: false` stops asking, e.g. while the bot is being deleted (the server would say 404). */
export function useBot(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...botQueryOptions(id), enabled });
}
