import {
  lateSignal,
  clientOrderId,
  decideSignalAction,
  monthlyGoalReached,
  botAllocation,
  sizingRuleFromBot,
  DomainRuleError,
  signalPriceDeviation,
} from '@kairos/core';
import type { FastifyBaseLogger } from 'fastify';
import { mapLimited, sharedRead } from '../lib/batch-loader';
import { ExchangeGatewayError, RetryableExchangeError, UnknownOutcomeError } from '../exchange/errors';
import type { Balances, ExchangeGateway, Ticker } from '../exchange/gateway';
import type { AlertRow, AlertsRepo, BotOutcome, FanOutRow, StrategyRow } from './alerts-repo';
import type { BotPositionsRepo } from './bot-positions-repo';
import type { OrderRow, TradeDbRow, TradesRepo } from './trades-repo';
import type { GatewayProvider } from '../exchange/gateway-provider';
import { UnresolvedOrderError } from './order-executor';
import type { TradeLifecycle } from './trade-lifecycle';

type AccountRow = FanOutRow['account'];
type BotRow = FanOutRow['bot'];

/**
 * How an alert's run ended. `retryAfterMs`: the soonest a retry can do anything (an order still being
 * looked up is not resolved before then), when that is later than the usual back-off.
 */
/** `expired`: the signal came too late to act on (why, for the alerts console); nothing was done. */
export type AlertResult = { retry: boolean; error?: string; retryAfterMs?: number; expired?: string };

/** What one bot does on an alert: its legs, whether its monthly goal held it back, and its orders' ids. */
type BotPlan = { legs: string[]; goalHit: boolean; cids: Map<string, string> };

/** What a bot's turn leaves: its outcome, and its new position when a leg changed it. */
type BotTurn = {
  outcome: BotOutcome;
  position?: { position: 'long' | 'short' | 'out'; tradeId: string | null };
};

/** A trade the alert opened, waiting for its set-up (ladder, stop) until every bot has had its turn. */
type SetUp = { account: AccountRow; trade: TradeDbRow };

/** Outcomes are written this many at a time, or this long after the first of a batch at the latest. */
const OUTCOME_BATCH = 50;
const OUTCOME_FLUSH_MS = 100;
const CLOSE_LEGS = ['close_long', 'close_short'] as const;
/** New trades set up together (one lock statement, their writes and venue calls in batches of about this). */
const SET_UP_GROUP = 200;

/**
 * The rows reordered so that consecutive ones belong to different accounts (round robin over accounts):
 * bots worked on at once then rarely wait on the same account's ledger lock or venue throttle.
 */
function interleaveByAccount<T extends { account: { id: string } }>(rows: T[]): T[] {
  const byAccount = new Map<string, T[]>();
  for (const row of rows) {
    const list = byAccount.get(row.account.id);
    if (list) list.push(row);
    else byAccount.set(row.account.id, [row]);
  }
  const queues = [...byAccount.values()];
  const out: T[] = [];
  for (let i = 0; out.length < rows.length; i++) {
    for (const queue of queues) if (i < queue.length) out.push(queue[i]!);
  }
  return out;
}

/**
 * Fan-out (DESIGN §5): every bot on the alert's strategy acts once — open, reverse or exit —
 * and each bot's outcome is recorded. One bot's failure never blocks another; only transient
 * venue trouble asks for the alert to be retried, and the retry redoes nothing already done.
 */
export function createAlertProcessor(deps: {
  alerts: Pick<AlertsRepo, 'saveOutcomes' | 'strategyOf' | 'fanOutRows' | 'recordPriceDeviation'>;
  trades: TradesRepo;
  botPositions: Pick<BotPositionsRepo, 'setMany'>;
  /** Closes (and reverses' first legs) go through it whole. */
  lifecycle: TradeLifecycle;
  /**
   * Entries are sent without what follows them, which is set up once every bot of the alert has had its
   * turn: all entries go out before any take-profit ladder (DESIGN §10 times the entries).
   */
  entries: {
    open: TradeLifecycle['open'];
    /** The new trades' ladders and stops, many at once (see `SET_UP_GROUP`). Never throws. */
    setUp: (items: readonly { gateway: ExchangeGateway; trade: TradeDbRow }[]) => Promise<unknown>;
  };
  gateways: GatewayProvider;
  log: FastifyBaseLogger;
  /** How many bots of one alert are worked on at once (each mostly waits on its venue). */
  botConcurrency: number;
}) {
  const { trades, lifecycle, gateways } = deps;

  /** What the bot does on this alert (DESIGN §5): its legs, and whether its monthly goal held it back. */
  function decide(alert: AlertRow, strategy: StrategyRow, { bot, account, monthProfit }: FanOutRow) {
    const allocation = botAllocation(sizingRuleFromBot(bot), account.usdtBalance);
    const goalHit = monthlyGoalReached(monthProfit ?? '0', allocation, bot.monthlyGoalPercent ?? 0);
    const canOpen = bot.isActive && strategy.status === 'active' && !goalHit;
    const legs = decideSignalAction(bot.position, alert.action, {
      canShort: account.marketType === 'future',
      canOpen,
    });
    return { legs, goalHit };
  }

  /**
   * The bot's decision and the client order ids of its legs (on a retry also of the exits it may have
   * placed before the crash), computed once for both the orders lookup and the bot's turn.
   */
  function planFor(alert: AlertRow, strategy: StrategyRow, row: FanOutRow): BotPlan {
    const { legs, goalHit } = decide(alert, strategy, row);
    const known = alert.attempts > 1 ? [...new Set([...CLOSE_LEGS, ...legs])] : legs;
    const cids = new Map(
      known.map((leg) => [leg, clientOrderId({ alertId: alert.id, botId: row.bot.id, leg })]),
    );
    return { legs, goalHit, cids };
  }

  /**
   * The new trades' ladders and stops, after every bot's turn, a group at a time (their locks taken together,
   * their statements and venue calls batched); trouble is logged (the reconciliation sweep tries again).
   */
  async function setUpAll(setUps: readonly SetUp[]) {
    const groups: SetUp[][] = [];
    for (let i = 0; i < setUps.length; i += SET_UP_GROUP) groups.push(setUps.slice(i, i + SET_UP_GROUP));
    for (const group of groups) {
      try {
        const items = await Promise.all(
          group.map(async ({ account, trade }) => ({ gateway: await gateways.forAccount(account), trade })),
        );
        await deps.entries.setUp(items);
      } catch (e) {
        deps.log.warn(
          { err: e, alertId: group[0]?.trade.alertId },
          'could not set up trades after their entries',
        );
      }
    }
  }

  async function handleBot(
    alert: AlertRow,
    strategy: StrategyRow,
    row: FanOutRow,
    /** What the bot does on this alert, decided once per bot. */
    plan: BotPlan,
    /** Orders of this alert that exist already, by client order id (read for all bots at once). */
    entries: Map<string, OrderRow>,
    /** One ticker per venue and symbol for the whole alert. */
    tickers: Map<string, Promise<Ticker>>,
    /** One balance snapshot per account for the whole alert (taken by its first bot to size). */
    balances: Map<string, Promise<Balances>>,
    /** Where each new trade is left for its set-up (ladder, stop) after every bot's turn. */
    setUps: SetUp[],
    /** Which trade holds each futures position (`account|symbol`) when the alert was picked up. */
    heldBy: Map<string, { id: string; botId: string | null }>,
  ): Promise<BotTurn> {
    const { bot, account, openTrade } = row;
    const base = { alertId: alert.id, botId: bot.id, userId: bot.userId };
    const { legs, goalHit, cids } = plan;
    // A retry after a crash: the exit this alert placed for the bot before its outcome was written (only a
    // retry looked exits up).
    const exit = CLOSE_LEGS.map((leg) => {
      const cid = cids.get(leg);
      return cid === undefined ? undefined : entries.get(cid);
    }).find(Boolean);
    if (legs.length === 0) {
      // A retry after a crash: this alert already opened the bot's trade before its outcome was written
      // (its set-up may not have run: it is done with the others).
      if (openTrade?.alertId === alert.id) {
        setUps.push({ account, trade: openTrade });
        return {
          outcome: {
            ...base,
            status: exit ? 'reversed' : 'opened',
            message: 'Done (resumed after a retry)',
            tradeIds: exit ? [exit.tradeId, openTrade.id] : [openTrade.id],
            retryable: false,
          },
        };
      }
      if (exit) {
        return {
          outcome: {
            ...base,
            status: 'closed',
            message: 'Done (resumed after a retry)',
            tradeIds: [exit.tradeId],
            retryable: false,
          },
        };
      }
      const why = !bot.isActive
        ? 'bot is inactive'
        : goalHit
          ? 'monthly goal reached'
          : `already ${bot.position}`;
      return {
        outcome: {
          ...base,
          status: 'skipped',
          message: `Nothing to do: ${why}`,
          tradeIds: [],
          retryable: false,
        },
      };
    }
    // An alert for another pair than the one the bot holds is not about its trade: closing or reversing it on
    // a signal for another symbol would trade against the strategy's intent (a short ETH signal is no exit of
    // a BTC long).
    const symbol = symbolFor(alert, strategy, bot);
    if (openTrade && openTrade.symbol !== symbol) {
      return {
        outcome: {
          ...base,
          status: 'skipped',
          message: `Nothing to do: the alert is for ${symbol}, the bot holds ${openTrade.symbol}`,
          tradeIds: [],
          retryable: false,
        },
      };
    }
    // A futures account holds one position per symbol: a bot does not open into a position another trade
    // holds (a manual trade, another bot following this alert's pair), which would net the two together.
    const holder = account.marketType === 'future' ? heldBy.get(`${account.id}|${symbol}`) : undefined;
    if (holder && holder.botId !== bot.id && legs.some((leg) => leg.startsWith('open'))) {
      return {
        outcome: {
          ...base,
          status: 'skipped',
          message: `Nothing to do: this futures account already holds ${symbol} for another trade (${holder.id})`,
          tradeIds: [],
          retryable: false,
        },
      };
    }
    const gateway = await gateways.forAccount(account);
    const tradeIds: string[] = [];
    let position: BotTurn['position'];
    for (const leg of legs) {
      const cid = cids.get(leg)!;
      if (leg === 'close_long' || leg === 'close_short') {
        if (openTrade) {
          // Re-read under the trade lock: one closed meanwhile (stop, take profit) is left as it is.
          const closed = await lifecycle.close(gateway, openTrade, cid, `signal ${alert.action}`);
          tradeIds.push(closed.id);
          if (closed.status !== 'closed')
            throw new RetryableExchangeError(`Exit of trade ${closed.id} is not filled yet`);
          // Its supervision set the bot out already.
        } else {
          // Closed meanwhile: by this alert before a crash (its bot not yet set out), or a stop, a take profit.
          if (exit) tradeIds.push(exit.tradeId);
          position = { position: 'out', tradeId: null };
        }
      } else {
        const side = leg === 'open_long' ? 'long' : 'short';
        const venue = `${account.exchange}:${account.marketType}:${account.sandbox}:${symbol}`;
        const trade = await deps.entries.open(gateway, {
          userId: bot.userId,
          botId: bot.id,
          accountId: account.id,
          strategyId: strategy.id,
          alertId: alert.id,
          symbol,
          side,
          ticker: () => sharedRead(tickers, venue, () => gateway.fetchTicker(symbol)),
          // One balance snapshot per account for the whole alert: its bots share what the account had.
          balances: () => sharedRead(balances, account.id, () => gateway.fetchBalances()),
          clientOrderId: cid,
          knownEntry: entries.get(cid) ?? null,
          price: alert.price,
          priceTolerancePercent: strategy.priceTolerancePercent,
          sizing: {
            fixedAmount: bot.fixedAmount,
            portfolioPercent: bot.portfolioPercent,
            leveragePercent: bot.leveragePercent,
            stableCoin: bot.stableCoin,
            marginMode: bot.marginMode,
          },
          plan: {
            takeProfits: strategy.takeProfits,
            stopLossPercent: strategy.stopLossPercent,
            breakEvenAfterTp1: strategy.breakEvenAfterTp1,
            stopLimitOffsetPercent: strategy.stopLimitOffsetPercent,
          },
        });
        tradeIds.push(trade.id);
        setUps.push({ account, trade });
        if (Number(trade.quantity) > 0) position = { position: side, tradeId: trade.id };
      }
    }
    // A retry after a crash between a reversal's legs: its close was done already.
    const closedBefore = exit !== undefined && legs[0]!.startsWith('open');
    if (closedBefore) tradeIds.unshift(exit.tradeId);
    const status =
      legs.length === 2 || closedBefore ? 'reversed' : legs[0]!.startsWith('open') ? 'opened' : 'closed';
    return {
      outcome: { ...base, status, message: `Done: ${legs.join(', ')}`, tradeIds, retryable: false },
      position,
    };
  }

  /**
   * Bots' turns written a batch at a time: positions first, then outcomes, so a bot whose outcome is
   * recorded (and is not visited again on a retry) has its position. `close` writes the rest and
   * reports a failed write, which fails the alert (it is retried; nothing already done is redone).
   */
  function turnWriter() {
    let pending: BotTurn[] = [];
    let writing = Promise.resolve();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failure: unknown;
    const flush = () => {
      clearTimeout(timer);
      timer = undefined;
      const batch = pending;
      pending = [];
      if (batch.length === 0) return writing;
      writing = writing
        .then(async () => {
          await deps.botPositions.setMany(
            batch.flatMap(({ outcome, position }) =>
              position ? [{ botId: outcome.botId, ...position }] : [],
            ),
          );
          await deps.alerts.saveOutcomes(batch.map((turn) => turn.outcome));
        })
        .catch((e: unknown) => {
          failure ??= e;
        });
      return writing;
    };
    return {
      add(turn: BotTurn) {
        pending.push(turn);
        if (pending.length >= OUTCOME_BATCH) void flush();
        else timer ??= setTimeout(flush, OUTCOME_FLUSH_MS);
      },
      async close() {
        await flush();
        if (failure) throw failure;
      },
    };
  }

  /**
   * The pair a bot trades on an alert: the alert's symbol (the webhook's, else the strategy's pair) when
   * the bot follows the strategy's pair, else the bot's own pair (a bot set to trade another currency).
   */
  function symbolFor(alert: AlertRow, strategy: StrategyRow, bot: BotRow): string {
    const own = `${bot.tradeCurrency}/${bot.stableCoin}`;
    const follows = bot.tradeCurrency === strategy.tradeCurrency && bot.stableCoin === strategy.stableCoin;
    return follows && alert.symbol ? alert.symbol : own;
  }

  /**
   * How far the signal's price was from the venue's (the first venue the alert's entries read), recorded on
   * the alert for the console; past the strategy's tolerance the entries were sized at the venue's price.
   */
  async function recordDeviation(alert: AlertRow, tickers: Map<string, Promise<Ticker>>) {
    const read = [...tickers].find(([key]) => key.endsWith(`:${alert.symbol}`))?.[1];
    if (!alert.price || !read) return;
    try {
      const deviation = signalPriceDeviation(alert.price, (await read).last);
      if (deviation) await deps.alerts.recordPriceDeviation(alert.id, deviation.toDecimalPlaces(8).toFixed());
    } catch (e) {
      deps.log.warn({ err: e, alertId: alert.id }, 'could not record the signal price deviation');
    }
  }

  return {
    async process(alert: AlertRow): Promise<AlertResult> {
      const strategy = await deps.alerts.strategyOf(alert);
      if (!strategy) return { retry: false };
      // Paused strategies' alerts are recorded but not fanned out; exits still protect open trades.
      if (strategy.status !== 'active' && alert.action !== 'exit') return { retry: false };
      // A signal that waited past the strategy's max lag (a backlog, a worker down) is not acted on.
      const late = lateSignal(alert, strategy.maxLagSeconds, new Date());
      if (late) {
        return {
          retry: false,
          expired: `Too late: claimed ${late.ageSeconds} s after the signal, past the strategy's max lag of ${strategy.maxLagSeconds} s (resume it to act on it anyway)`,
        };
      }
      const rows = await deps.alerts.fanOutRows(alert.id, strategy.id);
      const futures = [
        ...new Set(rows.filter((r) => r.account.marketType === 'future').map((r) => r.account.id)),
      ];
      const heldBy = new Map(
        (await trades.activeTradesOf(futures)).map((t) => [`${t.tradingAccountId}|${t.symbol}`, t]),
      );

      const pending = interleaveByAccount(rows.filter((row) => !row.settled)).map((row) => ({
        row,
        plan: planFor(alert, strategy, row),
      }));
      // The entries a previous run of this alert committed, for every bot in one read; on a retry also its exits
      // (a trade it closed before the crash let the bot's outcome be written: an exit, or a reversal's first leg).
      const entries = new Map(
        (
          await trades.ordersByClientIds(
            pending.flatMap(({ row, plan }) =>
              [...plan.cids]
                // Entries, and on a retry the exits; a first attempt's close legs have placed nothing yet.
                .filter(([leg]) => leg.startsWith('open') || alert.attempts > 1)
                .map(([, clientOrderId]) => ({ accountId: row.account.id, clientOrderId })),
            ),
          )
        ).map((order) => [order.clientOrderId, order]),
      );

      let retryable: string | undefined;
      let retryAfterMs: number | undefined;
      const tickers = new Map<string, Promise<Ticker>>();
      const balances = new Map<string, Promise<Balances>>();
      const writer = turnWriter();
      // A retry: trades this alert opened for bots settled before the crash may still lack their set-up.
      const setUps: SetUp[] =
        alert.attempts > 1
          ? rows.flatMap(({ settled, openTrade, account }) =>
              settled && openTrade?.alertId === alert.id ? [{ account, trade: openTrade }] : [],
            )
          : [];
      await mapLimited(pending, deps.botConcurrency, async ({ row, plan }) => {
        const { bot } = row;
        let turn: BotTurn;
        try {
          turn = await handleBot(alert, strategy, row, plan, entries, tickers, balances, setUps, heldBy);
        } catch (e) {
          const message = e instanceof Error ? e.message : String(e);
          const transient =
            e instanceof RetryableExchangeError ||
            e instanceof UnknownOutcomeError ||
            !(e instanceof ExchangeGatewayError || e instanceof DomainRuleError);
          if (transient) retryable = message;
          if (e instanceof UnresolvedOrderError) retryAfterMs = Math.max(retryAfterMs ?? 0, e.retryAfterMs);
          turn = {
            outcome: {
              alertId: alert.id,
              botId: bot.id,
              userId: bot.userId,
              status: 'failed',
              message,
              tradeIds: [],
              retryable: transient,
            },
          };
          deps.log.warn({ alertId: alert.id, botId: bot.id, err: e }, 'bot failed on alert');
        }
        writer.add(turn);
      });
      // Positions and outcomes are written before any set-up, which may move a trade on (a take profit
      // filled at once closes it and sets its bot out). A set-up that fails is logged and left to the
      // reconciliation sweep, as is one a crash interrupts (a new worker sweeps at start).
      const written = writer.close();
      await written.catch(() => undefined);
      await setUpAll(setUps);
      await written;
      await recordDeviation(alert, tickers);
      if (!retryable) return { retry: false };
      return retryAfterMs === undefined
        ? { retry: true, error: retryable }
        : { retry: true, error: retryable, retryAfterMs };
    },
  };
}
