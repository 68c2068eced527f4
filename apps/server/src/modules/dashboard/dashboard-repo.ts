import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';

type Rows<T> = { rows: T[] };

/** One end of a range: an instant, or a date's midnight in the user's zone (`nextDay`: the midnight after). */
export type RangeBound = { date?: string; instant?: Date; nextDay?: boolean };

/** What every section is scoped to: the user (always), optionally an account or a bot, and the range. */
export type DashboardScope = {
  userId: string;
  accountId?: string;
  botId?: string;
  /** The user's time zone: days start at its midnight. */
  tz: string;
  from: RangeBound;
  to: RangeBound;
};

export type DashboardDayRow = { date: string; pnl: string; notional: string; trades: number; wins: number };
export type EquityDayRow = { date: string; value: string };
export type AccountBalanceRow = {
  id: string;
  nickname: string;
  exchange: string;
  sandbox: boolean;
  balance: string;
};
export type OpenTradeProtectionRow = { unprotected: number; venue_stop_refused: number };
export type BotCapitalRow = {
  id: string;
  nickname: string;
  sandbox: boolean;
  deployed: string;
  open_trades: number;
};

function boundary(b: RangeBound, tz: string): SQL {
  if (b.instant) return sql`${b.instant.toISOString()}::timestamptz`;
  const start = sql`(${b.date}::date::timestamp AT TIME ZONE ${tz})`;
  return b.nextDay ? sql`(${start} + interval '1 day')` : start;
}

function range(scope: DashboardScope) {
  return { from: boundary(scope.from, scope.tz), to: boundary(scope.to, scope.tz) };
}

export type DashboardRepo = ReturnType<typeof createDashboardRepo>;

/** DESIGN §7: the dashboard's SQL, over indexed columns, scoped to the user in the query itself. */
export function createDashboardRepo(db: Database) {
  return {
    async accountOwned(userId: string, accountId: string): Promise<boolean> {
      const r = (await db.execute(
        sql`SELECT 1 FROM trading_accounts WHERE id = ${accountId} AND user_id = ${userId} AND archived_at IS NULL`,
      )) as Rows<unknown>;
      return r.rows.length > 0;
    },

    async botOwned(userId: string, botId: string): Promise<boolean> {
      const r = (await db.execute(
        sql`SELECT 1 FROM bots WHERE id = ${botId} AND user_id = ${userId}`,
      )) as Rows<unknown>;
      return r.rows.length > 0;
    },

    /** The range's two ends as instants. */
    async bounds(scope: DashboardScope): Promise<{ from: Date; to: Date }> {
      const { from, to } = range(scope);
      const bounds = (await db.execute(sql`SELECT ${from} AS "from", ${to} AS "to"`)) as Rows<{
        from: Date;
        to: Date;
      }>;
      return bounds.rows[0]!;
    },

    /**
     * Realised PnL, notional, trades and wins per day of the user's zone. The PnL is the ledger's (issue 19):
     * the booked PnL events of the user's trades and, over all their accounts and bots, the admin's
     * adjustments, by when the money moved (their hourly rollup, `ledger_pnl_hourly`); a trade's row changed
     * or deleted behind the books' back moves nothing. Notional, trades and wins (closed trades by close time)
     * come from the trades' hourly rollup. Days with a closed trade or booked money only.
     */
    async dailyTotals(scope: DashboardScope): Promise<DashboardDayRow[]> {
      const { from, to } = range(scope);
      const { tz } = scope;
      const rollupFilter = sql`h.user_id = ${scope.userId} AND h.hour >= date_trunc('hour', ${from}) AND h.hour < ${to}
        ${scope.accountId ? sql`AND h.trading_account_id = ${scope.accountId}` : sql``}
        ${scope.botId ? sql`AND h.bot_id = ${scope.botId}` : sql``}`;
      // Hours first (one row per hour, whatever the number of bots), then days in the user's zone:
      // the zone conversion and formatting then run on 24 rows a day instead of on every bot's row.
      const r = (await db.execute(sql`
              WITH closed AS (
                SELECT to_char(date_trunc('day', hours.hour AT TIME ZONE ${tz}), 'YYYY-MM-DD') AS date,
                       sum(hours.notional) AS notional, sum(hours.trades) AS trades, sum(hours.wins) AS wins
                FROM (
                  SELECT h.hour, sum(h.notional) AS notional, sum(h.trades) AS trades, sum(h.wins) AS wins
                  FROM trade_pnl_hourly h WHERE ${rollupFilter}
                  GROUP BY h.hour
                ) hours
                GROUP BY 1 HAVING sum(hours.trades) > 0
              ), booked AS (
                -- The ledger's rollup (an adjustment is on no account and no bot: the user's total only).
                SELECT to_char(date_trunc('day', hours.hour AT TIME ZONE ${tz}), 'YYYY-MM-DD') AS date,
                       sum(hours.pnl) AS pnl
                FROM (
                  SELECT h.hour, sum(h.pnl) AS pnl FROM ledger_pnl_hourly h WHERE ${rollupFilter}
                  GROUP BY h.hour
                ) hours
                GROUP BY 1
              )
              SELECT coalesce(c.date, b.date) AS date, coalesce(b.pnl, 0)::text AS pnl,
                     coalesce(c.notional, 0)::text AS notional, coalesce(c.trades, 0)::int AS trades,
                     coalesce(c.wins, 0)::int AS wins
              FROM closed c FULL JOIN booked b ON b.date = c.date
              WHERE c.date IS NOT NULL OR b.pnl <> 0
              ORDER BY 1`)) as Rows<DashboardDayRow>;
      return r.rows;
    },

    /** Total equity of the user's accounts (or one) at the end of each day: each account's last snapshot. */
    async equityByDay(scope: DashboardScope): Promise<EquityDayRow[]> {
      const { from, to } = range(scope);
      const { tz } = scope;
      const r = (await db.execute(sql`
              WITH days AS (
                SELECT d::date AS day FROM generate_series(
                  date_trunc('day', ${from} AT TIME ZONE ${tz}),
                  date_trunc('day', (${to} - interval '1 microsecond') AT TIME ZONE ${tz}),
                  interval '1 day') d
              ), accounts AS (
                -- A deleted (archived) account counts on the days that began before it was deleted.
                SELECT id, archived_at FROM trading_accounts WHERE user_id = ${scope.userId}
                ${scope.accountId ? sql`AND id = ${scope.accountId}` : sql``}
              )
              SELECT to_char(days.day, 'YYYY-MM-DD') AS date, sum(s.equity)::text AS value
              FROM days JOIN accounts
                ON accounts.archived_at IS NULL OR (days.day::timestamp AT TIME ZONE ${tz}) < accounts.archived_at
              JOIN LATERAL (
                SELECT equity FROM balance_snapshots
                WHERE trading_account_id = accounts.id AND at < ((days.day + 1)::timestamp AT TIME ZONE ${tz})
                ORDER BY at DESC LIMIT 1
              ) s ON TRUE
              GROUP BY days.day ORDER BY days.day`)) as Rows<EquityDayRow>;
      return r.rows;
    },

    /** The user's accounts (or one) with their USDT balance, largest first. */
    async balances(scope: Pick<DashboardScope, 'userId' | 'accountId'>): Promise<AccountBalanceRow[]> {
      const r = (await db.execute(sql`
              SELECT id, nickname, exchange, sandbox, usdt_balance::text AS balance FROM trading_accounts
              WHERE user_id = ${scope.userId} AND archived_at IS NULL
                ${scope.accountId ? sql`AND id = ${scope.accountId}` : sql``}
              ORDER BY usdt_balance DESC, created_at`)) as Rows<AccountBalanceRow>;
      return r.rows;
    },

    /**
     * The user's open trades holding something (entry fills − exit fills − a long's fees in the coin bought, as
     * the engine's `heldQuantity`) with no stop price, and those whose stop the venue refused: none resting at the
     * stop price and the latest placement rejected (issue 18). Every account and bot, whatever the filters.
     */
    async openTradeProtection(userId: string): Promise<OpenTradeProtectionRow> {
      const r = (await db.execute(sql`
              SELECT count(*) FILTER (WHERE t.stop_loss_price IS NULL)::int AS unprotected,
                     count(*) FILTER (WHERE t.stop_loss_price IS NOT NULL
                       AND NOT EXISTS (SELECT 1 FROM venue_stops s WHERE s.trade_id = t.id
                                       AND s.status = 'open' AND s.trigger_price = t.stop_loss_price)
                       AND (SELECT s.status FROM venue_stops s WHERE s.trade_id = t.id
                            ORDER BY s.created_at DESC, s.client_order_id DESC LIMIT 1) = 'rejected'
                     )::int AS venue_stop_refused
              FROM trades t
              JOIN LATERAL (
                SELECT coalesce(sum(CASE WHEN o.side = (CASE t.side WHEN 'long' THEN 'buy' ELSE 'sell' END)
                                         THEN f.amount ELSE -f.amount END), 0)
                     - CASE WHEN t.side = 'long'
                            THEN coalesce(sum(f.fee) FILTER (WHERE f.fee_currency = split_part(t.symbol, '/', 1)), 0)
                            ELSE 0 END AS held
                FROM fills f JOIN orders o ON o.id = f.order_id WHERE f.trade_id = t.id
              ) h ON TRUE
              WHERE t.user_id = ${userId} AND t.status = 'open' AND h.held > 0`)) as Rows<OpenTradeProtectionRow>;
      return r.rows[0] ?? { unprotected: 0, venue_stop_refused: 0 };
    },

    /** The `topN` bots with the most capital in open trades. */
    async capitalByBot(
      scope: Pick<DashboardScope, 'userId' | 'accountId' | 'botId'>,
      topN: number,
    ): Promise<BotCapitalRow[]> {
      const r = (await db.execute(sql`
              SELECT b.id, b.nickname, a.sandbox,
                     coalesce(sum(t.entry_notional), 0)::text AS deployed, count(t.id)::int AS open_trades
              FROM bots b
              JOIN trading_accounts a ON a.id = b.trading_account_id
              LEFT JOIN trades t ON t.bot_id = b.id AND t.status IN ('open', 'closing')
              WHERE b.user_id = ${scope.userId}
              ${scope.accountId ? sql`AND b.trading_account_id = ${scope.accountId}` : sql``}
              ${scope.botId ? sql`AND b.id = ${scope.botId}` : sql``}
              GROUP BY b.id, a.sandbox ORDER BY coalesce(sum(t.entry_notional), 0) DESC, b.created_at LIMIT ${topN}`)) as Rows<BotCapitalRow>;
      return r.rows;
    },
  };
}
