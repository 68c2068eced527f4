import { and, count, desc, eq, gte, inArray, isNull, lte, not, type SQL } from 'drizzle-orm';
import { ACTIVE_TRADE_STATUSES } from '@kairos/core';
import type { Database } from '../../db/client';
import { trades } from '../../db/schema/index';
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
