import { and, count, desc, eq, gte, lte, type SQL } from 'drizzle-orm';
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
    /** A trade only when it belongs to `userId` (another user's id finds nothing). */
    async findOwned(userId: string, id: string): Promise<TradeDbRow | undefined> {
      const [row] = await db
        .select()
        .from(trades)
        .where(and(eq(trades.id, id), eq(trades.userId, userId)));
      return row;
    },

    /** The user's trades, newest first, filtered and paged. */
    async listOwned(userId: string, filters: TradeListFilters, page: number, pageSize: number) {
      const where: SQL[] = [eq(trades.userId, userId)];
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

    /** Deletes the user's trade (orders and fills go with it); false when there was none. */
    async deleteOwned(userId: string, id: string): Promise<boolean> {
      const deleted = await db
        .delete(trades)
        .where(and(eq(trades.id, id), eq(trades.userId, userId)))
        .returning({ id: trades.id });
      return deleted.length > 0;
    },
  };
}

export type OwnedTradesRepo = ReturnType<typeof createOwnedTradesRepo>;
