import type { tickerSchema } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, unwrapResults } from '../../../lib/api-client';
import { symbolPath } from './market-symbol';

export type Ticker = z.infer<typeof tickerSchema>;

export const TICKER_REFRESH_MS = 5_000;

/** `GET /market/{symbol}`: last price, 24 h change, high, low and volume. */
export async function getTicker(symbol: string, accountId?: string): Promise<Ticker> {
  return unwrapResults<Ticker>(
    await api.get<unknown>(`/market/${symbolPath(symbol)}`, { params: { accountId } }),
  );
}

export const tickerQueryOptions = (symbol: string, accountId?: string) =>
  queryOptions({
    queryKey: ['market', symbol, 'ticker', accountId ?? null],
    queryFn: () => getTicker(symbol, accountId),
    refetchInterval: TICKER_REFRESH_MS,
  });

export function useTicker(symbol: string, accountId?: string) {
  return useQuery({ ...tickerQueryOptions(symbol, accountId), enabled: symbol !== '' });
}
