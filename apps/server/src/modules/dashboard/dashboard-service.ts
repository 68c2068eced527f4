import { Decimal, toDecimal, type DecimalInput } from '@kairos/core';
import { apiError, type Dashboard, type DashboardSection, type Preferences } from '@kairos/contract';
import type { ExchangeGateway } from '../../exchange/gateway';
import { NotFoundError } from '../../lib/errors';
import type { AuthedUser } from '../auth/auth-service';
import type { DashboardRepo, DashboardScope, RangeBound } from './dashboard-repo';
import type { TradeLedgerRepo } from '../trades/trade-ledger-repo';
import type { TradeMarks } from '../trades/trade-marks';
import type { OwnedTradesRepo } from '../trades/trades-owner-repo';

/** The dashboard's open positions panel shows at most this many (newest first). */
export const OPEN_POSITIONS_LIMIT = 50;

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
function resolveRange(
  from: string | undefined,
  to: string | undefined,
  now = new Date(),
): { from: RangeBound; to: RangeBound } {
  const day = 86_400_000;
  const toIsDate = to && to.length === 10;
  return {
    from: from
      ? from.length === 10
        ? { date: from }
        : { instant: new Date(from) }
      : { instant: new Date(now.getTime() - 30 * day) },
    to: to ? (toIsDate ? { date: to, nextDay: true } : { instant: new Date(to) }) : { instant: now },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;

/** DESIGN §7: every section computed in SQL (the repo) over indexed columns, scoped to the user in the query. */
export function createDashboardService(deps: {
  repo: DashboardRepo;
  converterFor: ReturnType<typeof createCurrencyConverter>;
  preferences: (userId: string) => Promise<Preferences>;
  /** The open positions panel (issue 21): the user's open trades, marked at the last price. */
  openTrades?: {
    repo: Pick<OwnedTradesRepo, 'openOwned'>;
    marks: Pick<TradeMarks, 'marks'>;
    /** What a trade has realised so far, as the ledger tells it (issue 19). */
    ledger: Pick<TradeLedgerRepo, 'withLedgerFigures'>;
  };
  /** "Total equity (est.)" and "Available" (issue 21): Portfolio's own figures, read from the venues. */
  equity?: (
    userId: string,
    accountId?: string,
  ) => Promise<{ total: DecimalInput; available: DecimalInput; unread: number }>;
}) {
  const { repo } = deps;

  async function assertOwned(user: AuthedUser, accountId?: string, botId?: string) {
    if (accountId && !(await repo.accountOwned(user.id, accountId))) {
      throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'account' }));
    }
    if (botId && !(await repo.botOwned(user.id, botId)))
      throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'bot' }));
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
      const scope: DashboardScope = {
        userId: user.id,
        accountId: q.accountId,
        botId: q.botId,
        tz,
        ...resolveRange(q.from, q.to),
      };
      const [bounds, protection] = await Promise.all([repo.bounds(scope), repo.openTradeProtection(user.id)]);
      const result: Dashboard = {
        range: {
          from: new Date(bounds.from).toISOString(),
          to: new Date(bounds.to).toISOString(),
          timezone: tz,
        },
        currency: info,
        // A warning over every open trade of the user, whatever the filters narrow the figures to.
        protection: { unprotected: protection.unprotected, venueStopRefused: protection.venue_stop_refused },
      };
      const want = new Set(q.include);

      const tasks: Promise<void>[] = [];
      // Metrics, daily PnL and a bot's cumulative curve all come from one pass over the ledger and the rollup.
      if (want.has('metrics') || want.has('dailyPnl') || (want.has('equityCurve') && q.botId)) {
        tasks.push(
          (async () => {
            const days = await repo.dailyTotals(scope);
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
            const points = await repo.equityByDay(scope);
            result.equityCurve = {
              kind: 'equity',
              points: points.map((p) => ({ date: p.date, value: money(p.value) })),
            };
          })(),
        );
      }
      if (want.has('equity') && deps.equity && !q.botId) {
        tasks.push(
          (async () => {
            const equity = await deps.equity!(user.id, q.accountId);
            result.equity = {
              total: money(equity.total),
              available: money(equity.available),
              unread: equity.unread,
            };
          })(),
        );
      }
      if (want.has('balanceByAccount')) {
        tasks.push(
          (async () => {
            const accounts = await repo.balances(scope);
            result.balanceByAccount = accounts.map((a) => ({
              accountId: a.id,
              nickname: a.nickname,
              exchange: a.exchange,
              sandbox: a.sandbox,
              balance: money(a.balance),
            }));
          })(),
        );
      }
      if (want.has('capitalByBot')) {
        tasks.push(
          (async () => {
            const bots = await repo.capitalByBot(scope, q.topN);
            result.capitalByBot = bots.map((b) => ({
              botId: b.id,
              nickname: b.nickname,
              sandbox: b.sandbox,
              deployed: money(b.deployed),
              openTrades: b.open_trades,
            }));
          })(),
        );
      }
      const openTrades = deps.openTrades;
      if (want.has('openPositions') && openTrades) {
        tasks.push(
          (async () => {
            const rows = await openTrades.repo.openOwned(
              user.id,
              { accountId: q.accountId, botId: q.botId },
              OPEN_POSITIONS_LIMIT,
            );
            const booked = await openTrades.ledger.withLedgerFigures(
              user.id,
              rows.map((r) => r.trade),
            );
            const marks = await openTrades.marks.marks(user.id, booked);
            result.openPositions = rows.flatMap(({ trade: t, botNickname, accountNickname, sandbox }) => {
              const mark = marks.get(t.id);
              // Only what holds something: an entry still resting is not a position.
              if (!mark || !mark.held.gt(0)) return [];
              return [
                {
                  tradeId: t.id,
                  botId: t.botId,
                  botNickname,
                  accountId: t.tradingAccountId,
                  accountNickname,
                  sandbox,
                  symbol: t.symbol,
                  side: t.side,
                  quantity: mark.held.toFixed(),
                  entryPrice: t.entryPrice === null ? null : toDecimal(t.entryPrice).toFixed(),
                  openedAt: t.openedAt.toISOString(),
                  ...mark.fields,
                },
              ];
            });
          })(),
        );
      }
      await Promise.all(tasks);
      return result;
    },
  };
}
