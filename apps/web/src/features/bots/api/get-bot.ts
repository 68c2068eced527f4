import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { type Row, field, isRow } from '../../../lib/fields';

export async function getBot(id: string): Promise<Row> {
  const results = unwrapResults<unknown>(await api.get<unknown>(`/api/bots/${encodeURIComponent(id)}`));
  const bot = field(results, 'bot') ?? results;
  return isRow(bot) ? bot : {};
}

export const botQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['bots', id], queryFn: () => getBot(id) });

export function useBot(id: string) {
  return useQuery(botQueryOptions(id));
}
