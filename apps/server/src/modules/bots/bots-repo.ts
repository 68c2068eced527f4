import { and, count, desc, eq, ne, or, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client';
import { bots, trades } from '../../db/schema/index';

export type BotRow = typeof bots.$inferSelect;

/** A bot with what its screens show: strategy, account, open trade and this month's realised profit. */
export type BotView = BotRow & {
  strategyNickname: string;
  strategyKey: string;
  strategyTradeCurrency: string;
  strategyTimeFrame: string;
  accountNickname: string;
  accountExchange: string;
  accountSandbox: boolean;
  accountUsdtBalance: string;
  openTrades: number;
  monthProfit: string;
};

// The bots screens' one query, as a named prepared statement: parsed and planned once per connection.
const VIEW_SQL = `
  SELECT b.*, s.nickname AS strategy_nickname, s.strategy_key, s.trade_currency AS strategy_trade_currency,
         s.time_frame AS strategy_time_frame, a.nickname AS account_nickname, a.exchange AS account_exchange,
         a.sandbox AS account_sandbox, a.usdt_balance::text AS account_usdt_balance,
         coalesce(t.open_trades, 0) AS open_trades, coalesce(p.month_profit, 0)::text AS month_profit
  FROM bots b
  JOIN strategies s ON s.id = b.strategy_id
  JOIN trading_accounts a ON a.id = b.trading_account_id
  LEFT JOIN LATERAL (
    SELECT count(*) AS open_trades FROM trades WHERE bot_id = b.id AND status IN ('open', 'closing')
  ) t ON TRUE
  -- This month's profit is the ledger's (issue 19): the PnL booked on the bot's trades since the 1st, from
  -- its hourly rollup (an adjustment is on no bot).
  LEFT JOIN LATERAL (
    SELECT sum(h.pnl) AS month_profit FROM ledger_pnl_hourly h
    WHERE h.bot_id = b.id AND h.hour >= date_trunc('month', now()) AND h.user_id = b.user_id
  ) p ON TRUE
  WHERE b.user_id = $1 AND ($2::uuid IS NULL OR b.id = $2::uuid)
  ORDER BY b.created_at DESC`;

function toView(r: Record<string, unknown>): BotView {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    tradingAccountId: r.trading_account_id as string,
    strategyId: r.strategy_id as string,
    nickname: r.nickname as string,
    isActive: r.is_active as boolean,
    tradeCurrency: r.trade_currency as string,
    stableCoin: r.stable_coin as string,
    portfolioPercent: (r.portfolio_percent as string | null) ?? null,
    fixedAmount: (r.fixed_amount as string | null) ?? null,
    leveragePercent: r.leverage_percent as string,
    marginMode: r.margin_mode as BotRow['marginMode'],
    monthlyGoalPercent: (r.monthly_goal_percent as string | null) ?? null,
    position: r.position as BotRow['position'],
    createdAt: new Date(r.created_at as string),
    updatedAt: new Date(r.updated_at as string),
    strategyNickname: r.strategy_nickname as string,
    strategyKey: r.strategy_key as string,
    strategyTradeCurrency: r.strategy_trade_currency as string,
    strategyTimeFrame: r.strategy_time_frame as string,
    accountNickname: r.account_nickname as string,
    accountExchange: r.account_exchange as string,
    accountSandbox: r.account_sandbox === true,
    accountUsdtBalance: r.account_usdt_balance as string,
    openTrades: Number(r.open_trades),
    monthProfit: r.month_profit as string,
  };
}

/**
 * Bot names are unique per account (trimmed, case-insensitive; issue 21). Without a unique index, the check
 * and the write run in one transaction holding a lock on the account's names: two at once cannot both pass.
 */
async function lockNames(tx: DbOrTx, accountId: string) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`bot-names:${accountId}`}))`);
}

async function nameTaken(tx: DbOrTx, accountId: string, nickname: string, excludeBotId?: string) {
  const [row] = await tx
    .select({ id: bots.id })
    .from(bots)
    .where(
      and(
        eq(bots.tradingAccountId, accountId),
        sql`lower(btrim(${bots.nickname})) = lower(btrim(${nickname}))`,
        excludeBotId ? ne(bots.id, excludeBotId) : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

export function createBotsRepo(db: Database) {
  return {
    async listViews(userId: string): Promise<BotView[]> {
      const res = await db.$client.query({ name: 'bots_view', text: VIEW_SQL, values: [userId, null] });
      return res.rows.map((r) => toView(r as Record<string, unknown>));
    },
    async findView(userId: string, id: string): Promise<BotView | undefined> {
      const res = await db.$client.query({ name: 'bots_view', text: VIEW_SQL, values: [userId, id] });
      return res.rows[0] ? toView(res.rows[0] as Record<string, unknown>) : undefined;
    },
    async findOwned(userId: string, id: string): Promise<BotRow | undefined> {
      const [row] = await db
        .select()
        .from(bots)
        .where(and(eq(bots.id, id), eq(bots.userId, userId)));
      return row;
    },
    /** Inserts the bot unless another on its account has its name: undefined then. */
    async insert(values: typeof bots.$inferInsert & { nickname: string }): Promise<BotRow | undefined> {
      return db.transaction(async (tx) => {
        await lockNames(tx, values.tradingAccountId);
        if (await nameTaken(tx, values.tradingAccountId, values.nickname)) return undefined;
        const [row] = await tx.insert(bots).values(values).returning();
        return row!;
      });
    },
    /** Updates the bot unless another on `accountId` (where it will be) has `nickname`: false then. */
    async updateNamed(
      id: string,
      accountId: string,
      nickname: string,
      values: Partial<typeof bots.$inferInsert>,
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        await lockNames(tx, accountId);
        if (await nameTaken(tx, accountId, nickname, id)) return false;
        await tx
          .update(bots)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(bots.id, id));
        return true;
      });
    },
    async update(id: string, values: Partial<typeof bots.$inferInsert>): Promise<void> {
      await db
        .update(bots)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(bots.id, id));
    },
    async remove(id: string): Promise<void> {
      await db.delete(bots).where(eq(bots.id, id));
    },
    /** Portfolio share already claimed on an account by the other bots. */
    async allocatedPercent(accountId: string, excludeBotId?: string): Promise<string> {
      const [row] = await db
        .select({ total: sql<string>`coalesce(sum(${bots.portfolioPercent}), 0)::text` })
        .from(bots)
        .where(
          and(eq(bots.tradingAccountId, accountId), excludeBotId ? ne(bots.id, excludeBotId) : undefined),
        );
      return row?.total ?? '0';
    },
    /** A bot on the account (not `excludeBotId`) whose margin mode is not `marginMode`. */
    async otherMarginMode(
      accountId: string,
      marginMode: 'isolated' | 'cross',
      excludeBotId?: string,
    ): Promise<{ nickname: string; marginMode: string } | undefined> {
      const [row] = await db
        .select({ nickname: bots.nickname, marginMode: bots.marginMode })
        .from(bots)
        .where(
          and(
            eq(bots.tradingAccountId, accountId),
            ne(bots.marginMode, marginMode),
            excludeBotId ? ne(bots.id, excludeBotId) : undefined,
          ),
        )
        .limit(1);
      return row;
    },
    /** The nickname of another bot trading `pair` on the account (active, or paused holding a position). */
    async activeOnPair(
      accountId: string,
      pair: { tradeCurrency: string; stableCoin: string },
      excludeBotId?: string,
    ): Promise<string | undefined> {
      const [row] = await db
        .select({ nickname: bots.nickname })
        .from(bots)
        .where(
          and(
            eq(bots.tradingAccountId, accountId),
            or(eq(bots.isActive, true), ne(bots.position, 'out')),
            eq(bots.tradeCurrency, pair.tradeCurrency),
            eq(bots.stableCoin, pair.stableCoin),
            excludeBotId ? ne(bots.id, excludeBotId) : undefined,
          ),
        )
        .limit(1);
      return row?.nickname;
    },
    async trades(botId: string, page: number, pageSize: number) {
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(trades)
          .where(eq(trades.botId, botId))
          .orderBy(desc(trades.openedAt))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        db.select({ n: count() }).from(trades).where(eq(trades.botId, botId)),
      ]);
      return { rows, total: total?.n ?? 0 };
    },
  };
}
export type BotsRepo = ReturnType<typeof createBotsRepo>;
