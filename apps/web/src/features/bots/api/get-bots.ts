import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client';
import { field, isRow, listFrom, text } from '../../../lib/fields';
import { type Bot, toBot } from './bot-model';

/** Spec §4, §9: the bot list is not refetched within 15 seconds unless forced. */
export const BOTS_STALE_TIME = 15_000;
export const BOTS_LOAD_FAILED = 'Failed to load bots';

/** Spec §7: read as success, error and results, where results is an array or an object with bots. */
export async function getBots(): Promise<Bot[]> {
  const body = await api.get<unknown>('/api/bots');
  if (isRow(body) && body.success === false) {
    throw new ApiError(text(body, 'message', 'error') ?? BOTS_LOAD_FAILED, 200, body);
  }
  const results = isRow(body) && 'results' in body ? field(body, 'results') : body;
  return listFrom(results, 'bots').map(toBot);
}

export const botsQueryOptions = () =>
  queryOptions({ queryKey: ['bots'], queryFn: getBots, staleTime: BOTS_STALE_TIME });

export function useBots() {
  return useQuery(botsQueryOptions());
}
