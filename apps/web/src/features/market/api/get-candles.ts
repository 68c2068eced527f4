import type { candleSchema, candlesQuery } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, unwrapResults } from '../../../lib/api-client';
import { symbolPath } from './market-symbol';

export type Candle = z.infer<typeof candleSchema>;
export type Timeframe = z.output<typeof candlesQuery>['timeframe'];

/** The time frames the chart offers (the server knows more). */
export const CHART_TIMEFRAMES = ['5m', '15m', '1h', '4h', '1d'] as const satisfies readonly Timeframe[];
export const CANDLE_LIMIT = 200;

const REFRESH_MS: Record<string, number> = { '5m': 15_000, '15m': 30_000 };

/** `GET /market/{symbol}/candles?timeframe&limit`: oldest first, `time` in epoch milliseconds. */
export async function getCandles(
  symbol: string,
  timeframe: Timeframe,
  accountId?: string,
  limit = CANDLE_LIMIT,
): Promise<Candle[]> {
  const results = unwrapResults<unknown>(
    await api.get<unknown>(`/market/${symbolPath(symbol)}/candles`, {
      params: { timeframe, limit, accountId },
    }),
  );
  return Array.isArray(results) ? (results as Candle[]) : [];
}

export const candlesQueryOptions = (symbol: string, timeframe: Timeframe, accountId?: string) =>
  queryOptions({
    queryKey: ['market', symbol, 'candles', timeframe, accountId ?? null],
    queryFn: () => getCandles(symbol, timeframe, accountId),
    refetchInterval: REFRESH_MS[timeframe] ?? 60_000,
  });

export function useCandles(symbol: string, timeframe: Timeframe, accountId?: string) {
  return useQuery({ ...candlesQueryOptions(symbol, timeframe, accountId), enabled: symbol !== '' });
}
