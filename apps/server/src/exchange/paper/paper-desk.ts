import { type Decimal, ZERO, dec } from '../decimal';
import { InsufficientFundsError, UnknownSymbolError, venueWords } from '../errors';
import type { AccountMarketType, CreateOrderRequest } from '../gateway';
import type { PaperMarketData } from './market-simulator';
import type { AccountSession, MutableBalance } from './paper-account-session';
import type { LiquidationWatch } from './paper-liquidation';
import type { PaperFillRow, PaperOrderRow } from './paper-ledger-store';
import { feeFor, roundDown, totalAmount, walkBook, type Execution } from './paper-matching';
import type { PaperMarketSpec } from './paper-markets';
import { isOpen } from './paper-rows';

/** Book levels an order is first matched against (see `take`). */
const TOP_LEVELS = 3;

export type TakerOrMaker = 'taker' | 'maker';

/** An order asked for, checked against its market (`validateOrder`): what placing it needs. */
export interface CheckedOrder {
  spec: PaperMarketSpec;
  request: CreateOrderRequest;
  amount: Decimal;
  /** The limit price; null for a market order. */
  price: Decimal | null;
}

/**
 * Places a checked order in its account's session, or refuses it before anything changes: `placeSpot` and
 * `placeFutures`.
 */
export type PlaceOrder = (
  desk: PaperDesk,
  session: AccountSession,
  checked: CheckedOrder,
) => Promise<PaperOrderRow>;

/** What an order takes from the book at once, and what is left to rest. */
export interface Taking {
  executions: Execution[];
  taken: Decimal;
  rest: Decimal;
}

/** Refuses an order that needs more of `asset` than is free. */
export function requireFree(
  balance: MutableBalance,
  asset: string,
  needed: Decimal,
  variant: 'balance' | 'margin',
): void {
  if (balance.free.lt(needed)) {
    throw new InsufficientFundsError(
      ...venueWords('INSUFFICIENT_FUNDS', {
        variant,
        asset,
        needed: needed.toFixed(),
        available: balance.free.toFixed(),
      }),
    );
  }
}

/** Terminal status of a taker order once its immediate executions are known. */
function statusAfterTaking(order: PaperOrderRow, taken: Decimal, amount: Decimal): PaperOrderRow['status'] {
  if (taken.eq(amount)) return 'filled';
  // A market order takes what the book offers and expires for the rest.
  if (order.type === 'market') return 'expired';
  return taken.gt(0) ? 'partially_filled' : 'open';
}

/**
 * The venue's market, fees, clock and ids, and the steps every order takes whatever its market: its row,
 * what it takes from the book, what it is charged, its fills, its booking and its end. Spot
 * (`paper-spot`) and futures (`paper-futures`) orders differ only in what they check and what their
 * executions move (balances or a position).
 */
export class PaperDesk {
  /**
   * The last funding time up to which this process settled every position of an account, in a committed
   * transaction (see `matchIn`): until the next one, its matching passes need not read its positions.
   */
  readonly fundingSettled = new Map<string, number>();
  /**
   * Each account's liquidation prices as a committed pass of this process computed them (see
   * `liquidateUnderwater`): forgotten when this process changes the account's positions or USDT.
   */
  readonly liquidationWatch = new Map<string, LiquidationWatch>();

  constructor(
    readonly market: PaperMarketData,
    readonly makerRate: Decimal,
    readonly takerRate: Decimal,
    readonly clock: () => number,
    readonly newId: () => string,
    /** Leverage of a futures position until `setLeverage` says otherwise. */
    readonly defaultLeverage: number,
  ) {}

  spec(symbol: string): PaperMarketSpec {
    const spec = this.market.getMarket(symbol) ?? this.market.getMarket(symbol.split(':')[0]!);
    if (!spec) throw new UnknownSymbolError(`The paper venue has no market ${symbol}`);
    return spec;
  }

  newOrderRow(
    { spec, request, amount, price }: CheckedOrder,
    marketType: AccountMarketType,
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
  take({ spec, request, amount, price }: CheckedOrder, now: number): Taking {
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

  /**
   * Books an order taking `taking` from the book, once it is known to be allowed: each execution through
   * `execute`, `restReserve` of `reserveAsset` set aside for what rests, its status, its row and its event.
   */
  async book(
    session: AccountSession,
    order: PaperOrderRow,
    amount: Decimal,
    taking: Taking,
    restReserve: Decimal,
    reserveAsset: string,
    execute: (execution: Execution) => Promise<unknown>,
  ): Promise<PaperOrderRow> {
    for (const execution of taking.executions) await execute(execution);
    if (restReserve.gt(0)) {
      await session.change(reserveAsset, { free: restReserve.neg(), used: restReserve });
      order.reservedAsset = reserveAsset;
      order.reserved = restReserve.toFixed();
    }
    order.status = statusAfterTaking(order, taking.taken, amount);
    session.addOrder(order);
    session.recordOrder(order);
    return order;
  }

  /** The fee of `amount` of the order at `price`, and the part of its reservation that amount frees. */
  charge(
    order: PaperOrderRow,
    { price, amount }: Execution,
    role: TakerOrMaker,
  ): { fee: Decimal; fromReserve: Decimal } {
    const fee = feeFor(price.times(amount), role === 'maker' ? this.makerRate : this.takerRate);
    return { fee, fromReserve: this.releaseReservation(order, amount) };
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

  /** One execution of the order: its totals and status, a fill row and its event. */
  recordExecution(
    session: AccountSession,
    order: PaperOrderRow,
    execution: Execution,
    fee: Decimal,
    role: TakerOrMaker,
    timestamp: number,
    realizedPnl: Decimal,
  ): void {
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
    session.addFill(order, row);
  }

  /** Ends an open order: what it still reserves goes back to free. */
  async closeOrder(session: AccountSession, order: PaperOrderRow, status: 'cancelled' | 'expired') {
    const reserved = dec(order.reserved);
    if (order.reservedAsset && reserved.gt(0)) {
      await session.change(order.reservedAsset, { free: reserved, used: reserved.neg() });
    }
    order.reserved = '0';
    order.status = status;
    order.updatedAt = this.clock();
    session.saveOrder(order);
    session.recordOrder(order);
  }
}
