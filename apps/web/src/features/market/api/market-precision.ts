import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { MarketPrecision } from '../../../lib/money';
import { type TradingAccount, tradingAccountsQueryOptions } from '../../accounts/api/get-trading-accounts';
import { type MarketPair, marketPairsQueryOptions } from './get-market-pairs';

/** A market's precision by account and symbol; undefined while its venue's markets load (or for none). */
export type PrecisionOf = (accountId: string, symbol: string) => MarketPrecision | undefined;

const keyOf = (accountId: string, symbol: string) => `${accountId}|${symbol.toUpperCase()}`;
const pairsOf = (results: { data?: MarketPair[] }[]) => results.map((result) => result.data);

/** What decides an account's markets: its venue, market type and whether it is a testnet. */
const venueOf = (account: TradingAccount) => `${account.exchange}|${account.marketType}|${account.sandbox}`;

/**
 * For each account, the account whose `GET /market/pairs` answers for it: accounts on one venue and market type
 * share one (the first of them by id), once the accounts list is in the cache; it is not fetched here (no extra
 * request), so until then each account asks for its own.
 */
export function marketSources(
  accountIds: readonly string[],
  accounts: readonly TradingAccount[] | undefined,
): Map<string, string> {
  const ids = [...new Set(accountIds)].sort();
  const byId = new Map(accounts?.map((account) => [account.id, account]));
  const firstOfVenue = new Map<string, string>();
  const sources = new Map<string, string>();
  for (const id of ids) {
    const account = byId.get(id);
    const venue = account ? venueOf(account) : `account:${id}`;
    if (!firstOfVenue.has(venue)) firstOfVenue.set(venue, id);
    sources.set(id, firstOfVenue.get(venue)!);
  }
  return sources;
}

/**
 * The amount steps and price ticks of the markets of `accountIds` (one `GET /market/pairs` per venue and market
 * type, cached five minutes and shared with the Trading screen), so a table rounds each quantity to its market.
 */
export function useMarketPrecision(accountIds: readonly string[]): PrecisionOf {
  // The accounts as another part of the screen loaded them: read from the cache, never fetched for this.
  const accounts = useQuery({ ...tradingAccountsQueryOptions(), enabled: false });
  const sources = marketSources(accountIds, accounts.data);
  const asked = [...new Set(sources.values())];
  const pairs = useQueries({
    queries: asked.map((accountId) => marketPairsQueryOptions(accountId)),
    combine: pairsOf,
  });
  const key = [...sources].map(([id, source]) => `${id}>${source}`).join(',');
  const askedKey = asked.join(',');
  return useMemo(() => {
    const bySource = new Map(askedKey.split(',').map((source, index) => [source, pairs[index]]));
    const known = new Map<string, MarketPrecision>();
    for (const entry of key ? key.split(',') : []) {
      const [accountId = '', source = ''] = entry.split('>');
      for (const pair of bySource.get(source) ?? [])
        known.set(keyOf(accountId, pair.symbol), { amountStep: pair.amountStep, priceTick: pair.priceTick });
    }
    return (accountId, symbol) => known.get(keyOf(accountId, symbol));
    // `combine` runs again (a new `pairs`) only when a query's result changed.
  }, [key, askedKey, pairs]);
}
