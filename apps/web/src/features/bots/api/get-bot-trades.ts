import { type TradeRow, tradeRowSchema } from '@kairos/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type Page, api, unwrapPage } from '../../../lib/api-client';
import { OPEN_TRADE_REFRESH_MS } from '../../trades/components/open-position-figures';

export type { TradeRow };

/** Spec §7, §9: trades page size 50. */
export const TRADES_PAGE_SIZE = 50;

export async function getBotTrades(
  id: string,
  page: number,
  pageSize = TRADES_PAGE_SIZE,
): Promise<Page<TradeRow>> {
  const body = await api.get<unknown>(`/api/bots/${encodeURIComponent(id)}/trades`, {
    params: { page, pageSize },
  });
  return unwrapPage(body, { page, pageSize }, tradeRowSchema);
}

export const botTradesQueryOptions = (id: string, page: number) =>
  queryOptions({
    queryKey: ['bots', id, 'trades', { page }],
    queryFn: () => getBotTrades(id, page),
    placeholderData: keepPreviousData,
  });

/** While the page shows an open trade, it is read again every few seconds (its current price moves). */
export function useBotTrades(id: string, page: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    ...botTradesQueryOptions(id, page),
    enabled,
    refetchInterval: (query) =>
      query.state.data?.items.some((trade) => trade.status === 'open' || trade.status === 'closing')
        ? OPEN_TRADE_REFRESH_MS
        : false,
  });
}
