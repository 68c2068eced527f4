import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createBatchLoader, mapLimited } from '../../lib/batch-loader';
import { Decimal, ZERO, dec, isMultipleOf } from '../decimal';
import {
  InsufficientFundsError,
  InvalidOrderError,
  OrderNotFoundError,
  UnknownSymbolError,
  UnsupportedOperationError,
  venueWords,
} from '../errors';
import type {
  AccountMarketType,
  Balances,
  CreateOrderRequest,
  Fill,
  Market,
  Order,
  OrderSide,
  Position,
  StopOrder,
  StopOrderRequest,
} from '../gateway';
import { MarketSimulator, type PaperMarketData } from './market-simulator';
import {
  DuplicateClientOrderIdError,
  type PaperBalanceRow,
  type PaperFillRow,
  type PaperLedger,
  type PaperLedgerReader,
  type PaperLedgerStore,
  type PaperLedgerWrites,
  type PaperOrderRow,
  type PaperPositionRow,
  type PaperStopRow,
} from './paper-ledger-store';
import {
  applyFill,
  feeFor,
  roundDown,
  roundUp,
  totalAmount,
  totalCost,
  totalFees,
  walkBook,
  type Execution,
} from './paper-matching';
import type { PaperMarketSpec } from './paper-markets';

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

/** Resting orders are matched against at most this much unobserved price history. */
const MAX_CATCH_UP_MS = 30 * 86_400_000;
/**
 * A resting order nothing happened to keeps its stored `checkedUntil` this long: the path is straight
 * between minute marks, so matching it again from there finds exactly what matching from now would, and
 * the tick does not write every resting order every second.
 */
const CHECKPOINT_MS = 60_000;
/** Book levels an order is first matched against (see `take`). */
const TOP_LEVELS = 3;
const SETTLEMENT_ASSET = 'USDT';
/** At most this many orders (or balance reads) go in one batch. */
const MAX_BATCH = 200;
/** Orders of a failed batch placed alone, this many at a time. */
const ALONE_CONCURRENCY = 8;
/** Client ids of the orders triggered stops send: the stop's venue order id after it. */
const TRIGGERED_ORDER_ID_PREFIX = 'stop-';

/** An order asked for and checked, waiting for its batch. */
interface PendingOrder {
  accountId: string;
  marketType: AccountMarketType;
  request: CreateOrderRequest;
  spec: PaperMarketSpec;
  amount: Decimal;
  price: Decimal | null;
}

interface MutableBalance {
  free: Decimal;
  used: Decimal;
  dirty: boolean;
  /** Not in the ledger yet: written only once it holds something. */
  created?: boolean;
}

/** One account's balances, what it has not written yet and pending events inside a transaction. */
class AccountSession {
  private balances: Map<string, MutableBalance> | null = null;
  private unwrittenFills: PaperFillRow[] = [];
  private newOrders = new Map<string, PaperOrderRow>();
  private changedOrders = new Map<string, PaperOrderRow>();
  private newStops = new Map<string, PaperStopRow>();
  private changedStops = new Map<string, PaperStopRow>();
  readonly fills: PaperFillEvent[] = [];
  readonly orders = new Map<string, PaperOrderEvent>();
  readonly stops = new Map<string, PaperStopEvent>();
  /** Orders whose new state is returned to the caller of this transaction. */
  readonly reported = new Set<string>();

  constructor(
    readonly accountId: string,
    readonly ledger: PaperLedger,
  ) {}

  /** Balances this transaction has read already (so the first change needs no read of its own). */
  useBalances(rows: PaperBalanceRow[]): void {
    if (this.balances) return;
    this.balances = new Map();
    for (const row of rows) {
      this.balances.set(row.asset, { free: dec(row.free), used: dec(row.used), dirty: false });
    }
  }

  private async loadBalances(): Promise<Map<string, MutableBalance>> {
    if (!this.balances) this.useBalances(await this.ledger.balances());
    return this.balances!;
  }

  /** Every balance as this transaction sees it. */
  async allBalances(): Promise<PaperBalanceRow[]> {
    return [...(await this.loadBalances())]
      .map(([asset, b]) => ({ asset, free: b.free.toFixed(), used: b.used.toFixed() }))
      .sort((a, b) => (a.asset < b.asset ? -1 : a.asset > b.asset ? 1 : 0));
  }

  async balance(asset: string): Promise<MutableBalance> {
    const balances = await this.loadBalances();
    let balance = balances.get(asset);
    if (!balance) {
      balance = { free: ZERO, used: ZERO, dirty: true, created: true };
      balances.set(asset, balance);
    }
    return balance;
  }

  /** A fill to write with the rest at flush. */
  addFill(row: PaperFillRow): void {
    this.unwrittenFills.push(row);
  }

  /** A new order, written (as it is then) at flush. */
  addOrder(order: PaperOrderRow): void {
    this.newOrders.set(order.venueOrderId, order);
  }

  /** An order that changed, written (as it is then) at flush. */
  saveOrder(order: PaperOrderRow): void {
    if (!this.newOrders.has(order.venueOrderId)) this.changedOrders.set(order.venueOrderId, order);
  }

  /** A new stop, written (as it is then) at flush. */
  addStop(stop: PaperStopRow): void {
    this.newStops.set(stop.venueOrderId, stop);
  }

  /** A stop that changed, written (as it is then) at flush. */
  saveStop(stop: PaperStopRow): void {
    if (!this.newStops.has(stop.venueOrderId)) this.changedStops.set(stop.venueOrderId, stop);
  }

  async change(asset: string, delta: { free?: Decimal; used?: Decimal }): Promise<void> {
    const balance = await this.balance(asset);
    if (delta.free) balance.free = balance.free.plus(delta.free);
    if (delta.used) balance.used = balance.used.plus(delta.used);
    balance.dirty = true;
  }

  /**
   * The orders, fills and changed balances not written yet, now counted as written. A balance an order that
   * was refused only looked at (a new asset, still zero) is not written.
   */
  takeWrites(): PaperLedgerWrites {
    const dirty = [...(this.balances ?? [])].filter(
      ([, balance]) => balance.dirty && !(balance.created && balance.free.isZero() && balance.used.isZero()),
    );
    const changes = {
      newOrders: [...this.newOrders.values()],
      changedOrders: [...this.changedOrders.values()],
      fills: this.unwrittenFills,
      balances: dirty.map(([asset, b]) => ({ asset, free: b.free.toFixed(), used: b.used.toFixed() })),
      newStops: [...this.newStops.values()],
      changedStops: [...this.changedStops.values()],
    };
    this.newOrders = new Map();
    this.changedOrders = new Map();
    this.newStops = new Map();
    this.changedStops = new Map();
    this.unwrittenFills = [];
    for (const [, balance] of dirty) {
      balance.dirty = false;
      balance.created = false;
    }
    return changes;
  }

  /** Writes the orders, fills and changed balances in one go. */
  async flush(): Promise<void> {
    const changes = this.takeWrites();
    try {
      await this.ledger.write(changes);
    } catch (error) {
      if (error instanceof DuplicateClientOrderIdError) {
        throw new InvalidOrderError(`Duplicate clientOrderId ${error.clientOrderId}`, { cause: error });
      }
      throw error;
    }
  }
}

/** How much of a position (signed: negative short) an order of `side` closes at most: none when it opens or adds. */
function closable(position: Decimal, side: OrderSide): Decimal {
  return !position.isZero() && position.isNeg() === (side === 'buy') ? position.abs() : ZERO;
}

function isOpen(order: PaperOrderRow): boolean {
  return order.status === 'open' || order.status === 'partially_filled';
}

export function toOrder(row: PaperOrderRow): Order {
  const filled = dec(row.filled);
  return {
    venueOrderId: row.venueOrderId,
    clientOrderId: row.clientOrderId,
    symbol: row.symbol,
    side: row.side,
    type: row.type,
    status: row.status,
    price: row.price,
    amount: row.amount,
    filled: row.filled,
    average: filled.gt(0) ? dec(row.cost).div(filled).toDecimalPlaces(12).toFixed() : null,
    fee: dec(row.fee).gt(0) ? { cost: row.fee, currency: row.feeCurrency } : null,
    reduceOnly: row.reduceOnly,
    timestamp: row.createdAt,
  };
}

export function toStopOrder(row: PaperStopRow): StopOrder {
  return {
    venueOrderId: row.venueOrderId,
    clientOrderId: row.clientOrderId,
    symbol: row.symbol,
    side: row.side,
    amount: row.amount,
    triggerPrice: row.triggerPrice,
    status: row.status,
    triggeredOrderId: row.triggeredOrderId,
    timestamp: row.createdAt,
  };
}

export function toFill(row: PaperFillRow): Fill {
  return {
    venueTradeId: row.venueTradeId,
    venueOrderId: row.venueOrderId,
    symbol: row.symbol,
    side: row.side,
    price: row.price,
    amount: row.amount,
    cost: row.cost,
    fee: row.fee,
    feeCurrency: row.feeCurrency,
    takerOrMaker: row.takerOrMaker,
    timestamp: row.timestamp,
  };
}

/**
 * The simulated exchange behind every paper account: a deterministic market, an order book with depth,
 * market and limit orders, reduce-only, partial fills, maker/taker fees, spot balances, one-way USDT
 * futures positions and their stop-market orders, persisted through a `PaperLedgerStore`. `PaperGateway`
 * is one account's view of it.
 */
/** Maintenance margin rate of the paper venue's futures (Binance's first bracket for BTC). */
const MAINTENANCE_MARGIN_RATE = dec('0.004');

/**
 * Where an isolated position is liquidated: its margin (entry ÷ leverage) used up but the maintenance
 * margin — long: entry × (1 − 1/leverage + mmr), short: entry × (1 + 1/leverage − mmr). A cross position's
 * depends on the whole wallet: not shown.
 */
function isolatedLiquidationPrice(row: PaperPositionRow, amount: Decimal): string | null {
  if (row.marginMode !== 'isolated') return null;
  const entry = dec(row.entryPrice);
  const step = dec(1).div(row.leverage).minus(MAINTENANCE_MARGIN_RATE);
  const price = amount.isNeg() ? entry.times(dec(1).plus(step)) : entry.times(dec(1).minus(step));
  return Decimal.max(price, 0).toDecimalPlaces(8).toFixed();
}

export class PaperVenue {
  readonly events = new EventEmitter<PaperVenueEvents>();
  readonly market: PaperMarketData;
  private readonly store: PaperLedgerStore;
  private readonly makerRate: Decimal;
  private readonly takerRate: Decimal;
  private readonly clock: () => number;
  private readonly newId: () => string;
  private readonly defaultLeverage: number;
  private ticker: ReturnType<typeof setInterval> | null = null;
  private matching: Promise<void> | null = null;
  /** Places a checked order: with the others asked for meanwhile when the store can lock several accounts. */
  private readonly placeOrder: (pending: PendingOrder) => Promise<Order>;
  /** An account's balances, or null while orders rest: read with the others asked for meanwhile (likewise). */
  private readonly readIdleBalances: (accountId: string) => Promise<PaperBalanceRow[] | null>;

  constructor(options: PaperVenueOptions) {
    this.store = options.store;
    this.market = options.market ?? new MarketSimulator();
    this.makerRate = dec(options.fees?.maker ?? '0.001');
    this.takerRate = dec(options.fees?.taker ?? '0.001');
    this.clock = options.clock ?? (() => Date.now());
    this.newId = options.newId ?? (() => randomUUID().replace(/-/g, ''));
    this.defaultLeverage = options.defaultLeverage ?? 1;
    const { store } = options;
    this.placeOrder = store.transactMany
      ? createBatchLoader((batch) => this.placeBatch(batch), { maxBatchSize: MAX_BATCH })
      : (pending) => this.placeAlone(pending);
    this.readIdleBalances = store.balancesIfNoOpenOrdersMany
      ? createBatchLoader((ids) => store.balancesIfNoOpenOrdersMany!([...ids]), { maxBatchSize: MAX_BATCH })
      : (accountId) => store.read(accountId, (ledger) => ledger.balancesIfNoOpenOrders());
  }

  now(): number {
    return this.clock();
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
        await this.matchIn(session);
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
      (await ledger.hasOpenOrders()) ? null : { value: await read(ledger) },
    );
    if (idle) return idle.value;
    return this.inTransaction(accountId, async (session) => {
      await this.matchIn(session);
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
    const spec = this.market.getMarket(symbol) ?? this.market.getMarket(symbol.split(':')[0]!);
    if (!spec) throw new UnknownSymbolError(`The paper venue has no market ${symbol}`);
    return spec;
  }

  // ---- orders --------------------------------------------------------------------------------------------

  async createOrder(
    accountId: string,
    marketType: AccountMarketType,
    request: CreateOrderRequest,
  ): Promise<Order> {
    const spec = this.spec(request.symbol);
    const { amount, price } = this.validate(spec, request);
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
    const { marketType, spec, request, amount, price } = pending;
    const order =
      marketType === 'future'
        ? await this.placeFutures(session, spec, request, amount, price)
        : await this.placeSpot(session, spec, request, amount, price);
    session.reported.add(order.venueOrderId);
    const fills = session.fills.filter((event) => event.fill.venueOrderId === order.venueOrderId);
    return { ...toOrder(order), fills: fills.map((event) => event.fill) };
  }

  /**
   * Orders asked for together (in one tick: a fan-out's bots), placed in one transaction over all their
   * accounts, in the order asked, with one read and one write for all of them. An order the venue refuses
   * is refused alone (placing checks everything before it changes anything). Orders whose client id is
   * taken already are placed one at a time after the batch.
   */
  private async placeBatch(batch: readonly PendingOrder[]): Promise<(Order | Error)[]> {
    const alone = (pending: PendingOrder) => this.placeAlone(pending).catch((e: Error) => e);
    if (batch.length === 1) return [await alone(batch[0]!)];
    const results: (Order | Error | undefined)[] = new Array(batch.length);
    const sessions = new Map<string, AccountSession>();
    try {
      await this.store.transactMany!(
        batch.map((pending) => pending.accountId),
        async (ledgers) => {
          const prepared = await ledgers.prepareOrders(
            batch.map(({ accountId, request }) => ({ accountId, clientOrderId: request.clientOrderId })),
          );
          const asked = new Set<string>();
          for (const [i, pending] of batch.entries()) {
            const key = `${pending.accountId} ${pending.request.clientOrderId}`;
            if (prepared[i]!.takenBy || asked.has(key)) continue; // placed alone below: answered with that order
            asked.add(key);
            let session = sessions.get(pending.accountId);
            if (!session) {
              session = new AccountSession(pending.accountId, ledgers.ledger(pending.accountId));
              session.useBalances(prepared[i]!.balances);
              sessions.set(pending.accountId, session);
            }
            try {
              results[i] = await this.place(session, pending);
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
      // connection): each order on its own, as if it had come alone, is answered as that would be.
      return mapLimited(batch, ALONE_CONCURRENCY, alone);
    }
    for (const session of sessions.values()) this.publish(session);
    for (const [i, pending] of batch.entries()) results[i] ??= await alone(pending);
    return results as (Order | Error)[];
  }

  private validate(
    spec: PaperMarketSpec,
    request: CreateOrderRequest,
  ): { amount: Decimal; price: Decimal | null } {
    if (!request.clientOrderId || request.clientOrderId.length > 36) {
      throw new InvalidOrderError('clientOrderId is required (at most 36 characters)');
    }
    let amount: Decimal;
    let price: Decimal | null = null;
    try {
      amount = dec(request.amount);
      if (request.type === 'limit') price = dec(request.price ?? '');
    } catch {
      throw new InvalidOrderError('Amount and price must be decimal numbers');
    }
    if (amount.lte(0) || !isMultipleOf(amount, dec(spec.amountStep)) || amount.lt(spec.minAmount)) {
      throw new InvalidOrderError(
        `Amount ${request.amount} must be a multiple of ${spec.amountStep} and at least ${spec.minAmount}`,
      );
    }
    if (price !== null && (price.lte(0) || !isMultipleOf(price, dec(spec.priceTick)))) {
      throw new InvalidOrderError(`Price ${request.price} must be a positive multiple of ${spec.priceTick}`);
    }
    const reference = price ?? this.market.price(spec.symbol, this.clock());
    if (!request.reduceOnly && amount.times(reference).lt(spec.minNotional)) {
      throw new InvalidOrderError(`Order value must be at least ${spec.minNotional} ${spec.quote}`);
    }
    return { amount, price };
  }

  private newOrderRow(
    spec: PaperMarketSpec,
    marketType: AccountMarketType,
    request: CreateOrderRequest,
    amount: Decimal,
    price: Decimal | null,
    now: number,
  ): PaperOrderRow {
    return {
      venueOrderId: this.newId(),
      clientOrderId: request.clientOrderId,
      marketType,
      symbol: spec.symbol,
      side: request.side,
      type: request.type,
      price: price?.toFixed() ?? null,
      amount: amount.toFixed(),
      filled: '0',
      cost: '0',
      fee: '0',
      feeCurrency: spec.quote,
      status: 'open',
      reduceOnly: request.reduceOnly === true,
      reservedAsset: null,
      reserved: '0',
      createdAt: now,
      updatedAt: now,
      checkedUntil: now,
    };
  }

  /** What the order takes from the book right now (up to its limit), and what is left to rest. */
  private take(
    spec: PaperMarketSpec,
    request: CreateOrderRequest,
    amount: Decimal,
    price: Decimal | null,
    now: number,
  ): { executions: Execution[]; taken: Decimal; rest: Decimal } {
    const walk = (levels?: number) => {
      const book = this.market.orderBook(spec.symbol, now, levels);
      const executions = walkBook(
        request.side === 'buy' ? book.asks : book.bids,
        request.side,
        amount,
        price ?? undefined,
      );
      return { executions, taken: totalAmount(executions) };
    };
    // The top of the book is built first (most orders take one or two levels); the whole book only when
    // the order wants more. A book's first levels are the same whatever its depth, so the result is too.
    let result = walk(TOP_LEVELS);
    if (result.taken.lt(amount)) result = walk();
    const { executions, taken } = result;
    return { executions, taken, rest: request.type === 'limit' ? amount.minus(taken) : ZERO };
  }

  /** Terminal status of a taker order once its immediate executions are known. */
  private statusAfterTaking(order: PaperOrderRow, taken: Decimal, amount: Decimal): PaperOrderRow['status'] {
    if (taken.eq(amount)) return 'filled';
    // A market order takes what the book offers and expires for the rest.
    if (order.type === 'market') return 'expired';
    return taken.gt(0) ? 'partially_filled' : 'open';
  }

  private async placeSpot(
    session: AccountSession,
    spec: PaperMarketSpec,
    request: CreateOrderRequest,
    amount: Decimal,
    price: Decimal | null,
  ): Promise<PaperOrderRow> {
    const now = this.clock();
    const base = await session.balance(spec.base);
    const quote = await session.balance(spec.quote);
    if (request.reduceOnly) {
      // Spot positions are holdings: reduce-only may only sell what is held.
      if (request.side === 'buy')
        throw new InvalidOrderError('Reduce-only buy would open or increase a position');
      if (base.free.plus(base.used).lt(amount)) {
        throw new InvalidOrderError(`Reduce-only sell of ${amount.toFixed()} exceeds the ${spec.base} held`);
      }
    }
    const { executions, taken, rest } = this.take(spec, request, amount, price, now);
    const order = this.newOrderRow(spec, 'spot', request, amount, price, now);

    // Check the whole order first; nothing changes unless it can be paid for.
    let restReserve = ZERO;
    if (request.side === 'buy') {
      restReserve = rest.gt(0) ? roundUp(rest.times(price!).times(this.makerRate.plus(1))) : ZERO;
      const needed = totalCost(executions).plus(totalFees(executions, this.takerRate)).plus(restReserve);
      if (quote.free.lt(needed)) {
        throw new InsufficientFundsError(
          ...venueWords('INSUFFICIENT_FUNDS', {
            variant: 'balance',
            asset: spec.quote,
            needed: needed.toFixed(),
            available: quote.free.toFixed(),
          }),
        );
      }
    } else {
      restReserve = rest;
      if (base.free.lt(amount)) {
        throw new InsufficientFundsError(
          ...venueWords('INSUFFICIENT_FUNDS', {
            variant: 'balance',
            asset: spec.base,
            needed: amount.toFixed(),
            available: base.free.toFixed(),
          }),
        );
      }
    }

    for (const execution of executions) {
      await this.executeSpot(session, spec, order, execution, 'taker', now);
    }
    if (restReserve.gt(0)) {
      const asset = request.side === 'buy' ? spec.quote : spec.base;
      await session.change(asset, { free: restReserve.neg(), used: restReserve });
      order.reservedAsset = asset;
      order.reserved = restReserve.toFixed();
    }
    order.status = this.statusAfterTaking(order, taken, amount);
    session.addOrder(order);
    this.recordOrder(session, order);
    return order;
  }

  /** Books one spot execution: balances, the order's totals, a fill row and its event. */
  private async executeSpot(
    session: AccountSession,
    spec: PaperMarketSpec,
    order: PaperOrderRow,
    execution: Execution,
    role: 'taker' | 'maker',
    timestamp: number,
  ): Promise<void> {
    const cost = execution.price.times(execution.amount);
    const fee = feeFor(cost, role === 'maker' ? this.makerRate : this.takerRate);
    const fromReserve = this.releaseReservation(order, execution.amount);
    if (order.side === 'buy') {
      // Reserved quote (resting part) goes back to free, then the purchase is paid from free.
      await session.change(spec.quote, { free: fromReserve.minus(cost).minus(fee), used: fromReserve.neg() });
      await session.change(spec.base, { free: execution.amount });
    } else {
      await session.change(spec.base, {
        free: execution.amount.minus(fromReserve).neg(),
        used: fromReserve.neg(),
      });
      await session.change(spec.quote, { free: cost.minus(fee) });
    }
    await this.recordExecution(session, order, execution, fee, role, timestamp, ZERO);
  }

  /**
   * The part of the order's reservation that covers `amount` of its remaining size (all of it on the last
   * fill), removed from the order.
   */
  private releaseReservation(order: PaperOrderRow, amount: Decimal): Decimal {
    const reserved = dec(order.reserved);
    if (reserved.isZero()) return ZERO;
    const remaining = dec(order.amount).minus(order.filled);
    const share = amount.gte(remaining) ? reserved : roundDown(reserved.times(amount).div(remaining));
    order.reserved = reserved.minus(share).toFixed();
    return share;
  }

  private async recordExecution(
    session: AccountSession,
    order: PaperOrderRow,
    execution: Execution,
    fee: Decimal,
    role: 'taker' | 'maker',
    timestamp: number,
    realizedPnl: Decimal,
  ): Promise<void> {
    const cost = execution.price.times(execution.amount);
    order.filled = dec(order.filled).plus(execution.amount).toFixed();
    order.cost = dec(order.cost).plus(cost).toFixed();
    order.fee = dec(order.fee).plus(fee).toFixed();
    order.updatedAt = timestamp;
    if (dec(order.filled).gte(order.amount)) order.status = 'filled';
    else if (order.type === 'limit' && isOpen(order)) order.status = 'partially_filled';
    const row: PaperFillRow = {
      venueTradeId: this.newId(),
      venueOrderId: order.venueOrderId,
      marketType: order.marketType,
      symbol: order.symbol,
      side: order.side,
      price: execution.price.toFixed(),
      amount: execution.amount.toFixed(),
      cost: cost.toFixed(),
      fee: fee.toFixed(),
      feeCurrency: order.feeCurrency,
      takerOrMaker: role,
      realizedPnl: realizedPnl.toFixed(),
      timestamp,
    };
    session.addFill(row);
    session.fills.push({
      accountId: session.accountId,
      marketType: order.marketType,
      order: toOrder(order),
      fill: toFill(row),
    });
  }

  private recordOrder(session: AccountSession, order: PaperOrderRow): void {
    session.orders.set(order.venueOrderId, {
      accountId: session.accountId,
      marketType: order.marketType,
      order: toOrder(order),
      reported: false,
    });
  }

  private async positionOf(ledger: PaperLedger, symbol: string): Promise<PaperPositionRow> {
    const existing = (await ledger.positions()).find((row) => row.symbol === symbol);
    if (existing) return existing;
    const leverage = (await ledger.leverage(symbol)) ?? this.defaultLeverage;
    return { symbol, amount: '0', entryPrice: '0', leverage, margin: '0', updatedAt: this.clock() };
  }

  private async placeFutures(
    session: AccountSession,
    spec: PaperMarketSpec,
    request: CreateOrderRequest,
    amount: Decimal,
    price: Decimal | null,
  ): Promise<PaperOrderRow> {
    const now = this.clock();
    const position = await this.positionOf(session.ledger, spec.symbol);
    const closes = closable(dec(position.amount), request.side);
    if (request.reduceOnly && (closes.isZero() || amount.gt(closes))) {
      throw new InvalidOrderError(
        closes.isZero()
          ? 'Reduce-only order would open or increase a position'
          : `Reduce-only order of ${amount.toFixed()} exceeds the ${closes.toFixed()} position`,
      );
    }
    const taking = this.take(spec, request, amount, price, now);
    const { executions, taken, rest } = taking;

    // Margin for what the executions open (beyond what they close), fees, and the resting part.
    const opening = Decimal.max(0, taken.minus(closes));
    const openingShare = taken.isZero() ? ZERO : opening.div(taken);
    const openingMargin = roundUp(totalCost(executions).times(openingShare).div(position.leverage));
    const restReserve =
      rest.gt(0) && !request.reduceOnly
        ? roundUp(rest.times(price!).div(position.leverage).times(this.makerRate.plus(1)))
        : ZERO;
    const usdt = await session.balance(SETTLEMENT_ASSET);
    const needed = openingMargin.plus(totalFees(executions, this.takerRate)).plus(restReserve);
    if (usdt.free.lt(needed)) {
      throw new InsufficientFundsError(
        ...venueWords('INSUFFICIENT_FUNDS', {
          variant: 'margin',
          asset: SETTLEMENT_ASSET,
          needed: needed.toFixed(),
          available: usdt.free.toFixed(),
        }),
      );
    }

    return this.bookFutures(session, spec, request, amount, price, now, taking, restReserve);
  }

  /**
   * Books a futures order taking `taking` from the book at `now`, once it is known to be allowed: its
   * executions against the position (fills, taker fees, PnL, margin), the margin reserved for what rests,
   * its status and its event. An order placed and the order a triggered stop sends both go through here.
   */
  private async bookFutures(
    session: AccountSession,
    spec: PaperMarketSpec,
    request: CreateOrderRequest,
    amount: Decimal,
    price: Decimal | null,
    now: number,
    taking: { executions: Execution[]; taken: Decimal },
    restReserve: Decimal,
  ): Promise<PaperOrderRow> {
    const order = this.newOrderRow(spec, 'future', request, amount, price, now);
    order.feeCurrency = SETTLEMENT_ASSET;
    for (const execution of taking.executions) {
      await this.executeFutures(session, order, execution, 'taker', now);
    }
    if (restReserve.gt(0)) {
      await session.change(SETTLEMENT_ASSET, { free: restReserve.neg(), used: restReserve });
      order.reservedAsset = SETTLEMENT_ASSET;
      order.reserved = restReserve.toFixed();
    }
    order.status = this.statusAfterTaking(order, taking.taken, amount);
    session.addOrder(order);
    this.recordOrder(session, order);
    return order;
  }

  private async executeFutures(
    session: AccountSession,
    order: PaperOrderRow,
    execution: Execution,
    role: 'taker' | 'maker',
    timestamp: number,
  ): Promise<Decimal> {
    const row = await this.positionOf(session.ledger, order.symbol);
    let amount = execution.amount;
    if (order.reduceOnly) {
      // The position may have shrunk since the order was placed: never flip it.
      amount = Decimal.min(amount, closable(dec(row.amount), order.side));
      if (amount.isZero()) return ZERO;
    }
    const fill = { price: execution.price, amount };
    const fee = feeFor(fill.price.times(amount), role === 'maker' ? this.makerRate : this.takerRate);
    const fromReserve = this.releaseReservation(order, amount);
    const change = applyFill(
      {
        amount: dec(row.amount),
        entryPrice: dec(row.entryPrice),
        margin: dec(row.margin),
        leverage: row.leverage,
      },
      order.side,
      fill.price,
      amount,
    );
    await session.change(SETTLEMENT_ASSET, {
      free: fromReserve
        .minus(change.marginAdded)
        .plus(change.marginReleased)
        .plus(change.realizedPnl)
        .minus(fee),
      used: fromReserve.neg().plus(change.marginAdded).minus(change.marginReleased),
    });
    await session.ledger.savePosition({
      symbol: order.symbol,
      amount: change.position.amount.toFixed(),
      entryPrice: change.position.entryPrice.toFixed(),
      leverage: row.leverage,
      margin: change.position.margin.toFixed(),
      updatedAt: timestamp,
    });
    await this.recordExecution(session, order, fill, fee, role, timestamp, change.realizedPnl);
    return amount;
  }

  async cancelOrder(accountId: string, venueOrderId: string): Promise<Order> {
    // Matched up to now first (it may have filled meanwhile), then cancelled, in one transaction.
    const row = await this.inTransaction(accountId, async (session) => {
      const { orders: resting } = await this.matchIn(session);
      const order =
        resting.find((candidate) => candidate.venueOrderId === venueOrderId) ??
        (await session.ledger.orderById(venueOrderId));
      if (!order) throw new OrderNotFoundError(`Unknown paper order ${venueOrderId}`);
      if (!isOpen(order))
        throw new OrderNotFoundError(`Paper order ${venueOrderId} is already ${order.status}`);
      await this.closeOrder(session, order, 'cancelled');
      session.reported.add(order.venueOrderId);
      return order;
    });
    return toOrder(row);
  }

  private async closeOrder(session: AccountSession, order: PaperOrderRow, status: 'cancelled' | 'expired') {
    const reserved = dec(order.reserved);
    if (order.reservedAsset && reserved.gt(0)) {
      await session.change(order.reservedAsset, { free: reserved, used: reserved.neg() });
    }
    order.reserved = '0';
    order.status = status;
    order.updatedAt = this.clock();
    session.saveOrder(order);
    this.recordOrder(session, order);
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

  async openOrders(accountId: string, marketType: AccountMarketType, symbol?: string): Promise<Order[]> {
    const rows = await this.observe(accountId, (ledger) => ledger.openOrders(symbol));
    return rows.filter((row) => row.marketType === marketType).map(toOrder);
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
    const now = this.clock();
    return rows
      .filter((row) => !dec(row.amount).isZero())
      .map((row) => {
        const amount = dec(row.amount);
        const mark = this.market.price(row.symbol, now);
        return {
          symbol: row.symbol,
          side: amount.isNeg() ? 'short' : 'long',
          amount: amount.abs().toFixed(),
          entryPrice: row.entryPrice,
          markPrice: mark.toFixed(),
          unrealizedPnl: mark.minus(row.entryPrice).times(amount).toFixed(),
          leverage: String(row.leverage),
          liquidationPrice: isolatedLiquidationPrice(row, amount),
        } satisfies Position;
      });
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

  // ---- stops (futures) ----------------------------------------------------------------------------------

  /**
   * Rests a reduce-only stop-market (Binance USD-M STOP_MARKET, reduceOnly, workingType=MARK_PRICE: here the
   * venue's own price path). Refused when the price is already through the trigger (Binance -2021 "Order
   * would immediately trigger") and when there is no position it would reduce; an amount larger than the
   * position is capped when it triggers. A client id already used by one of the account's stops answers with
   * that stop, whatever its state (the executor's retry after a lost answer), as `createOrder` does.
   */
  async placeStop(
    accountId: string,
    marketType: AccountMarketType,
    request: StopOrderRequest,
  ): Promise<StopOrder> {
    if (marketType !== 'future') {
      throw new UnsupportedOperationError('Stop orders rest on futures accounts only');
    }
    const spec = this.spec(request.symbol);
    const { amount, triggerPrice } = this.validateStop(spec, request);
    const row = await this.inTransaction(accountId, async (session) => {
      // Matched up to now first: the position the stop protects is the one the path left.
      const { stops } = await this.matchIn(session);
      const existing =
        stops.find((stop) => stop.clientOrderId === request.clientOrderId) ??
        (await session.ledger.stopByClientId(request.clientOrderId));
      if (existing) return existing;
      const now = this.clock();
      const held = dec((await this.positionOf(session.ledger, spec.symbol)).amount);
      if (closable(held, request.side).isZero()) {
        throw new InvalidOrderError(
          `Reduce-only stop would open or increase a position: no ${request.side === 'sell' ? 'long' : 'short'} position on ${spec.symbol}`,
        );
      }
      const price = this.market.price(spec.symbol, now);
      if (request.side === 'sell' ? triggerPrice.gte(price) : triggerPrice.lte(price)) {
        throw new InvalidOrderError(
          `Order would immediately trigger: ${request.side} stop at ${triggerPrice.toFixed()} with the price at ${price.toFixed()}`,
        );
      }
      const stop: PaperStopRow = {
        venueOrderId: this.newId(),
        clientOrderId: request.clientOrderId,
        marketType,
        symbol: spec.symbol,
        side: request.side,
        amount: amount.toFixed(),
        triggerPrice: triggerPrice.toFixed(),
        status: 'open',
        triggeredOrderId: null,
        createdAt: now,
        updatedAt: now,
        checkedUntil: now,
      };
      session.addStop(stop);
      this.recordStop(session, stop);
      session.reported.add(stop.venueOrderId);
      return stop;
    });
    return toStopOrder(row);
  }

  private validateStop(
    spec: PaperMarketSpec,
    request: StopOrderRequest,
  ): { amount: Decimal; triggerPrice: Decimal } {
    if (!request.clientOrderId || request.clientOrderId.length > 36) {
      throw new InvalidOrderError('clientOrderId is required (at most 36 characters)');
    }
    if (request.side !== 'buy' && request.side !== 'sell') {
      throw new InvalidOrderError(`Unknown side ${String(request.side)}`);
    }
    let amount: Decimal;
    let triggerPrice: Decimal;
    try {
      amount = dec(request.amount);
      triggerPrice = dec(request.triggerPrice);
    } catch {
      throw new InvalidOrderError('Amount and trigger price must be decimal numbers');
    }
    if (amount.lte(0) || !isMultipleOf(amount, dec(spec.amountStep)) || amount.lt(spec.minAmount)) {
      throw new InvalidOrderError(
        `Amount ${request.amount} must be a multiple of ${spec.amountStep} and at least ${spec.minAmount}`,
      );
    }
    if (triggerPrice.lte(0) || !isMultipleOf(triggerPrice, dec(spec.priceTick))) {
      throw new InvalidOrderError(
        `Trigger price ${request.triggerPrice} must be a positive multiple of ${spec.priceTick}`,
      );
    }
    return { amount, triggerPrice };
  }

  /** Cancels an open stop (matched up to now first); a stop triggered, cancelled or expired answers its state. */
  async cancelStop(accountId: string, venueOrderId: string): Promise<StopOrder> {
    const row = await this.inTransaction(accountId, async (session) => {
      const { stops } = await this.matchIn(session);
      const stop =
        stops.find((candidate) => candidate.venueOrderId === venueOrderId) ??
        (await session.ledger.stopById(venueOrderId));
      if (!stop) throw new OrderNotFoundError(`Unknown paper stop ${venueOrderId}`);
      if (stop.status !== 'open') return stop;
      stop.status = 'cancelled';
      stop.updatedAt = this.clock();
      session.saveStop(stop);
      this.recordStop(session, stop);
      session.reported.add(stop.venueOrderId);
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
    await this.inTransaction(accountId, async (session) => void (await this.matchIn(session)));
  }

  /**
   * Matching inside the account's transaction; returns the orders and stops that were resting, as they are
   * now. Stops are triggered in the order the path crossed them, the resting orders matched up to each
   * trigger first: a take-profit that filled before the stop shrank the position it closes, one the path
   * reached after it finds the position gone. After a restart (or a quiet account) this replays the part
   * of the path nobody looked at yet — the simulated path is a function of time, so what a stop missed
   * while Kairos was stopped is found from its `checkedUntil` (at most `MAX_CATCH_UP_MS` back).
   */
  private async matchIn(
    session: AccountSession,
  ): Promise<{ orders: PaperOrderRow[]; stops: PaperStopRow[] }> {
    const now = this.clock();
    const { orders, stops } = await session.ledger.resting();
    const stored = new Map(orders.map((order) => [order.venueOrderId, order.checkedUntil]));
    const triggers = stops
      .map((stop, index) => ({ stop, index, at: this.triggerTime(stop, now) }))
      .filter((t): t is { stop: PaperStopRow; index: number; at: number } => t.at !== null)
      .sort((a, b) => a.at - b.at || a.index - b.index);
    for (const { stop, at } of triggers) {
      await this.matchOrders(session, orders, at, now);
      await this.triggerStop(session, stop, at);
    }
    await this.matchOrders(session, orders, now, now);
    for (const order of orders) {
      // Nothing happened to it: its stored progress is moved on once a minute (see CHECKPOINT_MS).
      if (isOpen(order) && now - stored.get(order.venueOrderId)! >= CHECKPOINT_MS) session.saveOrder(order);
    }
    for (const stop of stops) {
      if (stop.status !== 'open') continue;
      const checkedBefore = stop.checkedUntil;
      stop.checkedUntil = now;
      if (now - checkedBefore >= CHECKPOINT_MS) session.saveStop(stop);
    }
    return { orders, stops };
  }

  /** Matches the resting limit orders against the path up to `until` (≤ `now`). */
  private async matchOrders(session: AccountSession, orders: PaperOrderRow[], until: number, now: number) {
    for (const order of orders) {
      if (order.type !== 'limit' || order.price === null || !isOpen(order)) continue;
      if (order.checkedUntil >= until) continue;
      const limit = dec(order.price);
      const from = Math.max(order.checkedUntil, now - MAX_CATCH_UP_MS);
      const before = order.filled;
      for (const segment of this.market.pathSegments(order.symbol, from, until)) {
        const crossed = order.side === 'buy' ? segment.low.lte(limit) : segment.high.gte(limit);
        if (!crossed) continue;
        const extreme = order.side === 'buy' ? segment.low : segment.high;
        const depth = this.market.crossingDepth(order.symbol, order.side, limit, extreme, segment.end);
        const remaining = dec(order.amount).minus(order.filled);
        const amount = Decimal.min(remaining, depth);
        const execution = { price: limit, amount };
        if (order.marketType === 'future') {
          const done = await this.executeFutures(session, order, execution, 'maker', segment.end);
          if (done.isZero()) {
            await this.closeOrder(session, order, 'expired');
            break;
          }
        } else {
          await this.executeSpot(session, this.spec(order.symbol), order, execution, 'maker', segment.end);
        }
        if (!isOpen(order)) break;
      }
      order.checkedUntil = until;
      if (order.filled !== before || !isOpen(order)) {
        this.recordOrder(session, order);
        session.saveOrder(order);
      }
    }
  }

  /**
   * When the path first crossed the stop's trigger since it was last checked (the end of that piece of
   * path: the venue's price, as Binance's mark price, is only known at its points), or null.
   */
  private triggerTime(stop: PaperStopRow, now: number): number | null {
    const trigger = dec(stop.triggerPrice);
    const from = Math.max(stop.checkedUntil, now - MAX_CATCH_UP_MS);
    for (const segment of this.market.pathSegments(stop.symbol, from, now)) {
      const crossed = stop.side === 'sell' ? segment.low.lte(trigger) : segment.high.gte(trigger);
      if (crossed) return segment.end;
    }
    return null;
  }

  /**
   * The stop's trigger was crossed at `at`: it sends a reduce-only market order of its amount, capped at the
   * position then (Binance's reduce-only), taking the book as it was then, booked exactly as any market
   * order (fills, taker fees, the position and its margin). Nothing left to reduce: the stop expires
   * without an order, as Binance expires a reduce-only order that would open or increase a position.
   */
  private async triggerStop(session: AccountSession, stop: PaperStopRow, at: number): Promise<void> {
    const spec = this.spec(stop.symbol);
    const position = await this.positionOf(session.ledger, spec.symbol);
    const amount = Decimal.min(stop.amount, closable(dec(position.amount), stop.side));
    stop.updatedAt = at;
    stop.checkedUntil = at;
    if (amount.isZero()) {
      stop.status = 'expired';
    } else {
      // A client id of its own, outside Kairos' (alphanumeric) ones and longer than a request may send, as
      // Binance's algo service gives the order a triggered stop sends an id of its own.
      const request: CreateOrderRequest = {
        symbol: spec.symbol,
        side: stop.side,
        type: 'market',
        amount: amount.toFixed(),
        reduceOnly: true,
        clientOrderId: `${TRIGGERED_ORDER_ID_PREFIX}${stop.venueOrderId}`,
      };
      // Not checked for funds as a placed order is: a close is never refused, the margin it frees pays its fee.
      const taking = this.take(spec, request, amount, null, at);
      const order = await this.bookFutures(session, spec, request, amount, null, at, taking, ZERO);
      stop.status = 'triggered';
      stop.triggeredOrderId = order.venueOrderId;
    }
    session.saveStop(stop);
    this.recordStop(session, stop);
  }

  private recordStop(session: AccountSession, stop: PaperStopRow): void {
    session.stops.set(stop.venueOrderId, {
      accountId: session.accountId,
      marketType: stop.marketType,
      stop: toStopOrder(stop),
      reported: false,
    });
  }

  /**
   * One matching pass over every account with resting orders or stops (the tick; the first one after a
   * start replays what the path did while the venue was not running). Passes never overlap.
   */
  matchAll(): Promise<void> {
    if (this.matching) return this.matching;
    this.matching = (async () => {
      try {
        for (const accountId of await this.store.accountsWithOpenOrders()) {
          await this.matchRestingOrders(accountId);
        }
      } finally {
        this.matching = null;
      }
    })();
    return this.matching;
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

  /** A committed session's fills and order changes, as events. */
  private publish(session: AccountSession): void {
    for (const event of session.fills) this.events.emit('fill', event);
    for (const event of session.orders.values()) {
      this.events.emit('order', { ...event, reported: session.reported.has(event.order.venueOrderId) });
    }
    for (const event of session.stops.values()) {
      this.events.emit('stop', { ...event, reported: session.reported.has(event.stop.venueOrderId) });
    }
  }
}
