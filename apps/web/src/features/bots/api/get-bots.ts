import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { type Row, listFrom } from '../../../lib/fields';

/** Spec §4: the bot list is not refetched within 15 seconds unless forced. */
export const BOTS_STALE_TIME = 15_000;

export async function getBots(): Promise<Row[]> {
  const body = await api.get<unknown>('/api/bots');
  // Spec §7: results is an array or an object with bots.
  return listFrom(unwrapResults(body), 'bots');
}

export const botsQueryOptions = () =>
  queryOptions({ queryKey: ['bots'], queryFn: getBots, staleTime: BOTS_STALE_TIME });

export function useBots() {
  return useQuery(botsQueryOptions());
}
