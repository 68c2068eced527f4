import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { bots, orders, strategies, trades, tradingAccounts, users } from '../../db/schema/index';
import { LIVE_ORDER_STATES, type OrderRow } from '../../engine/trades-repo';

export type StrategyRow = typeof strategies.$inferSelect;
export type BotRow = typeof bots.$inferSelect;
export type AccountRow = typeof tradingAccounts.$inferSelect;

export type StrategyFigures = {
  botsTotal: number;
  botsActive: number;
  activeTrades: number;
  openOrders: number;
};

const liveStates = sql.join(
  LIVE_ORDER_STATES.map((s) => sql`${s}`),
  sql`, `,
);

/** Figures per strategy, over its bots (whoever owns them): bots, open trades, resting orders. */
const figureColumns = {
  botsTotal: sql<number>`(SELECT count(*)::int FROM bots b WHERE b.strategy_id = ${strategies.id})`,
  botsActive: sql<number>`(SELECT count(*)::int FROM bots b WHERE b.strategy_id = ${strategies.id} AND b.is_active)`,
  activeTrades: sql<number>`(SELECT count(*)::int FROM trades t JOIN bots b ON b.id = t.bot_id
    WHERE b.strategy_id = ${strategies.id} AND t.status IN ('open', 'closing'))`,
  openOrders: sql<number>`(SELECT count(*)::int FROM orders o JOIN trades t ON t.id = o.trade_id
    JOIN bots b ON b.id = t.bot_id WHERE b.strategy_id = ${strategies.id} AND o.status IN (${liveStates}))`,
};

export type StrategyWithFigures = {
  strategy: StrategyRow;
  ownerEmail: string;
  figures: StrategyFigures;
};

/** Trade control reads every user's bots of a strategy: admin-only by construction (routes check the role). */
export function createTradeControlRepo(db: Database) {
  const selectStrategies = () =>
    db
      .select({ strategy: strategies, ownerEmail: users.email, ...figureColumns })
      .from(strategies)
      .innerJoin(users, eq(users.id, strategies.ownerId))
      .$dynamic();
  type Selected = Awaited<ReturnType<typeof selectStrategies>>[number];
  const shape = (r: Selected): StrategyWithFigures => ({
    strategy: r.strategy,
    ownerEmail: r.ownerEmail,
    figures: {
      botsTotal: Number(r.botsTotal),
      botsActive: Number(r.botsActive),
      activeTrades: Number(r.activeTrades),
      openOrders: Number(r.openOrders),
    },
  });

  return {
    async listStrategies(): Promise<StrategyWithFigures[]> {
      return selectStrategies()
        .orderBy(strategies.createdAt, strategies.id)
        .then((rows) => rows.map(shape));
    },

    async findStrategy(id: string): Promise<StrategyWithFigures | undefined> {
      const [row] = await selectStrategies().where(eq(strategies.id, id));
      return row ? shape(row) : undefined;
    },

    /** Every bot on the strategy with its account, owner, open trade (if any) and resting order count. */
    async botsOfStrategy(strategyId: string) {
      const rows = await db
        .select({
          bot: bots,
          account: tradingAccounts,
          userEmail: users.email,
          trade: trades,
          openOrders: sql<number>`(SELECT count(*)::int FROM orders o JOIN trades t2 ON t2.id = o.trade_id
            WHERE t2.bot_id = ${bots.id} AND o.status IN (${liveStates}))`,
        })
        .from(bots)
        .innerJoin(tradingAccounts, eq(tradingAccounts.id, bots.tradingAccountId))
        .innerJoin(users, eq(users.id, bots.userId))
        .leftJoin(trades, and(eq(trades.botId, bots.id), inArray(trades.status, ['open', 'closing'])))
        .where(eq(bots.strategyId, strategyId))
        .orderBy(users.email, bots.createdAt, bots.id);
      return rows.map((r) => ({ ...r, openOrders: Number(r.openOrders) }));
    },

    /** A bot with its account, whoever owns it. */
    async findBot(botId: string): Promise<{ bot: BotRow; account: AccountRow } | undefined> {
      const [row] = await db
        .select({ bot: bots, account: tradingAccounts })
        .from(bots)
        .innerJoin(tradingAccounts, eq(tradingAccounts.id, bots.tradingAccountId))
        .where(eq(bots.id, botId));
      return row;
    },

    /** Pauses or resumes a strategy that is not retired; false when it is retired (or gone). */
    async setStrategyStatus(id: string, status: 'active' | 'paused'): Promise<boolean> {
      const rows = await db
        .update(strategies)
        .set({ status, updatedAt: new Date() })
        .where(and(eq(strategies.id, id), ne(strategies.status, 'retired')))
        .returning({ id: strategies.id });
      return rows.length > 0;
    },

    /** Switches a bot off (its position stays, as a user's pause leaves it); false when it already was. */
    async pauseBot(botId: string): Promise<boolean> {
      const rows = await db
        .update(bots)
        .set({ isActive: false, updatedAt: new Date() })
        .where(and(eq(bots.id, botId), eq(bots.isActive, true)))
        .returning({ id: bots.id });
      return rows.length > 0;
    },

    /** Orders of the bot's trades that the venue may still fill. */
    async liveOrdersOfBot(botId: string): Promise<OrderRow[]> {
      return db
        .select({ order: orders })
        .from(orders)
        .innerJoin(trades, eq(trades.id, orders.tradeId))
        .where(and(eq(trades.botId, botId), inArray(orders.status, [...LIVE_ORDER_STATES])))
        .orderBy(orders.createdAt)
        .then((rows) => rows.map((r) => r.order));
    },
  };
}

export type TradeControlRepo = ReturnType<typeof createTradeControlRepo>;
