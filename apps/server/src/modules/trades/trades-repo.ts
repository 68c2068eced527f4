import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client';
import { bots, fills, orders, trades } from '../../db/schema/index';

export type TradeDbRow = typeof trades.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type FillRow = typeof fills.$inferSelect;
export type OrderState = OrderRow['status'];

export const LIVE_ORDER_STATES: OrderState[] = ['submitted', 'open', 'partially_filled', 'unknown'];

/** SQL for trades, their orders and fills — the engine's ledger of what happened on venues. */
export function createTradesRepo(db: Database) {
  return {
    async findById(id: string): Promise<TradeDbRow | undefined> {
      const [row] = await db.select().from(trades).where(eq(trades.id, id));
      return row;
    },

    async findOpenForBot(botId: string): Promise<TradeDbRow | undefined> {
      const [row] = await db
        .select()
        .from(trades)
        .where(and(eq(trades.botId, botId), inArray(trades.status, ['open', 'closing'])));
      return row;
    },

    async findOrderByClientId(accountId: string, clientOrderId: string): Promise<OrderRow | undefined> {
      const [row] = await db
        .select()
        .from(orders)
        .where(and(eq(orders.tradingAccountId, accountId), eq(orders.clientOrderId, clientOrderId)));
      return row;
    },

    /**
     * A new trade and its entry order in one transaction, committed before any venue call.
     * Returns undefined when the bot already holds an open trade (unique index).
     */
    async createTradeWithEntry(
      trade: typeof trades.$inferInsert,
      order: Omit<typeof orders.$inferInsert, 'tradeId'>,
    ): Promise<{ trade: TradeDbRow; order: OrderRow } | undefined> {
      return db.transaction(async (tx) => {
        const [t] = await tx.insert(trades).values(trade).onConflictDoNothing().returning();
        if (!t) return undefined;
        const [o] = await tx
          .insert(orders)
          .values({ ...order, tradeId: t.id })
          .returning();
        return { trade: t, order: o! };
      });
    },

    /** Inserts an order row unless its client order id exists; either way returns the row and whether it is new. */
    async insertOrder(values: typeof orders.$inferInsert): Promise<{ order: OrderRow; created: boolean }> {
      const [row] = await db.insert(orders).values(values).onConflictDoNothing().returning();
      if (row) return { order: row, created: true };
      const existing = await this.findOrderByClientId(values.tradingAccountId, values.clientOrderId);
      return { order: existing!, created: false };
    },

    async updateOrder(
      id: string,
      values: Partial<typeof orders.$inferInsert>,
      tx: DbOrTx = db,
    ): Promise<OrderRow> {
      const [row] = await tx
        .update(orders)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(orders.id, id))
        .returning();
      return row!;
    },

    /** Fills are keyed by the venue's trade id: the same fill seen twice is stored once. */
    async insertFills(rows: (typeof fills.$inferInsert)[]): Promise<number> {
      if (rows.length === 0) return 0;
      const inserted = await db.insert(fills).values(rows).onConflictDoNothing().returning({ id: fills.id });
      return inserted.length;
    },

    async ordersOfTrade(tradeId: string): Promise<OrderRow[]> {
      return db.select().from(orders).where(eq(orders.tradeId, tradeId)).orderBy(orders.createdAt);
    },

    async fillsOfTrade(tradeId: string): Promise<(FillRow & { side: 'buy' | 'sell'; role: string })[]> {
      const rows = await db
        .select({ fill: fills, side: orders.side, role: orders.role })
        .from(fills)
        .innerJoin(orders, eq(orders.id, fills.orderId))
        .where(eq(fills.tradeId, tradeId))
        .orderBy(fills.at);
      return rows.map((r) => ({ ...r.fill, side: r.side, role: r.role }));
    },

    async updateTrade(id: string, values: Partial<typeof trades.$inferInsert>): Promise<TradeDbRow> {
      const [row] = await db
        .update(trades)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(trades.id, id))
        .returning();
      return row!;
    },

    async setBotPosition(botId: string, position: 'long' | 'short' | 'out'): Promise<void> {
      await db.update(bots).set({ position, updatedAt: new Date() }).where(eq(bots.id, botId));
    },

    /** Orders whose venue state is not final: what reconciliation re-reads. */
    async liveOrders(accountId?: string): Promise<OrderRow[]> {
      return db
        .select()
        .from(orders)
        .where(
          and(
            inArray(orders.status, LIVE_ORDER_STATES),
            accountId ? eq(orders.tradingAccountId, accountId) : sql`TRUE`,
          ),
        );
    },
  };
}

export type TradesRepo = ReturnType<typeof createTradesRepo>;
