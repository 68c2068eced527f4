import { and, count, desc, eq, gte, inArray, isNull, lte, not, type SQL } from 'drizzle-orm';
import { ACTIVE_TRADE_STATUSES } from '@kairos/core';
import type { Database } from '../../db/client';
import { bots, fills, orders, trades, tradingAccounts } from '../../db/schema/index';
import type { TradeDbRow } from '../../engine/trades-repo';

export type TradeListFilters = {
  botId?: string;
  accountId?: string;
  symbol?: string;
  status?: TradeDbRow['status'];
  from?: Date;
  to?: Date;
};

/** Trades as their owner reads them: every query is scoped to the user (another user's id finds nothing). */
export function createOwnedTradesRepo(db: Database) {
  return {
    /** A trade only when it belongs to `userId` (another user's id, or a hidden trade, finds nothing). */
    async findOwned(userId: string, id: string): Promise<TradeDbRow | undefined> {
      const [row] = await db
        .select()
        .from(trades)
        .where(and(eq(trades.id, id), eq(trades.userId, userId), isNull(trades.hiddenAt)));
      return row;
    },

    /** The user's trades, newest first, filtered and paged. */
    async listOwned(userId: string, filters: TradeListFilters, page: number, pageSize: number) {
      const where: SQL[] = [eq(trades.userId, userId), isNull(trades.hiddenAt)];
      if (filters.botId) where.push(eq(trades.botId, filters.botId));
      if (filters.accountId) where.push(eq(trades.tradingAccountId, filters.accountId));
      if (filters.symbol) where.push(eq(trades.symbol, filters.symbol));
      if (filters.status) where.push(eq(trades.status, filters.status));
      if (filters.from) where.push(gte(trades.openedAt, filters.from));
      if (filters.to) where.push(lte(trades.openedAt, filters.to));
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(trades)
          .where(and(...where))
          .orderBy(desc(trades.openedAt), desc(trades.id))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        db
          .select({ n: count() })
          .from(trades)
          .where(and(...where)),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /**
     * What marking the user's open trades at the last price needs (issue 21): each trade's account, its bot's
     * leverage (null for a manual trade) and its fills (side from their order, for the held quantity).
     */
    async markInputs(userId: string, tradeIds: readonly string[]) {
      if (tradeIds.length === 0) return { rows: [], fills: [] };
      const owned = and(inArray(trades.id, [...tradeIds]), eq(trades.userId, userId));
      const [rows, tradeFills] = await Promise.all([
        db
          .select({ tradeId: trades.id, account: tradingAccounts, leveragePercent: bots.leveragePercent })
          .from(trades)
          .innerJoin(tradingAccounts, eq(tradingAccounts.id, trades.tradingAccountId))
          .leftJoin(bots, eq(bots.id, trades.botId))
          .where(owned),
        db
          .select({
            tradeId: fills.tradeId,
            side: orders.side,
            amount: fills.amount,
            fee: fills.fee,
            feeCurrency: fills.feeCurrency,
          })
          .from(fills)
          .innerJoin(orders, eq(orders.id, fills.orderId))
          .innerJoin(trades, eq(trades.id, fills.tradeId))
          .where(owned),
      ]);
      return { rows, fills: tradeFills };
    },

    /** The user's open trades (open or closing), newest first, within the account and bot filters, with names. */
    async openOwned(userId: string, filters: { accountId?: string; botId?: string }, limit: number) {
      const where: SQL[] = [
        eq(trades.userId, userId),
        isNull(trades.hiddenAt),
        inArray(trades.status, [...ACTIVE_TRADE_STATUSES]),
      ];
      if (filters.botId) where.push(eq(trades.botId, filters.botId));
      if (filters.accountId) where.push(eq(trades.tradingAccountId, filters.accountId));
      return db
        .select({
          trade: trades,
          botNickname: bots.nickname,
          accountNickname: tradingAccounts.nickname,
          sandbox: tradingAccounts.sandbox,
        })
        .from(trades)
        .innerJoin(tradingAccounts, eq(tradingAccounts.id, trades.tradingAccountId))
        .leftJoin(bots, eq(bots.id, trades.botId))
        .where(and(...where))
        .orderBy(desc(trades.openedAt), desc(trades.id))
        .limit(limit);
    },

    /**
     * A trade the user deletes is hidden (issue 19): gone from their screens, never from the books (its
     * orders, fills and PnL stay for the dashboard and billing). Never one still active; false when none.
     */
    async hideOwned(userId: string, id: string): Promise<boolean> {
      const hidden = await db
        .update(trades)
        .set({ hiddenAt: new Date(), updatedAt: new Date() })
        .where(
          and(
            eq(trades.id, id),
            eq(trades.userId, userId),
            isNull(trades.hiddenAt),
            not(inArray(trades.status, [...ACTIVE_TRADE_STATUSES])),
          ),
        )
        .returning({ id: trades.id });
      return hidden.length > 0;
    },
  };
}

export type OwnedTradesRepo = ReturnType<typeof createOwnedTradesRepo>;
