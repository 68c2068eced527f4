import { type Bot, botListAnswerSchema } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, parseResults } from '../../../lib/api-client';

/** Spec §4, §9: the bot list is not refetched within 15 seconds unless forced. */
export const BOTS_STALE_TIME = 15_000;
export const BOTS_LOAD_FAILED = 'Failed to load bots';

/** Spec §7: read as success, error and results, where results is an array or an object with bots. */
export async function getBots(): Promise<Bot[]> {
  return parseResults(botListAnswerSchema, await api.get<unknown>('/api/bots'), BOTS_LOAD_FAILED);
}

export const botsQueryOptions = () =>
  queryOptions({ queryKey: ['bots'], queryFn: getBots, staleTime: BOTS_STALE_TIME });

export function useBots() {
  return useQuery(botsQueryOptions());
}
