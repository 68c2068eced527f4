import {
  apiError,
  type AdminStrategy,
  type BotActionOutcome,
  type CloseReason,
  type TradeControlAction,
  type TradeControlResult,
  type TradeControlScope,
  type TradeControlStatus,
} from '@kairos/contract';
import { Decimal, parseSymbol, toDecimal } from '@kairos/core';
import type { GatewayProvider } from '../../exchange/gateway-provider';
import type { OrderExecutor } from '../../engine/order-executor';
import type { TradeLock } from '../../engine/trade-lock';
import { ConflictError, NotFoundError } from '../../lib/errors';
import type { AdminActor, AuditService } from '../audit/audit-service';
import { LIVE_ORDER_STATES, type OrderRow, type TradeDbRow, type TradesRepo } from '../../engine/trades-repo';
import { ladderView } from '../../engine/trades-fns';
import { estimatePush, type TradeMark, type TradeMarks } from '../trades/trade-marks';
import { inBatches } from './admin-fns';
import { botResult, failedResult, type BotResult } from './bot-outcome';
import type { TradeControlPush } from './take-profit-push';
import type { AccountRow, BotRow, StrategyWithFigures, TradeControlRepo } from './trade-control-repo';

/** Bots of one strategy worked on at once by an admin action. */
const BOT_CONCURRENCY = 8;

type BotWork = { bot: BotRow; account: AccountRow };
type ScopeAction = TradeControlScope['action'];

/** The quote currency a trade's amounts are in (`BTC/USDT:USDT` → USDT). */
function quoteOf(symbol: string): string {
  try {
    return parseSymbol(symbol).quote;
  } catch {
    return symbol;
  }
}

/** What one trade adds to an action's scope: its quantity at the last price and the estimated result. */
type ScopePart = { userId: string; currency: string; priced: { notional: Decimal; pnl: Decimal } | null };

/** Sums scope parts per quote currency (8 decimals, as the trades' own figures). */
export function scopeTotals(
  strategyId: string,
  action: ScopeAction,
  parts: readonly ScopePart[],
): TradeControlScope {
  const totals = new Map<string, { notional: Decimal; pnl: Decimal }>();
  for (const part of parts) {
    if (!part.priced) continue;
    const sum = totals.get(part.currency) ?? { notional: toDecimal(0), pnl: toDecimal(0) };
    totals.set(part.currency, {
      notional: sum.notional.plus(part.priced.notional),
      pnl: sum.pnl.plus(part.priced.pnl),
    });
  }
  return {
    strategyId,
    action,
    users: new Set(parts.map((p) => p.userId)).size,
    trades: parts.length,
    unpriced: parts.filter((p) => !p.priced).length,
    totals: [...totals]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, t]) => ({
        currency,
        notional: t.notional.toDecimalPlaces(8).toFixed(),
        estimatedPnl: t.pnl.toDecimalPlaces(8).toFixed(),
      })),
  };
}

function toAdminStrategy(s: StrategyWithFigures): AdminStrategy {
  return {
    id: s.strategy.id,
    nickname: s.strategy.nickname,
    strategyKey: s.strategy.strategyKey,
    tradeCurrency: s.strategy.tradeCurrency,
    timeFrame: s.strategy.timeFrame,
    status: s.strategy.status,
    isPublic: s.strategy.isPublic,
    ownerId: s.strategy.ownerId,
    ownerEmail: s.ownerEmail,
    figures: s.figures,
  };
}

export type TradeControlService = ReturnType<typeof createTradeControlService>;

/**
 * Per-strategy trade control (spec §2 "Admin trade control"): figures, and three actions run on every
 * bot of the strategy whoever owns it, through the engine's idempotent order machinery. One bot's
 * failure is reported in its outcome and never stops the others.
 */
export function createTradeControlService(deps: {
  repo: TradeControlRepo;
  trades: Pick<TradesRepo, 'findOpenForBot' | 'ordersOfTrade'>;
  executor: Pick<OrderExecutor, 'cancel'>;
  gateways: GatewayProvider;
  lock: TradeLock;
  /** The engine's exit at market (same client order id as a user's stop, so it is placed once). */
  closeBotPosition: (botId: string, reason: CloseReason) => Promise<void>;
  /** The user's push to take profit, run for one trade. */
  pushToTakeProfit: TradeControlPush;
  audit: Pick<AuditService, 'audited'>;
  /** Open trades at their venue's last price (issue 21): the bots' figures and an action's scope. */
  marks?: Pick<TradeMarks, 'marks'>;
}) {
  const { repo, trades, executor, gateways, lock, audit } = deps;

  /** Each trade of `rows` marked at its venue's last price, whoever owns it (marks are per owner). */
  async function markAll(rows: readonly (TradeDbRow | null)[]): Promise<Map<string, TradeMark>> {
    const out = new Map<string, TradeMark>();
    if (!deps.marks) return out;
    const byUser = new Map<string, TradeDbRow[]>();
    for (const t of rows) if (t) byUser.set(t.userId, [...(byUser.get(t.userId) ?? []), t]);
    await Promise.all(
      [...byUser].map(async ([userId, owned]) => {
        for (const [id, mark] of await deps.marks!.marks(userId, owned)) out.set(id, mark);
      }),
    );
    return out;
  }

  /** One trade's share of a push: its lowest pushable level's unfilled amount (none: not reached). */
  async function pushPart(t: TradeDbRow, mark: TradeMark | undefined): Promise<ScopePart | null> {
    const level = ladderView(t.takeProfits, await trades.ordersOfTrade(t.id), t.status).find(
      (l) => l.pushable,
    );
    if (!level?.amount) return null;
    const base = { userId: t.userId, currency: quoteOf(t.symbol) };
    const pnl = estimatePush(t, level, mark);
    if (pnl === null || !mark?.currentPrice) return { ...base, priced: null };
    const quantity = Decimal.min(toDecimal(level.amount).minus(level.filled), mark.held);
    return { ...base, priced: { notional: quantity.times(mark.currentPrice), pnl: toDecimal(pnl) } };
  }

  /** One trade's share of a close: what it holds at the last price (a pending entry is only cancelled). */
  function closePart(t: TradeDbRow, mark: TradeMark | undefined): ScopePart {
    const base = { userId: t.userId, currency: quoteOf(t.symbol) };
    if (!t.entryPrice) return { ...base, priced: { notional: toDecimal(0), pnl: toDecimal(0) } };
    const pnl = mark?.fields.estimatedClosePnl;
    if (!mark?.currentPrice || !pnl) return { ...base, priced: null };
    return { ...base, priced: { notional: mark.held.times(mark.currentPrice), pnl: toDecimal(pnl) } };
  }

  async function strategyOr404(id: string) {
    const found = await repo.findStrategy(id);
    if (!found) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'strategy' }));
    return found;
  }

  const perBot: Record<TradeControlAction, (w: BotWork, opts: { role?: string }) => Promise<BotResult>> = {
    async 'push-to-tp'({ bot }, { role }) {
      const trade = await trades.findOpenForBot(bot.id);
      if (!trade) return botResult('skipped', [], 'NO_OPEN_POSITION');
      return deps.pushToTakeProfit(trade.id, role);
    },

    async 'close-positions'({ bot }) {
      const trade = await trades.findOpenForBot(bot.id);
      if (!trade) return botResult('skipped', [], 'NO_OPEN_POSITION');
      await deps.closeBotPosition(bot.id, 'admin close');
      const exits = (await trades.ordersOfTrade(trade.id)).filter((o) => o.role === 'exit');
      const still = await trades.findOpenForBot(bot.id);
      const orderIds = exits.map((o) => o.id);
      return still
        ? botResult('done', orderIds, 'POSITION_CLOSED', { variant: 'pending' })
        : botResult('done', orderIds, 'POSITION_CLOSED');
    },

    async 'cancel-orders'({ bot, account }) {
      const live = await repo.liveOrdersOfBot(bot.id);
      if (live.length === 0) return botResult('skipped', [], 'NO_OPEN_ORDERS');
      const gateway = await gateways.forAccount(account);
      const settled: OrderRow[] = [];
      // Per trade under its lock, re-reading its orders: nothing the engine is placing slips through.
      for (const tradeId of new Set(live.map((o) => o.tradeId))) {
        await lock.withTrade(tradeId, async () => {
          for (const order of await trades.ordersOfTrade(tradeId)) {
            if (LIVE_ORDER_STATES.includes(order.status)) settled.push(await executor.cancel(gateway, order));
          }
        });
      }
      const cancelled = settled.filter((o) => o.status === 'cancelled').length;
      const filled = settled.filter((o) => o.status === 'filled').length;
      const pending = settled.length - cancelled - filled;
      return botResult(
        'done',
        settled.map((o) => o.id),
        'ORDERS_CANCELLED',
        filled && pending
          ? { variant: 'filledPending', cancelled, filled, pending }
          : filled
            ? { variant: 'filled', cancelled, filled }
            : pending
              ? { variant: 'pending', cancelled, pending }
              : { cancelled },
      );
    },
  };

  return {
    async listStrategies(): Promise<AdminStrategy[]> {
      return (await repo.listStrategies()).map(toAdminStrategy);
    },

    async status(strategyId: string): Promise<TradeControlStatus> {
      const strategy = await strategyOr404(strategyId);
      const rows = await repo.botsOfStrategy(strategyId);
      const marks = await markAll(rows.map((r) => r.trade));
      return {
        strategy: toAdminStrategy(strategy),
        bots: rows.map((r) => ({
          botId: r.bot.id,
          nickname: r.bot.nickname,
          userId: r.bot.userId,
          userEmail: r.userEmail,
          isActive: r.bot.isActive,
          position: r.bot.position,
          tradingAccount: { id: r.account.id, nickname: r.account.nickname, exchange: r.account.exchange },
          trade: r.trade
            ? {
                id: r.trade.id,
                symbol: r.trade.symbol,
                side: r.trade.side,
                status: r.trade.status,
                quantity: r.trade.quantity,
                entryPrice: r.trade.entryPrice,
                openedAt: r.trade.openedAt.toISOString(),
                currentPrice: marks.get(r.trade.id)?.fields.currentPrice ?? null,
                unrealisedPnl: marks.get(r.trade.id)?.fields.unrealisedPnl ?? null,
                estimatedClosePnl: marks.get(r.trade.id)?.fields.estimatedClosePnl ?? null,
              }
            : null,
          openOrders: r.openOrders,
        })),
      };
    },

    /** What a push or close of every bot would reach now: users, trades, notional and estimated result. */
    async scope(strategyId: string, action: ScopeAction): Promise<TradeControlScope> {
      await strategyOr404(strategyId);
      const open = (await repo.botsOfStrategy(strategyId)).flatMap((r) => (r.trade ? [r.trade] : []));
      const marks = await markAll(open);
      const parts = await Promise.all(
        open.map((t) =>
          action === 'push-to-tp' ? pushPart(t, marks.get(t.id)) : closePart(t, marks.get(t.id)),
        ),
      );
      return scopeTotals(
        strategyId,
        action,
        parts.filter((p): p is ScopePart => p !== null),
      );
    },

    /** Pause (no new entries from its alerts, for every subscriber; exits still run) or resume a strategy. */
    async setStatus(actor: AdminActor, strategyId: string, status: 'active' | 'paused') {
      return audit.audited(
        actor,
        {
          action: status === 'paused' ? 'strategy.pause' : 'strategy.resume',
          target: `strategy:${strategyId}`,
        },
        async () => {
          await strategyOr404(strategyId);
          if (!(await repo.setStrategyStatus(strategyId, status)))
            throw new ConflictError(...apiError('STRATEGY_RETIRED'));
          return toAdminStrategy(await strategyOr404(strategyId));
        },
      );
    },

    /** One bot: close its trade at market, or pause it (its position stays). */
    async runForBot(actor: AdminActor, botId: string, action: 'close-position' | 'pause') {
      return audit.audited(
        actor,
        { action: `bot.${action.replace(/-/g, '_')}`, target: `bot:${botId}` },
        async (): Promise<BotActionOutcome> => {
          const found = await repo.findBot(botId);
          if (!found) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'bot' }));
          const ids = { botId, userId: found.bot.userId };
          if (action === 'pause') {
            const paused = await repo.pauseBot(botId);
            return paused
              ? { ...ids, ...botResult('done', [], 'BOT_PAUSED') }
              : { ...ids, ...botResult('skipped', [], 'BOT_ALREADY_PAUSED') };
          }
          return { ...ids, ...(await perBot['close-positions'](found, {})) };
        },
        (r) => ({ status: r.status, message: r.message }),
      );
    },

    async run(
      actor: AdminActor,
      strategyId: string,
      action: TradeControlAction,
      opts: { role?: string } = {},
    ): Promise<TradeControlResult> {
      return audit.audited(
        actor,
        {
          action: `strategy.${action.replace(/-/g, '_')}`,
          target: `strategy:${strategyId}`,
          details: opts.role ? { takeProfitRole: opts.role } : {},
        },
        async () => {
          await strategyOr404(strategyId);
          const rows = await repo.botsOfStrategy(strategyId);
          const outcomes: BotActionOutcome[] = [];
          await inBatches(rows, BOT_CONCURRENCY, async ({ bot, account }) => {
            let result: BotResult;
            try {
              result = await perBot[action]({ bot, account }, opts);
            } catch (e) {
              result = failedResult(e);
            }
            outcomes.push({ botId: bot.id, userId: bot.userId, ...result });
          });
          const order = new Map(rows.map((r, i) => [r.bot.id, i]));
          outcomes.sort((a, b) => order.get(a.botId)! - order.get(b.botId)!);
          const count = (s: BotActionOutcome['status']) => outcomes.filter((o) => o.status === s).length;
          return {
            strategyId,
            action,
            done: count('done'),
            skipped: count('skipped'),
            failed: count('failed'),
            outcomes,
          };
        },
        (r) => ({
          done: r.done,
          skipped: r.skipped,
          failed: r.failed,
          // Which bots failed and why, capped so one huge strategy does not bloat the log.
          ...(r.failed
            ? {
                failures: r.outcomes
                  .filter((o) => o.status === 'failed')
                  .slice(0, 50)
                  .map(({ botId, userId, message }) => ({ botId, userId, message })),
              }
            : {}),
        }),
      );
    },
  };
}
