import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { trades, tradingAccounts, venueStops } from '../db/schema/index';
import type { AccountRow } from '../exchange/gateway-provider';
import { LIVE_STOP_STATES } from './venue-stops-repo';

/**
 * What the stop-loss watch re-reads every second (issue 18): the open trades with a stop, only the columns
 * it needs — 10,000 whole trade and account rows a second were most of a busy worker's database time. The
 * accounts come from a cache, re-read when their row changed (`updated_at`: keys rotated, sandbox toggled).
 */
export function createStopWatchRepo(db: Database) {
  const accounts = new Map<string, AccountRow>();

  return {
    async openTradesWithStops() {
      const rows = await db
        .select({
          id: trades.id,
          symbol: trades.symbol,
          side: trades.side,
          stopLossPrice: trades.stopLossPrice,
          tradingAccountId: trades.tradingAccountId,
          accountUpdatedAt: tradingAccounts.updatedAt,
          restsOnVenue: sql<boolean>`EXISTS (SELECT 1 FROM ${venueStops} WHERE ${venueStops.tradeId} = ${trades.id}
            AND ${inArray(venueStops.status, [...LIVE_STOP_STATES])}
            AND ${venueStops.triggerPrice} = ${trades.stopLossPrice})`,
        })
        .from(trades)
        .innerJoin(tradingAccounts, eq(tradingAccounts.id, trades.tradingAccountId))
        .where(and(eq(trades.status, 'open'), isNotNull(trades.stopLossPrice)));
      const stale = new Set<string>();
      for (const r of rows) {
        if (accounts.get(r.tradingAccountId)?.updatedAt.getTime() !== r.accountUpdatedAt.getTime())
          stale.add(r.tradingAccountId);
      }
      if (stale.size > 0) {
        const fresh = await db
          .select()
          .from(tradingAccounts)
          .where(inArray(tradingAccounts.id, [...stale]));
        for (const a of fresh) accounts.set(a.id, a);
      }
      const watched = new Set(rows.map((r) => r.tradingAccountId));
      for (const id of accounts.keys()) if (!watched.has(id)) accounts.delete(id);
      return rows.flatMap(({ accountUpdatedAt: _, restsOnVenue, ...trade }) => {
        const account = accounts.get(trade.tradingAccountId);
        return account ? [{ trade, account, restsOnVenue }] : [];
      });
    },
  };
}
