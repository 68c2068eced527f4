import type { OwnedTradesRepo } from './trades-owner-repo';
import { randomUUID } from 'node:crypto';
import {
  apiError,
  apiMessage,
  nestedParams,
  type PushTakeProfitBody,
  type PushTakeProfitResponse,
  type TradeCreateBody,
  type TradesListQuery,
  type TradeUpdateBody,
} from '@kairos/contract';
import {
  buildTakeProfitLadder,
  isOpenState,
  orderMinimumViolation,
  roundDownToStep,
  roundToTick,
  stopLossPrice,
  toDecimal,
  toNumericString,
  tpDisplayName,
  type TakeProfitTarget,
  tradeClientOrderId,
} from '@kairos/core';
import type { TakeProfitOrders } from '../../engine/take-profit-orders';
import { findMarket, type TradeLifecycle } from '../../engine/trade-lifecycle';
import { pushLevelNow } from '../../engine/push-now';
import { innerRefusal } from '../../engine/last-error';
import type { TradeLock } from '../../engine/trade-lock';
import type { TradeSupervisor } from '../../engine/trade-supervisor';
import { FALLBACK_TICK, type ExchangeGateway, type Market } from '../../exchange/gateway';
import {
  AppError,
  ConflictError,
  DomainRuleError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '../../lib/errors';
import type { AccountsRepo } from '../accounts/accounts-repo';
import type { AuthedUser } from '../auth/auth-service';
import { plain, toTradeCompletion, toTradeDetail, toTradeRow } from './trade-dto';
import type { TradeLedgerRepo } from './trade-ledger-repo';
import type { TradeMarks } from './trade-marks';
import {
  heldQuantity,
  ladderView,
  planFromInput,
  pushDecision,
  replanTakeProfits,
} from '../../engine/trades-fns';
import type { TradeDbRow, TradesRepo } from '../../engine/trades-repo';
import type { VenueStopsRepo } from '../../engine/venue-stops-repo';

function parseDate(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  return new Date(/^\d+$/.test(value) ? Number(value) : value);
}

export type TradesService = ReturnType<typeof createTradesService>;

/** Trades as a user sees and steers them: list, detail, manual trades, edits, complete, push (spec §7). */
export function createTradesService(deps: {
  trades: TradesRepo;
  /** The user's own trades (every read scoped to them). */
  owned: OwnedTradesRepo;
  accounts: Pick<AccountsRepo, 'findOwned'>;
  gateways: {
    forAccount: (
      account: NonNullable<Awaited<ReturnType<AccountsRepo['findOwned']>>>,
    ) => Promise<ExchangeGateway>;
  };
  lifecycle: Pick<TradeLifecycle, 'open'>;
  supervisor: Pick<TradeSupervisor, 'supervise' | 'closeTrade' | 'gatewayFor'>;
  takeProfits: TakeProfitOrders;
  lock: Pick<TradeLock, 'withTrade'>;
  /** The stops resting on venues: where each trade's stop lives (issue 18). */
  venueStops: Pick<VenueStopsRepo, 'ofTrade'>;
  /** Open trades marked at the last price in the answers (issue 21); none: unmarked. */
  marks?: Pick<TradeMarks, 'marks'>;
  /** A trade's realised PnL, PnL %, commission and funding as the ledger tells them (issue 19). */
  ledger: Pick<TradeLedgerRepo, 'withLedgerFigures'>;
}) {
  const { trades, supervisor, takeProfits, lock } = deps;

  async function owned(user: AuthedUser, id: string): Promise<TradeDbRow> {
    const trade = await deps.owned.findOwned(user.id, id);
    if (!trade) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'trade' }));
    return trade;
  }

  /** A trade's detail, its figures from the ledger; marked at the last price when `marked`. */
  async function detail(tradeId: string, user: AuthedUser, marked = false) {
    const [[trade], orders, fills, stops] = await Promise.all([
      trades.findById(tradeId).then((t) => deps.ledger.withLedgerFigures(user.id, [t!])),
      trades.ordersOfTrade(tradeId),
      trades.fillsOfTrade(tradeId),
      deps.venueStops.ofTrade(tradeId),
    ]);
    const marks = marked && deps.marks ? await deps.marks.marks(user.id, [trade!]) : undefined;
    return toTradeDetail(trade!, orders, fills, stops, marks?.get(tradeId));
  }

  function marketLimits(market: Market) {
    return {
      amountStep: market.amountStep ?? FALLBACK_TICK,
      priceTick: market.priceTick ?? FALLBACK_TICK,
      minAmount: market.minAmount ?? '0',
      minNotional: market.minNotional ?? '0',
    };
  }

  /** A stop given as a price must be on the losing side of the market, or it would fire at once. */
  async function checkStopPrice(gateway: ExchangeGateway, trade: TradeDbRow, price: string) {
    const last = (await gateway.fetchTicker(trade.symbol)).last;
    if (!last) return;
    const wrongSide = trade.side === 'long' ? toDecimal(price).gte(last) : toDecimal(price).lte(last);
    if (wrongSide)
      throw new DomainRuleError(...apiError('INVALID_STOP_LOSS', { variant: trade.side, price: last }));
  }

  async function completion(user: AuthedUser, id: string) {
    const [trade] = (await deps.ledger.withLedgerFigures(user.id, [await owned(user, id)])) as [TradeDbRow];
    const exit = await trades.findOrderByClientId(trade.tradingAccountId, tradeClientOrderId(id, 'complete'));
    return toTradeCompletion(trade, exit);
  }

  return {
    completion,

    async list(user: AuthedUser, query: TradesListQuery) {
      const { rows, total } = await deps.owned.listOwned(
        user.id,
        {
          botId: query.bot_id ?? query.botId,
          accountId: query.account_id ?? query.accountId,
          symbol: query.symbol,
          status: query.status,
          from: parseDate(query.from),
          to: parseDate(query.to),
        },
        query.page,
        query.pageSize,
      );
      const booked = await deps.ledger.withLedgerFigures(user.id, rows);
      const marks = deps.marks ? await deps.marks.marks(user.id, booked) : undefined;
      return {
        results: booked.map((t) => toTradeRow(t, marks?.get(t.id))),
        total,
        page: query.page,
        pageSize: query.pageSize,
      };
    },

    async get(user: AuthedUser, id: string) {
      await owned(user, id);
      return detail(id, user, true);
    },

    /**
     * A manual trade (no bot): the entry at market, or as a limit order when a price is given; the
     * amount is rounded down to the venue's step and checked against its minimums; ladder and stop
     * follow the entry's fill like a bot's.
     */
    async create(user: AuthedUser, body: TradeCreateBody) {
      const account = await deps.accounts.findOwned(user.id, body.accountId);
      if (!account) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'account' }));
      if (body.side === 'short' && account.marketType !== 'future')
        throw new DomainRuleError(...apiError('SHORT_NEEDS_FUTURES'));
      // A futures account holds one position per symbol: a second trade on it would net with the first.
      if (
        account.marketType === 'future' &&
        (await trades.activeTradesOf([account.id])).some((t) => t.symbol === body.symbol)
      )
        throw new ConflictError(...apiError('POSITION_TAKEN', { symbol: body.symbol }));
      const gateway = await deps.gateways.forAccount(account);
      const market = await findMarket(gateway, body.symbol);
      const limits = marketLimits(market);
      const quantity = roundDownToStep(body.amount, limits.amountStep);
      const limitPrice = body.price ? roundToTick(body.price, limits.priceTick) : null;
      if (limitPrice?.lte(0))
        throw new ValidationError(...apiError('VALIDATION_ERROR', { variant: 'price' }));
      const reference = limitPrice ?? (await gateway.fetchTicker(body.symbol)).last;
      const violation = reference ? orderMinimumViolation(quantity, reference, limits) : undefined;
      if (quantity.lte(0) || violation)
        throw violation
          ? new DomainRuleError('ORDER_TOO_SMALL', violation.message, violation.params)
          : new DomainRuleError(...apiError('ORDER_TOO_SMALL'));
      const plan = planFromInput(body.takeProfits);
      if (reference && plan.length > 0) {
        // Refuse a ladder that can never be priced before anything is sent.
        buildTakeProfitLadder({
          side: body.side,
          entryPrice: reference,
          quantity,
          takeProfits: plan as TakeProfitTarget[],
          market: limits,
        });
      }
      const tradeId = randomUUID();
      await deps.lifecycle.open(gateway, {
        userId: user.id,
        botId: null,
        accountId: account.id,
        strategyId: null,
        alertId: null,
        symbol: body.symbol,
        side: body.side,
        tradeId,
        clientOrderId: tradeClientOrderId(tradeId, 'entry'),
        quantity: toNumericString(quantity),
        limitPrice: limitPrice ? toNumericString(limitPrice) : null,
        plan: {
          takeProfits: plan,
          stopLossPercent: body.stopLossPercent ?? null,
          breakEvenAfterTp1: body.breakEvenAfterTp1,
        },
      });
      return detail(tradeId, user);
    },

    /**
     * Edits an open trade: the stop (price, percent or none) and the take-profit plan. A new plan
     * cancels the resting take-profits and places the new levels for what is held now; filled levels
     * stay as they were.
     */
    async update(user: AuthedUser, id: string, body: TradeUpdateBody) {
      await owned(user, id);
      await lock.withTrade(id, async () => {
        const trade = (await trades.findById(id))!;
        if (trade.status !== 'open') throw new ConflictError(...apiError('TRADE_NOT_OPEN'));
        const gateway = await supervisor.gatewayFor(trade);
        const market = await findMarket(gateway, trade.symbol);
        const limits = marketLimits(market);
        const change: Partial<TradeDbRow> = {};

        if (body.breakEvenAfterTp1 !== undefined) change.breakEvenAfterTp1 = body.breakEvenAfterTp1;
        if (body.stopLossPrice !== undefined) {
          const price = body.stopLossPrice ? roundToTick(body.stopLossPrice, limits.priceTick) : null;
          if (price) await checkStopPrice(gateway, trade, price.toFixed());
          change.stopLossPrice = price ? toNumericString(price) : null;
          change.stopLossPercent = null;
        }
        if (body.stopLossPercent !== undefined) {
          change.stopLossPercent = body.stopLossPercent;
          change.stopLossPrice =
            body.stopLossPercent && trade.entryPrice
              ? toNumericString(
                  stopLossPrice({
                    side: trade.side,
                    entryPrice: trade.entryPrice,
                    stopLossPercent: body.stopLossPercent,
                    priceTick: limits.priceTick,
                  }),
                )
              : null;
          if (change.stopLossPrice) await checkStopPrice(gateway, trade, change.stopLossPrice);
        }

        if (body.takeProfits !== undefined) {
          const orders = await trades.ordersOfTrade(id);
          const filled = new Set(
            ladderView(trade.takeProfits, orders, trade.status)
              .filter((l) => l.status === 'filled')
              .map((l) => l.role),
          );
          const { plan, newRoles } = replanTakeProfits(trade.takeProfits, filled, body.takeProfits);
          const added = plan.filter((p) => newRoles.includes(p.role));
          const entryDone = !orders.some(
            (o) => o.role === 'entry' && (o.status === 'new' || isOpenState(o.status)),
          );
          const held = roundDownToStep(heldQuantity(trade, await trades.fillsOfTrade(id)), limits.amountStep);
          if (entryDone && trade.entryPrice && held.gt(0) && added.length > 0) {
            buildTakeProfitLadder({
              side: trade.side,
              entryPrice: trade.entryPrice,
              quantity: held,
              takeProfits: added as TakeProfitTarget[],
              market: limits,
            });
          }
          change.takeProfits = plan;
          const updated = await trades.updateTrade(id, change);
          if (entryDone && held.gt(0)) {
            await takeProfits.cancelRestingTakeProfits(gateway, id);
            await takeProfits.placeTakeProfitLadder(gateway, updated, market, added);
          }
        } else if (Object.keys(change).length > 0) {
          await trades.updateTrade(id, change);
        }
        await supervisor.supervise(id);
      });
      return detail(id, user);
    },

    /**
     * Only a trade that is over (closed, cancelled or failed, nothing live at the venue) can be deleted; it is
     * hidden, never erased (issue 19).
     */
    async remove(user: AuthedUser, id: string) {
      const trade = await owned(user, id);
      if (trade.status === 'open' || trade.status === 'closing')
        throw new ConflictError(...apiError('TRADE_NOT_CLOSED'));
      if ((await trades.ordersOfTrade(id)).some((o) => isOpenState(o.status)))
        throw new ConflictError(...apiError('TRADE_HAS_LIVE_ORDERS'));
      await deps.owned.hideOwned(user.id, id);
    },

    /** Closes the trade at market now (resting orders cancelled first). Calling it again changes nothing. */
    async complete(user: AuthedUser, id: string) {
      const trade = await owned(user, id);
      if (trade.status === 'error')
        throw new ConflictError(...apiError('TRADE_NOT_OPEN', { variant: 'complete' }));
      if (trade.status === 'open' || trade.status === 'closing') {
        try {
          await supervisor.closeTrade(id, tradeClientOrderId(id, 'complete'), 'manual close');
        } catch (e) {
          if (e instanceof AppError) throw e;
          throw new DomainRuleError(...apiError('COMPLETE_FAILED', nestedParams('error', innerRefusal(e))));
        }
      }
      return completion(user, id);
    },

    /**
     * Push to take profit (spec §7/§8, DESIGN §6): only the lowest level not yet filled, with the spec's
     * messages; `test` checks without trading. `userId` and `botId` in the body may only confirm the
     * session's user and the trade's bot, never widen access.
     */
    async push(user: AuthedUser, body: PushTakeProfitBody): Promise<PushTakeProfitResponse> {
      if (body.userId != null && body.userId !== user.id)
        throw new ForbiddenError(...apiError('FORBIDDEN', { variant: 'userMismatch' }));
      const owner = await owned(user, body.tradeId);
      if (body.botId !== undefined && (body.botId ?? null) !== owner.botId)
        throw new ValidationError(...apiError('VALIDATION_ERROR', { variant: 'botMismatch' }));
      const role = body.takeProfitRole;
      const name = tpDisplayName(role);

      return lock.withTrade(owner.id, async (): Promise<PushTakeProfitResponse> => {
        const trade = (await trades.findById(owner.id))!;
        const levels = ladderView(trade.takeProfits, await trades.ordersOfTrade(trade.id), trade.status);
        const decision = pushDecision(levels, role, trade.status);
        // The engine's own refusals (trade not open, level not placed yet) are "not available".
        if (!decision.ok)
          throw new DomainRuleError(
            'TAKE_PROFIT_NOT_PUSHABLE',
            decision.message,
            decision.params ?? { name },
          );
        const level = decision.level;
        const remaining = toDecimal(level.amount ?? '0').minus(level.filled);
        const base = { tradeId: trade.id, takeProfitRole: role, name, test: body.test };
        if (body.test) {
          return {
            success: true as const,
            results: {
              ...base,
              orderId: null,
              clientOrderId: null,
              status: null,
              amount: remaining.toFixed(),
              filled: null,
              average: null,
            },
            message: apiMessage('TAKE_PROFIT_PUSHABLE', { name }),
            code: 'TAKE_PROFIT_PUSHABLE' as const,
            params: { name },
          };
        }
        const pushed = await pushLevelNow({ takeProfits, supervisor }, trade, role);
        if (pushed.kind === 'filledFirst')
          throw new DomainRuleError(...apiError('TAKE_PROFIT_NOT_PUSHABLE', { name }));
        if (pushed.kind === 'refused')
          throw new DomainRuleError(
            ...apiError('PUSH_FAILED', { name, ...nestedParams('error', pushed.refusal) }),
          );
        const { order } = pushed;
        const orderId = order.venueOrderId ?? order.id;
        return {
          success: true as const,
          results: {
            ...base,
            orderId,
            clientOrderId: order.clientOrderId,
            status: order.status,
            amount: plain(order.amount),
            filled: plain(order.filled),
            average: plain(order.average),
          },
          message: apiMessage('TAKE_PROFIT_PUSHED', { name, orderId }),
          code: 'TAKE_PROFIT_PUSHED' as const,
          params: { name, orderId },
        };
      });
    },
  };
}
