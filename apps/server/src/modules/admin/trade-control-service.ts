import {
  apiError,
  type AdminStrategy,
  type BotActionOutcome,
  type TradeControlAction,
  type TradeControlResult,
  type TradeControlStatus,
} from '@kairos/contract';
import type { GatewayProvider } from '../../exchange/gateway-provider';
import type { OrderExecutor } from '../../engine/order-executor';
import type { TradeLock } from '../../engine/trade-lock';
import { NotFoundError } from '../../lib/errors';
import type { AdminActor, AuditService } from '../audit/audit-service';
import { LIVE_ORDER_STATES, type OrderRow, type TradesRepo } from '../../engine/trades-repo';
import { inBatches } from './admin-fns';
import type { TradeControlPush } from './take-profit-push';
import type { AccountRow, BotRow, StrategyWithFigures, TradeControlRepo } from './trade-control-repo';

/** Bots of one strategy worked on at once by an admin action. */
const BOT_CONCURRENCY = 8;

type BotWork = { bot: BotRow; account: AccountRow };
type BotResult = Omit<BotActionOutcome, 'botId' | 'userId'>;

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
  closeBotPosition: (botId: string, reason: string) => Promise<void>;
  /** The user's push to take profit, run for one trade. */
  pushToTakeProfit: TradeControlPush;
  audit: Pick<AuditService, 'audited'>;
}) {
  const { repo, trades, executor, gateways, lock, audit } = deps;

  async function strategyOr404(id: string) {
    const found = await repo.findStrategy(id);
    if (!found) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'strategy' }));
    return found;
  }

  const perBot: Record<TradeControlAction, (w: BotWork, opts: { role?: string }) => Promise<BotResult>> = {
    async 'push-to-tp'({ bot }, { role }) {
      const trade = await trades.findOpenForBot(bot.id);
      if (!trade) return { status: 'skipped', message: 'No open position', orderIds: [] };
      return deps.pushToTakeProfit(trade.id, role);
    },

    async 'close-positions'({ bot }) {
      const trade = await trades.findOpenForBot(bot.id);
      if (!trade) return { status: 'skipped', message: 'No open position', orderIds: [] };
      await deps.closeBotPosition(bot.id, 'admin close');
      const exits = (await trades.ordersOfTrade(trade.id)).filter((o) => o.role === 'exit');
      const still = await trades.findOpenForBot(bot.id);
      return {
        status: 'done',
        message: still ? 'Exit order sent; waiting for it to fill' : 'Position closed at market',
        orderIds: exits.map((o) => o.id),
      };
    },

    async 'cancel-orders'({ bot, account }) {
      const live = await repo.liveOrdersOfBot(bot.id);
      if (live.length === 0) return { status: 'skipped', message: 'No open orders', orderIds: [] };
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
      const parts = [`${cancelled} cancelled`];
      if (filled) parts.push(`${filled} filled before the cancel`);
      const other = settled.length - cancelled - filled;
      if (other) parts.push(`${other} still pending at the venue`);
      return { status: 'done', message: parts.join(', '), orderIds: settled.map((o) => o.id) };
    },
  };

  return {
    async listStrategies(): Promise<AdminStrategy[]> {
      return (await repo.listStrategies()).map(toAdminStrategy);
    },

    async status(strategyId: string): Promise<TradeControlStatus> {
      const strategy = await strategyOr404(strategyId);
      const rows = await repo.botsOfStrategy(strategyId);
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
              }
            : null,
          openOrders: r.openOrders,
        })),
      };
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
              result = {
                status: 'failed',
                message: e instanceof Error ? e.message : String(e),
                orderIds: [],
              };
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
