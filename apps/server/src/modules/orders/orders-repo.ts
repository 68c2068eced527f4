import { and, count, desc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import { LIVE_ORDER_STATES } from '@kairos/core';
import type { Database } from '../../db/client';
import { bots, orders, trades, tradingAccounts } from '../../db/schema/index';

export type OrderListFilters = { liveOnly: boolean; accountId?: string };

/** The user's orders as they read them (issue 21): every query is scoped to the owner, hidden trades left out. */
export function createOrdersRepo(db: Database) {
  return {
    /** The user's orders, newest first, with their trade's status, bot and account names; paged. */
    async listOwned(userId: string, filters: OrderListFilters, page: number, pageSize: number) {
      const where: SQL[] = [eq(orders.userId, userId), eq(trades.userId, userId), isNull(trades.hiddenAt)];
      if (filters.liveOnly) where.push(inArray(orders.status, [...LIVE_ORDER_STATES]));
      if (filters.accountId) where.push(eq(orders.tradingAccountId, filters.accountId));
      const [rows, [total]] = await Promise.all([
        db
          .select({
            order: orders,
            tradeStatus: trades.status,
            botId: trades.botId,
            botName: bots.nickname,
            accountName: tradingAccounts.nickname,
            sandbox: tradingAccounts.sandbox,
          })
          .from(orders)
          .innerJoin(trades, eq(trades.id, orders.tradeId))
          .innerJoin(tradingAccounts, eq(tradingAccounts.id, orders.tradingAccountId))
          .leftJoin(bots, eq(bots.id, trades.botId))
          .where(and(...where))
          .orderBy(desc(orders.createdAt), desc(orders.id))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        db
          .select({ n: count() })
          .from(orders)
          .innerJoin(trades, eq(trades.id, orders.tradeId))
          .where(and(...where)),
      ]);
      return { rows, total: total?.n ?? 0 };
    },
  };
}

export type OrdersRepo = ReturnType<typeof createOrdersRepo>;
export type OwnedOrderRow = Awaited<ReturnType<OrdersRepo['listOwned']>>['rows'][number];
