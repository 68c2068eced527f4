import type { orderBookSchema } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, unwrapResults } from '../../../lib/api-client';
import { symbolPath } from './market-symbol';

export type OrderBook = z.infer<typeof orderBookSchema>;

export const ORDER_BOOK_REFRESH_MS = 3_000;

/** `GET /market/{symbol}/orderbook`: bids and asks as [price, amount], best first. */
export async function getOrderBook(symbol: string, accountId?: string): Promise<OrderBook> {
  const book = unwrapResults<Partial<OrderBook> | null>(
    await api.get<unknown>(`/market/${symbolPath(symbol)}/orderbook`, { params: { accountId } }),
  );
  return {
    symbol: book?.symbol ?? symbol,
    bids: Array.isArray(book?.bids) ? book.bids : [],
    asks: Array.isArray(book?.asks) ? book.asks : [],
    timestamp: book?.timestamp ?? Date.now(),
  };
}

export const orderBookQueryOptions = (symbol: string, accountId?: string) =>
  queryOptions({
    queryKey: ['market', symbol, 'orderbook', accountId ?? null],
    queryFn: () => getOrderBook(symbol, accountId),
    refetchInterval: ORDER_BOOK_REFRESH_MS,
  });

export function useOrderBook(symbol: string, accountId?: string) {
  return useQuery({ ...orderBookQueryOptions(symbol, accountId), enabled: symbol !== '' });
}
