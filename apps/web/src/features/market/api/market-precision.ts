import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { MarketPrecision } from '../../../lib/money';
import { type MarketPair, marketPairsQueryOptions } from './get-market-pairs';

/** A market's precision by account and symbol; undefined while its venue's markets load (or for none). */
export type PrecisionOf = (accountId: string, symbol: string) => MarketPrecision | undefined;

const keyOf = (accountId: string, symbol: string) => `${accountId}|${symbol.toUpperCase()}`;
const pairsOf = (results: { data?: MarketPair[] }[]) => results.map((result) => result.data);

/**
 * The amount steps and price ticks of the markets of `accountIds` (one `GET /market/pairs` per account,
 * cached five minutes and shared with the Trading screen), so a table rounds each quantity to its market.
 */
export function useMarketPrecision(accountIds: readonly string[]): PrecisionOf {
  const ids = [...new Set(accountIds)].sort();
  const pairs = useQueries({
    queries: ids.map((accountId) => marketPairsQueryOptions(accountId)),
    combine: pairsOf,
  });
  const key = ids.join(',');
  return useMemo(() => {
    const known = new Map<string, MarketPrecision>();
    key.split(',').forEach((accountId, index) => {
      for (const pair of pairs[index] ?? [])
        known.set(keyOf(accountId, pair.symbol), { amountStep: pair.amountStep, priceTick: pair.priceTick });
    });
    return (accountId, symbol) => known.get(keyOf(accountId, symbol));
    // `combine` runs again (a new `pairs`) only when a query's result changed.
  }, [key, pairs]);
}
