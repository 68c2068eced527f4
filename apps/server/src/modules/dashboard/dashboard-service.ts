import { Decimal, toDecimal, type DecimalInput } from '@kairos/core';
import type { Dashboard, DashboardSection, Preferences } from '@kairos/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { ExchangeGateway } from '../../exchange/gateway';
import { NotFoundError } from '../../lib/errors';
import type { AuthedUser } from '../auth/auth-service';

type Rows<T> = { rows: T[] };

export type CurrencyInfo = Dashboard['currency'];

/**
 * Amounts are kept in USDT; a EUR display converts them at the paper venue's EUR/USDT price
 * and says so (`converted`, `rate`).
 */
export function createCurrencyConverter(marketData: ExchangeGateway) {
  let cached: { rate: Decimal; at: number } | undefined;
  return async function converterFor(currency: Preferences['currency']) {
    if (currency === 'USD') {
      const info: CurrencyInfo = { currency: 'USD', converted: false, rate: null, rateSource: null };
      return { info, convert: (usdt: DecimalInput) => toDecimal(usdt) };
    }
    if (!cached || Date.now() - cached.at > 60_000) {
      const ticker = await marketData.fetchTicker('EUR/USDT');
      cached = { rate: toDecimal(ticker.last ?? '1'), at: Date.now() };
    }
    const usdtPerEur = cached.rate;
    const info: CurrencyInfo = {
      currency: 'EUR',
      converted: true,
      rate: new Decimal(1).div(usdtPerEur).toFixed(8),
      rateSource: 'EUR/USDT (paper venue)',
    };
    return { info, convert: (usdt: DecimalInput) => toDecimal(usdt).div(usdtPerEur) };
  };
}

/** Day boundaries in the user's time zone: `from` inclusive, `to` exclusive (the day after a `to` date). */
function resolveRange(from: string | undefined, to: string | undefined, now = new Date()) {
  const day = 86_400_000;
  const toIsDate = to && to.length === 10;
  return {
    fromSql: from
      ? from.length === 10
        ? { date: from }
        : { instant: new Date(from) }
      : { instant: new Date(now.getTime() - 30 * day) },
    toSql: to ? (toIsDate ? { date: to, nextDay: true } : { instant: new Date(to) }) : { instant: now },
  };
}

function boundary(b: { date?: string; instant?: Date; nextDay?: boolean }, tz: string): SQL {
  if (b.instant) return sql`${b.instant.toISOString()}::timestamptz`;
  const start = sql`(${b.date}::date::timestamp AT TIME ZONE ${tz})`;
  return b.nextDay ? sql`(${start} + interval '1 day')` : start;
}

export type DashboardService = ReturnType<typeof createDashboardService>;

/** DESIGN §7: every section computed in SQL over indexed columns, scoped to the user in the query. */
export function createDashboardService(deps: {
  db: Database;
  converterFor: ReturnType<typeof createCurrencyConverter>;
  preferences: (userId: string) => Promise<Preferences>;
}) {
  const { db } = deps;

  async function assertOwned(user: AuthedUser, accountId?: string, botId?: string) {
    if (accountId) {
      const r = (await db.execute(
        sql`SELECT 1 FROM trading_accounts WHERE id = ${accountId} AND user_id = ${user.id}`,
      )) as Rows<unknown>;
      if (r.rows.length === 0) throw new NotFoundError('Trading account not found');
    }
    if (botId) {
      const r = (await db.execute(
        sql`SELECT 1 FROM bots WHERE id = ${botId} AND user_id = ${user.id}`,
      )) as Rows<unknown>;
      if (r.rows.length === 0) throw new NotFoundError('Bot not found');
    }
  }

  return {
    async get(
      user: AuthedUser,
      q: {
        from?: string;
        to?: string;
        accountId?: string;
        botId?: string;
        include: DashboardSection[];
        topN: number;
      },
    ): Promise<Dashboard> {
      await assertOwned(user, q.accountId, q.botId);
      const prefs = await deps.preferences(user.id);
      const tz = prefs.timezone;
      const { info, convert } = await deps.converterFor(prefs.currency);
      const money = (v: DecimalInput | null) => convert(v ?? 0).toFixed(2);
      const range = resolveRange(q.from, q.to);
      const from = boundary(range.fromSql, tz);
      const to = boundary(range.toSql, tz);
      const rollupFilter = sql`h.user_id = ${user.id} AND h.hour >= date_trunc('hour', ${from}) AND h.hour < ${to}
        ${q.accountId ? sql`AND h.trading_account_id = ${q.accountId}` : sql``}
        ${q.botId ? sql`AND h.bot_id = ${q.botId}` : sql``}`;
      const bounds = (await db.execute(sql`SELECT ${from} AS "from", ${to} AS "to"`)) as Rows<{
        from: Date;
        to: Date;
      }>;
      const result: Dashboard = {
        range: {
          from: new Date(bounds.rows[0]!.from).toISOString(),
          to: new Date(bounds.rows[0]!.to).toISOString(),
          timezone: tz,
        },
        currency: info,
      };
      const want = new Set(q.include);

      const tasks: Promise<void>[] = [];
      // Metrics, daily PnL and a bot's cumulative curve all come from one pass over the hourly rollup.
      if (want.has('metrics') || want.has('dailyPnl') || (want.has('equityCurve') && q.botId)) {
        tasks.push(
          (async () => {
            // Hours first (one row per hour, whatever the number of bots), then days in the user's zone:
            // the zone conversion and formatting then run on 24 rows a day instead of on every bot's row.
            const r = (await db.execute(sql`
              SELECT to_char(date_trunc('day', hours.hour AT TIME ZONE ${tz}), 'YYYY-MM-DD') AS date,
                     sum(hours.pnl)::text AS pnl, sum(hours.notional)::text AS notional,
                     sum(hours.trades)::int AS trades, sum(hours.wins)::int AS wins
              FROM (
                SELECT h.hour, sum(h.pnl) AS pnl, sum(h.notional) AS notional,
                       sum(h.trades) AS trades, sum(h.wins) AS wins
                FROM trade_pnl_hourly h WHERE ${rollupFilter}
                GROUP BY h.hour
              ) hours
              GROUP BY 1 HAVING sum(hours.trades) > 0 ORDER BY 1`)) as Rows<{
              date: string;
              pnl: string;
              notional: string;
              trades: number;
              wins: number;
            }>;
            const days = r.rows;
            if (want.has('metrics')) {
              const net = days.reduce((acc, d) => acc.plus(d.pnl), new Decimal(0));
              const notional = days.reduce((acc, d) => acc.plus(d.notional), new Decimal(0));
              const n = days.reduce((acc, d) => acc + d.trades, 0);
              const wins = days.reduce((acc, d) => acc + d.wins, 0);
              result.metrics = {
                netPnl: money(net),
                pnlPercent: notional.gt(0) ? net.div(notional).times(100).toFixed(2) : null,
                winRate: n > 0 ? new Decimal(wins).div(n).times(100).toFixed(2) : null,
                closedTrades: n,
              };
            }
            if (want.has('dailyPnl')) {
              result.dailyPnl = days.map((d) => ({ date: d.date, pnl: money(d.pnl), trades: d.trades }));
            }
            if (want.has('equityCurve') && q.botId) {
              // A bot has no balance of its own: its curve is its cumulative realised PnL.
              let running = new Decimal(0);
              const points = days.map((d) => {
                running = running.plus(d.pnl);
                return { date: d.date, value: money(running) };
              });
              result.equityCurve = { kind: 'cumulativePnl', points };
            }
          })(),
        );
      }
      if (want.has('equityCurve') && !q.botId) {
        tasks.push(
          (async () => {
            const r = (await db.execute(sql`
              WITH days AS (
                SELECT d::date AS day FROM generate_series(
                  date_trunc('day', ${from} AT TIME ZONE ${tz}),
                  date_trunc('day', (${to} - interval '1 microsecond') AT TIME ZONE ${tz}),
                  interval '1 day') d
              ), accounts AS (
                SELECT id FROM trading_accounts WHERE user_id = ${user.id}
                ${q.accountId ? sql`AND id = ${q.accountId}` : sql``}
              )
              SELECT to_char(days.day, 'YYYY-MM-DD') AS date, sum(s.equity)::text AS value
              FROM days CROSS JOIN accounts
              JOIN LATERAL (
                SELECT equity FROM balance_snapshots
                WHERE trading_account_id = accounts.id AND at < ((days.day + 1)::timestamp AT TIME ZONE ${tz})
                ORDER BY at DESC LIMIT 1
              ) s ON TRUE
              GROUP BY days.day ORDER BY days.day`)) as Rows<{ date: string; value: string }>;
            result.equityCurve = {
              kind: 'equity',
              points: r.rows.map((p) => ({ date: p.date, value: money(p.value) })),
            };
          })(),
        );
      }
      if (want.has('balanceByAccount')) {
        tasks.push(
          (async () => {
            const r = (await db.execute(sql`
              SELECT id, nickname, exchange, usdt_balance::text AS balance FROM trading_accounts
              WHERE user_id = ${user.id} ${q.accountId ? sql`AND id = ${q.accountId}` : sql``}
              ORDER BY usdt_balance DESC, created_at`)) as Rows<{
              id: string;
              nickname: string;
              exchange: string;
              balance: string;
            }>;
            result.balanceByAccount = r.rows.map((a) => ({
              accountId: a.id,
              nickname: a.nickname,
              exchange: a.exchange,
              balance: money(a.balance),
            }));
          })(),
        );
      }
      if (want.has('capitalByBot')) {
        tasks.push(
          (async () => {
            const r = (await db.execute(sql`
              SELECT b.id, b.nickname, coalesce(sum(t.entry_notional), 0)::text AS deployed, count(t.id)::int AS open_trades
              FROM bots b
              LEFT JOIN trades t ON t.bot_id = b.id AND t.status IN ('open', 'closing')
              WHERE b.user_id = ${user.id}
              ${q.accountId ? sql`AND b.trading_account_id = ${q.accountId}` : sql``}
              ${q.botId ? sql`AND b.id = ${q.botId}` : sql``}
              GROUP BY b.id ORDER BY coalesce(sum(t.entry_notional), 0) DESC, b.created_at LIMIT ${q.topN}`)) as Rows<{
              id: string;
              nickname: string;
              deployed: string;
              open_trades: number;
            }>;
            result.capitalByBot = r.rows.map((b) => ({
              botId: b.id,
              nickname: b.nickname,
              deployed: money(b.deployed),
              openTrades: b.open_trades,
            }));
          })(),
        );
      }
      await Promise.all(tasks);
      return result;
    },
  };
}
