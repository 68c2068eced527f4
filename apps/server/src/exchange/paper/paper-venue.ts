import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createBatchLoader, mapLimited } from '../../lib/batch-loader';
import { dec } from '../decimal';
import {
  InsufficientFundsError,
  InvalidOrderError,
  OrderNotFoundError,
  UnsupportedOperationError,
} from '../errors';
import type {
  AccountMarketType,
  Balances,
  CreateOrderRequest,
  Fill,
  FundingPayment,
  Market,
  Order,
  Position,
  StopOrder,
  StopOrderRequest,
} from '../gateway';
import { MarketSimulator, type PaperMarketData } from './market-simulator';
import { AccountSession } from './paper-account-session';
import { PaperDesk, type CheckedOrder } from './paper-desk';
import { lastFundingTime, toFundingPayment } from './paper-funding';
import { placeFutures, toPosition } from './paper-futures';
import {
  preparedLedger,
  type PaperBalanceRow,
  type PaperLedgerBatch,
  type PaperLedgerReader,
  type PaperLedgerStore,
  type PaperStopRow,
} from './paper-ledger-store';
import type { PaperMarketSpec } from './paper-markets';
import { matchIn } from './paper-resting';
import { isOpen, toFill, toOrder, toStopOrder } from './paper-rows';
import { placeSpot } from './paper-spot';
import { cancelStop, openStop, type CheckedStop } from './paper-stops';
import { validateOrder, validateStop } from './paper-validation';

export interface PaperFees {
  maker: string;
  taker: string;
}

export interface PaperVenueOptions {
  store: PaperLedgerStore;
  market?: PaperMarketData;
  /** Rates as fractions: 0.001 = 0.1 % (the default for both). */
  fees?: Partial<PaperFees>;
  clock?: () => number;
  newId?: () => string;
  /** Leverage of a futures position until `setLeverage` says otherwise. */
  defaultLeverage?: number;
}

export interface PaperFillEvent {
  accountId: string;
  marketType: AccountMarketType;
  order: Order;
  fill: Fill;
}

export interface PaperOrderEvent {
  accountId: string;
  marketType: AccountMarketType;
  order: Order;
  /**
   * The change is also the answer of the call that made it (`createOrder`, `cancelOrder`): that caller
   * applies it. Otherwise (a resting order matched) nobody was told yet.
   */
  reported: boolean;
}

export interface PaperStopEvent {
  accountId: string;
  marketType: AccountMarketType;
  stop: StopOrder;
  /** As `PaperOrderEvent.reported`: false when the tick triggered or expired it. */
  reported: boolean;
}

interface PaperVenueEvents {
  fill: [PaperFillEvent];
  order: [PaperOrderEvent];
  stop: [PaperStopEvent];
}

/** At most this many orders (or balance reads) go in one batch. */
const MAX_BATCH = 200;
/** Orders of a failed batch placed alone, this many at a time. */
const ALONE_CONCURRENCY = 8;

/** A stop asked for and checked, waiting for its batch. */
interface PendingStop {
  accountId: string;
  marketType: AccountMarketType;
  request: StopOrderRequest;
  spec: PaperMarketSpec;
  checked: CheckedStop;
}

/** An order asked for and checked, waiting for its batch. */
interface PendingOrder extends CheckedOrder {
  accountId: string;
  marketType: AccountMarketType;
}

/**
 * The simulated exchange behind every paper account: a deterministic market, an order book with depth,
 * market and limit orders, reduce-only, partial fills, maker/taker fees, spot balances, one-way USDT
 * futures positions and their stop-market orders, persisted through a `PaperLedgerStore`. `PaperGateway`
 * is one account's view of it.
 */
export class PaperVenue {
  readonly events = new EventEmitter<PaperVenueEvents>();
  readonly market: PaperMarketData;
  private readonly store: PaperLedgerStore;
  /** The market, fees, clock and ids that order-taking, matching and stops share. */
  private readonly desk: PaperDesk;
  private ticker: ReturnType<typeof setInterval> | null = null;
  private matching: Promise<void> | null = null;
  /** Places a checked order: with the others asked for meanwhile when the store can lock several accounts. */
  private readonly placeOrder: (pending: PendingOrder) => Promise<Order>;
  /** Places a checked stop: with the others asked for meanwhile when the store can lock several accounts. */
  private readonly placeStopPending: (pending: PendingStop) => Promise<PaperStopRow>;
  /** An account's balances, or null while orders rest: read with the others asked for meanwhile (likewise). */
  private readonly readIdleBalances: (accountId: string) => Promise<PaperBalanceRow[] | null>;

  constructor(options: PaperVenueOptions) {
    this.store = options.store;
    this.market = options.market ?? new MarketSimulator();
    this.desk = new PaperDesk(
      this.market,
      dec(options.fees?.maker ?? '0.001'),
      dec(options.fees?.taker ?? '0.001'),
      options.clock ?? (() => Date.now()),
      options.newId ?? (() => randomUUID().replace(/-/g, '')),
      options.defaultLeverage ?? 1,
    );
    const { store } = options;
    this.placeOrder = store.transactMany
      ? createBatchLoader((batch) => this.placeBatch(batch), { maxBatchSize: MAX_BATCH })
      : (pending) => this.placeAlone(pending);
    this.placeStopPending = store.transactMany
      ? createBatchLoader((batch) => this.placeStopBatch(batch), { maxBatchSize: MAX_BATCH })
      : (pending) => this.placeStopAlone(pending);
    this.readIdleBalances = store.balancesIfNoOpenOrdersMany
      ? createBatchLoader((ids) => store.balancesIfNoOpenOrdersMany!([...ids], this.fundingDue()), {
          maxBatchSize: MAX_BATCH,
        })
      : (accountId) => store.read(accountId, (ledger) => ledger.balancesIfNoOpenOrders(this.fundingDue()));
  }

  now(): number {
    return this.desk.clock();
  }

  /** A futures position unchanged since before this (the last funding time) has funding to settle. */
  private fundingDue(): number {
    return lastFundingTime(this.desk.clock());
  }

  // ---- accounts ------------------------------------------------------------------------------------------

  /** Credits the starting balances of a new paper account; does nothing if the account has a ledger already. */
  fundAccount(accountId: string, balances: Record<string, string>): Promise<boolean> {
    return this.store.transact(accountId, async (ledger) => {
      if ((await ledger.balances()).length > 0) return false;
      const rows = Object.entries(balances).map(([asset, amount]) => {
        const value = dec(amount);
        if (value.isNeg()) throw new InvalidOrderError(`Negative starting balance for ${asset}`);
        return { asset, free: value.toFixed(), used: '0' };
      });
      await ledger.write({ balances: rows });
      return true;
    });
  }

  async balances(accountId: string): Promise<Balances> {
    // Nothing resting (no order, no stop), nothing to match: one read. Else matching and the read in one
    // transaction.
    const rows =
      (await this.readIdleBalances(accountId)) ??
      (await this.inTransaction(accountId, async (session) => {
        await matchIn(this.desk, session);
        return session.allBalances();
      }));
    const result: Balances = {};
    for (const row of rows) {
      const free = dec(row.free);
      const used = dec(row.used);
      result[row.asset] = { free: free.toFixed(), used: used.toFixed(), total: free.plus(used).toFixed() };
    }
    return result;
  }

  /**
   * Reads the account as it is now: directly when no order or stop rests (nothing to match), else after
   * matching, in the matching transaction.
   */
  private async observe<T>(accountId: string, read: (ledger: PaperLedgerReader) => Promise<T>): Promise<T> {
    const idle = await this.store.read(accountId, async (ledger) =>
      (await ledger.hasOpenOrders(this.fundingDue())) ? null : { value: await read(ledger) },
    );
    if (idle) return idle.value;
    return this.inTransaction(accountId, async (session) => {
      await matchIn(this.desk, session);
      await session.flush();
      return read(session.ledger);
    });
  }

  // ---- markets -------------------------------------------------------------------------------------------

  listMarkets(marketType: AccountMarketType): Market[] {
    return this.market.listMarkets().map((spec) => ({
      symbol: spec.symbol,
      venueSymbol: marketType === 'future' ? `${spec.symbol}:${spec.quote}` : spec.symbol,
      base: spec.base,
      quote: spec.quote,
      type: marketType === 'future' ? 'swap' : 'spot',
      amountStep: spec.amountStep,
      priceTick: spec.priceTick,
      minAmount: spec.minAmount,
      minNotional: spec.minNotional,
      active: true,
    }));
  }

  spec(symbol: string): PaperMarketSpec {
    return this.desk.spec(symbol);
  }

  // ---- orders --------------------------------------------------------------------------------------------

  async createOrder(
    accountId: string,
    marketType: AccountMarketType,
    request: CreateOrderRequest,
  ): Promise<Order> {
    const spec = this.spec(request.symbol);
    const { amount, price } = validateOrder(spec, request, () =>
      this.market.price(spec.symbol, this.desk.clock()),
    );
    const pending = { accountId, marketType, request, spec, amount, price };
    return this.placeOrder(pending);
  }

  /** One order in its account's own transaction. */
  private placeAlone(pending: PendingOrder): Promise<Order> {
    return this.inTransaction(pending.accountId, async (session) => {
      // A second order with a used client id is that order (the executor's retry after a lost answer).
      const { takenBy, balances } = await session.ledger.prepareOrder(pending.request.clientOrderId);
      if (takenBy) return toOrder((await session.ledger.orderById(takenBy))!);
      session.useBalances(balances);
      return this.place(session, pending);
    });
  }

  /** Books the order in its account's session; its answer lists the fills it made at once. */
  private async place(session: AccountSession, pending: PendingOrder): Promise<Order> {
    const placeIn = pending.marketType === 'future' ? placeFutures : placeSpot;
    const order = await placeIn(this.desk, session, pending);
    session.reported.add(order.venueOrderId);
    const fills = session.fills.filter((event) => event.fill.venueOrderId === order.venueOrderId);
    return { ...toOrder(order), fills: fills.map((event) => event.fill) };
  }

  /**
   * Orders asked for together (in one tick: a fan-out's bots), placed in one transaction over all their
   * accounts (`inOneTransaction`), with one read and one write for all of them.
   */
  private placeBatch(batch: readonly PendingOrder[]): Promise<(Order | Error)[]> {
    return this.inOneTransaction(batch, (pending) => this.placeAlone(pending), {
      clientOrderId: (pending) => pending.request.clientOrderId,
      prepare: async (ledgers) => {
        const prepared = await ledgers.prepareOrders(
          batch.map(({ accountId, request }) => ({ accountId, clientOrderId: request.clientOrderId })),
        );
        return {
          taken: prepared.map((p) => p.takenBy !== null),
          open: async (accountId) => {
            const session = new AccountSession(accountId, ledgers.ledger(accountId));
            const account = prepared[batch.findIndex((p) => p.accountId === accountId)]!;
            session.useBalances(account.balances);
            session.usePositions(account.positions);
            return session;
          },
        };
      },
      place: (session, pending) => this.place(session, pending),
    });
  }

  /**
   * Items asked for together, placed in one transaction over all their accounts, in the order asked: what they
   * read first in `prepare` (a constant number of statements, whatever their number), each account's changes
   * written together at the end. One the venue refuses is refused alone (placing checks everything before it
   * changes anything). Those whose client id is taken already (`taken`) are placed one at a time after the
   * batch, answered with what holds it; so is every item of a batch that failed as a whole.
   */
  private async inOneTransaction<P extends { accountId: string }, R>(
    batch: readonly P[],
    placeAlone: (pending: P) => Promise<R>,
    steps: {
      clientOrderId(pending: P): string;
      prepare(ledgers: PaperLedgerBatch): Promise<{
        taken: boolean[];
        /** The account's session in this transaction, made when its first item is placed. */
        open(accountId: string): Promise<AccountSession>;
      }>;
      place(session: AccountSession, pending: P): Promise<R>;
    },
  ): Promise<(R | Error)[]> {
    const alone = (pending: P) => placeAlone(pending).catch((e: Error) => e);
    if (batch.length === 1) return [await alone(batch[0]!)];
    const results: (R | Error | undefined)[] = new Array(batch.length);
    const sessions = new Map<string, AccountSession>();
    try {
      await this.store.transactMany!(
        batch.map((pending) => pending.accountId),
        async (ledgers) => {
          const prepared = await steps.prepare(ledgers);
          const asked = new Set<string>();
          for (const [i, pending] of batch.entries()) {
            const key = `${pending.accountId} ${steps.clientOrderId(pending)}`;
            if (prepared.taken[i] || asked.has(key)) continue; // placed alone below: answered with that one
            asked.add(key);
            let session = sessions.get(pending.accountId);
            if (!session) {
              session = await prepared.open(pending.accountId);
              sessions.set(pending.accountId, session);
            }
            try {
              results[i] = await steps.place(session, pending);
            } catch (error) {
              if (!(error instanceof InvalidOrderError || error instanceof InsufficientFundsError))
                throw error;
              results[i] = error;
            }
          }
          await ledgers.write(
            [...sessions.values()].map((session) => ({
              accountId: session.accountId,
              writes: session.takeWrites(),
            })),
          );
        },
      );
    } catch {
      // Nothing of the batch was written (a client order id used meanwhile, an account deleted, a lost
      // connection): each on its own, as if it had come alone, is answered as that would be.
      return mapLimited(batch, ALONE_CONCURRENCY, alone);
    }
    for (const session of sessions.values()) this.publish(session);
    for (const [i, pending] of batch.entries()) results[i] ??= await alone(pending);
    return results as (R | Error)[];
  }

  async cancelOrder(accountId: string, venueOrderId: string): Promise<Order> {
    // Matched up to now first (it may have filled meanwhile), then cancelled, in one transaction.
    const row = await this.inTransaction(accountId, async (session) => {
      const { orders: resting } = await matchIn(this.desk, session);
      const order =
        resting.find((candidate) => candidate.venueOrderId === venueOrderId) ??
        (await session.ledger.orderById(venueOrderId));
      if (!order) throw new OrderNotFoundError(`Unknown paper order ${venueOrderId}`);
      if (!isOpen(order))
        throw new OrderNotFoundError(`Paper order ${venueOrderId} is already ${order.status}`);
      await this.desk.closeOrder(session, order, 'cancelled');
      session.reported.add(order.venueOrderId);
      return order;
    });
    return toOrder(row);
  }

  async fetchOrder(accountId: string, venueOrderId: string): Promise<Order> {
    const row = await this.observe(accountId, (ledger) => ledger.orderById(venueOrderId));
    if (!row) throw new OrderNotFoundError(`Unknown paper order ${venueOrderId}`);
    return toOrder(row);
  }

  async fetchOrderByClientId(accountId: string, clientOrderId: string): Promise<Order> {
    const row = await this.observe(accountId, (ledger) => ledger.orderByClientId(clientOrderId));
    if (!row) throw new OrderNotFoundError(`No paper order with client id ${clientOrderId}`);
    return toOrder(row);
  }

  /**
   * The orders resting or partly filled; a spot stop-limit's limit order only once its stop triggered (before,
   * it is the stop's, as a venue's untriggered stop is not among the gateway's open orders).
   */
  async openOrders(accountId: string, marketType: AccountMarketType, symbol?: string): Promise<Order[]> {
    const { orders, stops } = await this.observe(accountId, (ledger) => ledger.resting());
    const armed = new Set(stops.map((stop) => stop.limitPrice !== null && stop.triggeredOrderId));
    return orders
      .filter((row) => row.marketType === marketType && (symbol === undefined || row.symbol === symbol))
      .filter((row) => !armed.has(row.venueOrderId))
      .map(toOrder);
  }

  async fills(
    accountId: string,
    marketType: AccountMarketType,
    symbol: string,
    since?: number,
  ): Promise<Fill[]> {
    const rows = await this.observe(accountId, (ledger) => ledger.fills(symbol, since));
    return rows.filter((row) => row.marketType === marketType).map(toFill);
  }

  async positions(accountId: string): Promise<Position[]> {
    const rows = await this.observe(accountId, (ledger) => ledger.positions());
    const now = this.desk.clock();
    return rows
      .filter((row) => !dec(row.amount).isZero())
      .map((row) => toPosition(row, this.market.price(row.symbol, now)));
  }

  /** The futures funding the account paid or received on `symbol` since `since`, oldest first (issue 19). */
  async funding(accountId: string, symbol: string, since?: number): Promise<FundingPayment[]> {
    const rows = await this.observe(accountId, (ledger) => ledger.funding(symbol, since));
    return rows.map(toFundingPayment);
  }

  async setLeverage(accountId: string, symbol: string, leverage: number): Promise<void> {
    const spec = this.spec(symbol);
    if (!Number.isInteger(leverage) || leverage < 1 || leverage > 125) {
      throw new InvalidOrderError(`Leverage must be an integer from 1 to 125, got ${leverage}`);
    }
    await this.store.transact(accountId, async (ledger) => {
      const position = (await ledger.positions()).find((row) => row.symbol === spec.symbol);
      if (position && !dec(position.amount).isZero() && position.leverage !== leverage) {
        throw new UnsupportedOperationError('Leverage cannot change while a position is open');
      }
      await ledger.saveLeverage(spec.symbol, leverage);
      if (position) await ledger.savePosition({ ...position, leverage });
    });
  }

  /** Isolated or cross margin for the symbol; refused while a position is open on it (as Binance -4048). */
  async setMarginMode(accountId: string, symbol: string, mode: 'isolated' | 'cross'): Promise<void> {
    const spec = this.spec(symbol);
    await this.store.transact(accountId, async (ledger) => {
      const position = (await ledger.positions()).find((row) => row.symbol === spec.symbol);
      if ((position?.marginMode ?? 'cross') === mode) return;
      if (position && !dec(position.amount).isZero()) {
        throw new UnsupportedOperationError('Margin mode cannot change while a position is open');
      }
      await ledger.saveMarginMode(spec.symbol, mode);
    });
  }

  // ---- stops --------------------------------------------------------------------------------------------

  /**
   * Rests a stop. On futures a reduce-only stop-market (Binance USD-M STOP_MARKET, reduceOnly,
   * workingType=MARK_PRICE: here the venue's own price path), refused when there is no position it would
   * reduce; an amount larger than the position is capped when it triggers. On spot a stop-limit (Binance
   * STOP_LOSS_LIMIT): its limit order reserves what it sells at once, refused when too little is free. Refused
   * when the price is already through the trigger (Binance -2021 "Order would immediately trigger"). A client
   * id already used by one of the account's stops answers with that stop, whatever its state (the executor's
   * retry after a lost answer), as `createOrder` does.
   */
  async placeStop(
    accountId: string,
    marketType: AccountMarketType,
    request: StopOrderRequest,
  ): Promise<StopOrder> {
    const spec = this.spec(request.symbol);
    const checked = validateStop(spec, marketType, request);
    return toStopOrder(await this.placeStopPending({ accountId, marketType, request, spec, checked }));
  }

  /** One stop in its account's own transaction. */
  private placeStopAlone(pending: PendingStop): Promise<PaperStopRow> {
    const { accountId, request } = pending;
    return this.inTransaction(accountId, async (session) => {
      // Matched up to now first: the position the stop protects is the one the path left.
      const { stops } = await matchIn(this.desk, session);
      const existing =
        stops.find((stop) => stop.clientOrderId === request.clientOrderId) ??
        (await session.ledger.stopByClientId(request.clientOrderId));
      return existing ?? this.openStop(session, pending);
    });
  }

  private async openStop(session: AccountSession, pending: PendingStop): Promise<PaperStopRow> {
    const { spec, marketType, request, checked } = pending;
    const stop = await openStop(this.desk, session, spec, marketType, request, checked);
    session.reported.add(stop.venueOrderId);
    return stop;
  }

  /**
   * Stops asked for together (a benchmark's, a fan-out's), placed in one transaction over all their accounts
   * (`inOneTransaction`): one read of what they need (`prepareStops`), one matching pass per account from it,
   * one write.
   */
  private placeStopBatch(batch: readonly PendingStop[]): Promise<(PaperStopRow | Error)[]> {
    return this.inOneTransaction(batch, (pending) => this.placeStopAlone(pending), {
      clientOrderId: (pending) => pending.request.clientOrderId,
      prepare: async (ledgers) => {
        const { taken, accounts } = await ledgers.prepareStops(
          batch.map(({ accountId, request }) => ({ accountId, clientOrderId: request.clientOrderId })),
        );
        return {
          taken: taken.map((stop) => stop !== null),
          open: async (accountId) => {
            const prepared = accounts.get(accountId)!;
            const session = new AccountSession(
              accountId,
              preparedLedger(ledgers.ledger(accountId), prepared),
            );
            session.useBalances(prepared.balances);
            await matchIn(this.desk, session);
            return session;
          },
        };
      },
      place: (session, pending) => this.openStop(session, pending),
    });
  }

  /**
   * Cancels an open stop (matched up to now first), with a stop-limit's reservation; a stop triggered,
   * cancelled or expired answers its state (a triggered stop-limit's limit order is cancelled as an order).
   */
  async cancelStop(accountId: string, venueOrderId: string): Promise<StopOrder> {
    const row = await this.inTransaction(accountId, async (session) => {
      const { orders, stops } = await matchIn(this.desk, session);
      const stop =
        stops.find((candidate) => candidate.venueOrderId === venueOrderId) ??
        (await session.ledger.stopById(venueOrderId));
      if (!stop) throw new OrderNotFoundError(`Unknown paper stop ${venueOrderId}`);
      if (stop.status === 'open') await cancelStop(this.desk, session, stop, orders);
      return stop;
    });
    return toStopOrder(row);
  }

  async fetchStop(accountId: string, venueOrderId: string): Promise<StopOrder> {
    const row = await this.observe(accountId, (ledger) => ledger.stopById(venueOrderId));
    if (!row) throw new OrderNotFoundError(`Unknown paper stop ${venueOrderId}`);
    return toStopOrder(row);
  }

  async fetchStopByClientId(accountId: string, clientOrderId: string): Promise<StopOrder> {
    const row = await this.observe(accountId, (ledger) => ledger.stopByClientId(clientOrderId));
    if (!row) throw new OrderNotFoundError(`No paper stop with client id ${clientOrderId}`);
    return toStopOrder(row);
  }

  // ---- matching of resting orders ------------------------------------------------------------------------

  /**
   * Fills this account's resting limit orders wherever the price path went through their price since they
   * were last checked — as makers, at their own price, at most the book's depth per minute (so a large order
   * fills over several minutes) — and triggers its stops the path went through. Runs on every poll and on
   * the tick; the result only depends on the path.
   */
  async matchRestingOrders(accountId: string): Promise<void> {
    await this.inTransaction(accountId, async (session) => void (await matchIn(this.desk, session)));
  }

  /**
   * One matching pass over every account with resting orders or stops (the tick; the first one after a
   * start replays what the path did while the venue was not running). Passes never overlap. The accounts are
   * matched `MAX_BATCH` at a time, each group in one transaction (`matchBatch`).
   */
  matchAll(): Promise<void> {
    if (this.matching) return this.matching;
    this.matching = (async () => {
      try {
        const accountIds = await this.store.accountsWithOpenOrders();
        if (!this.store.transactMany) {
          for (const accountId of accountIds) await this.matchRestingOrders(accountId);
          return;
        }
        for (let i = 0; i < accountIds.length; i += MAX_BATCH) {
          await this.matchBatch(accountIds.slice(i, i + MAX_BATCH));
        }
      } finally {
        this.matching = null;
      }
    })();
    return this.matching;
  }

  /**
   * `matchRestingOrders` for several accounts in one transaction: one read of what they hold and what rests
   * on them, a matching pass per account from it, one write of what the path filled or triggered — a constant
   * number of statements for the group instead of a transaction each. A group that fails as a whole (an
   * account deleted meanwhile, a lost connection) wrote nothing: its accounts are then matched one at a time.
   */
  private async matchBatch(accountIds: string[]): Promise<void> {
    const sessions: AccountSession[] = [];
    try {
      await this.store.transactMany!(accountIds, async (ledgers) => {
        const accounts = await ledgers.prepareAccounts(accountIds);
        for (const accountId of accountIds) {
          const prepared = accounts.get(accountId)!;
          const session = new AccountSession(accountId, preparedLedger(ledgers.ledger(accountId), prepared));
          session.useBalances(prepared.balances);
          await matchIn(this.desk, session);
          sessions.push(session);
        }
        await ledgers.write(
          sessions.map((session) => ({ accountId: session.accountId, writes: session.takeWrites() })),
        );
      });
    } catch {
      for (const accountId of accountIds) await this.matchRestingOrders(accountId);
      return;
    }
    for (const session of sessions) this.publish(session);
  }

  /** Starts the matching tick; errors are reported through `onError` and do not stop it. */
  start(intervalMs = 1_000, onError: (error: unknown) => void = () => {}): void {
    if (this.ticker) return;
    this.ticker = setInterval(() => {
      this.matchAll().catch(onError);
    }, intervalMs);
    this.ticker.unref?.();
  }

  stop(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
  }

  /** Runs `work` in the account's transaction, then publishes its fills and order changes. */
  private async inTransaction<T>(
    accountId: string,
    work: (session: AccountSession) => Promise<T>,
  ): Promise<T> {
    let session: AccountSession | null = null;
    const result = await this.store.transact(accountId, async (ledger) => {
      session = new AccountSession(accountId, ledger);
      const value = await work(session);
      await session.flush();
      return value;
    });
    const committed = session as AccountSession | null;
    if (committed) this.publish(committed);
    return result;
  }

  /** What a committed session settled (funding, liquidation prices), and its fills and order changes as events. */
  private publish(session: AccountSession): void {
    if (session.fundingSettledUntil !== null) {
      this.desk.fundingSettled.set(session.accountId, session.fundingSettledUntil);
    }
    if (session.liquidationWatch) this.desk.liquidationWatch.set(session.accountId, session.liquidationWatch);
    else if (session.moneyChanged) this.desk.liquidationWatch.delete(session.accountId);
    for (const event of session.fills) this.events.emit('fill', event);
    for (const event of session.orders.values()) {
      this.events.emit('order', { ...event, reported: session.reported.has(event.order.venueOrderId) });
    }
    for (const event of session.stops.values()) {
      this.events.emit('stop', { ...event, reported: session.reported.has(event.stop.venueOrderId) });
    }
  }
}
