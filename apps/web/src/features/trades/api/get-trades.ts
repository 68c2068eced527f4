import type { TradeRow } from '@kairos/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type Page, api, unwrapPage } from '../../../lib/api-client';

export type { TradeRow };

/** Spec §9: trades page size 50. */
export const TRADES_PAGE_SIZE = 50;

/** The filters of `GET /api/trades` (spec §7: the bot travels as `bot_id`). */
export interface TradesFilters {
  botId?: string;
  accountId?: string;
  /** 'BTC/USDT'. */
  symbol?: string;
  status?: TradeRow['status'];
  from?: string;
  to?: string;
  page?: number;
  pageSize?: number;
}

export async function getTrades(filters: TradesFilters = {}): Promise<Page<TradeRow>> {
  const page = filters.page ?? 1;
  const pageSize = filters.pageSize ?? TRADES_PAGE_SIZE;
  const body = await api.get<unknown>('/api/trades', {
    params: {
      bot_id: filters.botId,
      account_id: filters.accountId,
      symbol: filters.symbol,
      status: filters.status,
      from: filters.from,
      to: filters.to,
      page,
      pageSize,
    },
  });
  return unwrapPage<TradeRow>(body, { page, pageSize });
}

/**
 * Every trade query lives under `['trades', …]`: a live `trade` or `order` event invalidates
 * `['trades']` and so refreshes lists and details at once.
 */
/** Lists only (not details): after a change to one trade, the lists re-read what they show. */
export const tradesListKey = ['trades', 'list'] as const;

export const tradesQueryOptions = (filters: TradesFilters = {}) =>
  queryOptions({
    queryKey: [...tradesListKey, filters],
    queryFn: () => getTrades(filters),
    placeholderData: keepPreviousData,
  });

/** `refetchInterval`: read again every so many ms while shown (open trades: their current price). */
export function useTrades(
  filters: TradesFilters = {},
  { refetchInterval }: { refetchInterval?: number } = {},
) {
  return useQuery({ ...tradesQueryOptions(filters), refetchInterval });
}
