import type {
  Balances as CcxtBalances,
  FeeInterface as CcxtFee,
  MarketInterface as CcxtMarket,
  OHLCV,
  Order as CcxtOrder,
  OrderBook as CcxtOrderBook,
  Position as CcxtPosition,
  Ticker as CcxtTicker,
  Trade as CcxtTrade,
} from 'ccxt';
import { Decimal, decimalString, decimalStringOrZero } from './decimal';
import type {
  Balances,
  BookLevel,
  Candle,
  Fee,
  Fill,
  FundingPayment,
  Market,
  Order,
  OrderBook,
  OrderStatus,
  Position,
  Ticker,
} from './gateway';

/** ccxt's `precisionMode` values (base/functions/number). */
const DECIMAL_PLACES = 2;
const SIGNIFICANT_DIGITS = 3;

/** ccxt precision (a tick size, or a number of decimals depending on the venue) as a step. */
export function precisionToStep(value: number | undefined, precisionMode: number): string | null {
  if (value === undefined || value === null || !Number.isFinite(value)) return null;
  if (precisionMode === DECIMAL_PLACES) return new Decimal(10).pow(-value).toFixed();
  if (precisionMode === SIGNIFICANT_DIGITS) return null;
  return decimalString(value);
}

/** Kairos symbol for a ccxt market: BASE/QUOTE, whatever the settlement suffix. */
export function kairosSymbol(market: Pick<CcxtMarket, 'base' | 'quote'>): string {
  return `${market.base}/${market.quote}`;
}

export function toMarket(market: CcxtMarket, precisionMode: number): Market {
  const contractSize = market.contract ? decimalString(market.contractSize) : null;
  // Contract venues size orders in contracts; Kairos sizes in base units.
  const inBase = (value: string | null) =>
    value !== null && contractSize !== null ? new Decimal(value).times(contractSize).toFixed() : value;
  return {
    symbol: kairosSymbol(market),
    venueSymbol: market.symbol,
    base: market.base,
    quote: market.quote,
    type: market.swap ? 'swap' : 'spot',
    amountStep: inBase(precisionToStep(market.precision?.amount, precisionMode)),
    priceTick: precisionToStep(market.precision?.price, precisionMode),
    minAmount: inBase(decimalString(market.limits?.amount?.min)),
    minNotional: decimalString(market.limits?.cost?.min),
    active: market.active !== false,
  };
}

export function toOrderStatus(
  order: Pick<CcxtOrder, 'status' | 'filled'> & { amount?: number },
): OrderStatus {
  const filled = new Decimal(decimalStringOrZero(order.filled));
  switch (order.status) {
    case 'closed': {
      // Closed short of its amount (ccxt's reading of Bybit spot's PartiallyFilledCanceled): it was cancelled.
      const amount = new Decimal(decimalStringOrZero(order.amount));
      return amount.gt(0) && filled.lt(amount) ? 'cancelled' : 'filled';
    }
    case 'canceled':
      return 'cancelled';
    case 'expired':
      return 'expired';
    case 'rejected':
      return 'rejected';
    default:
      return filled.gt(0) ? 'partially_filled' : 'open';
  }
}

/** One fee per order: ccxt's `fees` summed when they share a currency, else the first. */
export function toFee(order: Pick<CcxtOrder, 'fee'> & { fees?: CcxtFee[] }): Fee | null {
  const fees = (order.fees ?? []).filter((fee) => fee && fee.cost !== undefined && !!fee.currency);
  if (fees.length > 0) {
    const currency = fees[0]!.currency!;
    const sameCurrency = fees.filter((fee) => fee.currency === currency);
    const cost = sameCurrency.reduce(
      (total, fee) => total.plus(decimalStringOrZero(fee.cost)),
      new Decimal(0),
    );
    return { cost: cost.toFixed(), currency };
  }
  if (order.fee && order.fee.cost !== undefined && order.fee.currency) {
    return { cost: decimalStringOrZero(order.fee.cost), currency: order.fee.currency };
  }
  return null;
}

export function toOrder(
  order: CcxtOrder,
  symbol: string,
  options: { originalClientOrderIdField?: string | null; contractSize?: string | null } = {},
): Order {
  const info = (order.info ?? {}) as Record<string, unknown>;
  const original = options.originalClientOrderIdField ? info[options.originalClientOrderIdField] : undefined;
  const clientOrderId =
    typeof original === 'string' && original !== '' ? original : (order.clientOrderId ?? null);
  const size = options.contractSize ? new Decimal(options.contractSize) : null;
  const inBase = (value: string) => (size ? new Decimal(value).times(size).toFixed() : value);
  const filled = inBase(decimalStringOrZero(order.filled));
  const type = typeof order.type === 'string' && order.type.includes('market') ? 'market' : 'limit';
  const liquidation = isLiquidationOrder(clientOrderId, info);
  return {
    venueOrderId: String(order.id),
    clientOrderId,
    symbol,
    side: order.side === 'sell' ? 'sell' : 'buy',
    type,
    status: toOrderStatus(order),
    price: type === 'market' ? null : decimalString(order.price),
    amount: inBase(decimalStringOrZero(order.amount)),
    filled,
    average: new Decimal(filled).gt(0) ? decimalString(order.average ?? order.price) : null,
    fee: toFee(order),
    reduceOnly: order.reduceOnly === true,
    timestamp: order.timestamp ?? order.lastUpdateTimestamp ?? Date.now(),
    ...(liquidation ? { liquidation: true } : {}),
  };
}

/**
 * Whether the venue says the order is its own closing of a liquidated (or auto-deleveraged) position: Binance
 * names them by client id (`autoclose-…`, `adl_autoclose…`), Bybit by `createType` (`CreateByLiquidate`,
 * `CreateByAdl…`), OKX by `category` (`full_liquidation`, `partial_liquidation`, `adl`).
 */
export function isLiquidationOrder(clientOrderId: string | null, info: Record<string, unknown>): boolean {
  if (clientOrderId && /^(autoclose-|adl_autoclose)/i.test(clientOrderId)) return true;
  const createType = info['createType'];
  if (typeof createType === 'string' && /^CreateBy(Liq|Adl)/i.test(createType)) return true;
  const category = info['category'];
  return typeof category === 'string' && /liquidation|^adl$/i.test(category);
}

export function toFill(trade: CcxtTrade, symbol: string, contractSize?: string | null): Fill {
  const size = contractSize ? new Decimal(contractSize) : null;
  const amount = decimalStringOrZero(trade.amount);
  const price = decimalStringOrZero(trade.price);
  const baseAmount = size ? new Decimal(amount).times(size).toFixed() : amount;
  return {
    venueTradeId: String(trade.id),
    venueOrderId: String(trade.order ?? ''),
    symbol,
    side: trade.side === 'sell' ? 'sell' : 'buy',
    price,
    amount: baseAmount,
    cost: decimalString(trade.cost) ?? new Decimal(price).times(baseAmount).toFixed(),
    fee: decimalStringOrZero(trade.fee?.cost),
    feeCurrency: trade.fee?.currency ?? null,
    takerOrMaker:
      trade.takerOrMaker === 'maker' || trade.takerOrMaker === 'taker' ? trade.takerOrMaker : null,
    timestamp: trade.timestamp ?? 0,
  };
}

/** A funding settlement as ccxt lists it (`fetchFundingHistory`); null for an entry without amount or time. */
export function toFundingPayment(
  entry: { id?: string | number; amount?: number; code?: string; timestamp?: number },
  symbol: string,
  settle: string,
): FundingPayment | null {
  if (entry.amount === undefined || entry.timestamp === undefined) return null;
  return {
    id: String(entry.id ?? entry.timestamp),
    symbol,
    amount: decimalStringOrZero(entry.amount),
    currency: entry.code ?? settle,
    timestamp: entry.timestamp,
  };
}

export function toTicker(ticker: CcxtTicker, symbol: string): Ticker {
  return {
    symbol,
    last: decimalString(ticker.last ?? ticker.close),
    bid: decimalString(ticker.bid),
    ask: decimalString(ticker.ask),
    high: decimalString(ticker.high),
    low: decimalString(ticker.low),
    open: decimalString(ticker.open),
    changePercent: decimalString(ticker.percentage),
    baseVolume: decimalString(ticker.baseVolume),
    quoteVolume: decimalString(ticker.quoteVolume),
    timestamp: ticker.timestamp ?? Date.now(),
  };
}

function toLevels(levels: ReadonlyArray<ReadonlyArray<unknown>>, contractSize?: string | null): BookLevel[] {
  const size = contractSize ? new Decimal(contractSize) : null;
  const result: BookLevel[] = [];
  for (const [price, amount] of levels) {
    const p = decimalString(price);
    const a = decimalString(amount);
    if (p === null || a === null) continue;
    result.push([p, size ? new Decimal(a).times(size).toFixed() : a]);
  }
  return result;
}

export function toOrderBook(book: CcxtOrderBook, symbol: string, contractSize?: string | null): OrderBook {
  return {
    symbol,
    bids: toLevels(book.bids, contractSize),
    asks: toLevels(book.asks, contractSize),
    timestamp: book.timestamp ?? Date.now(),
  };
}

export function toCandle(row: OHLCV): Candle | null {
  const [time, open, high, low, close, volume] = row;
  if (typeof time !== 'number') return null;
  const o = decimalString(open);
  const h = decimalString(high);
  const l = decimalString(low);
  const c = decimalString(close);
  if (o === null || h === null || l === null || c === null) return null;
  return { time, open: o, high: h, low: l, close: c, volume: decimalStringOrZero(volume) };
}

const BALANCE_META_KEYS = new Set(['info', 'free', 'used', 'total', 'debt', 'timestamp', 'datetime']);

export function toBalances(balances: CcxtBalances): Balances {
  const result: Balances = {};
  for (const [asset, value] of Object.entries(balances)) {
    if (BALANCE_META_KEYS.has(asset) || typeof value !== 'object' || value === null) continue;
    const account = value as { free?: unknown; used?: unknown; total?: unknown };
    const free = decimalString(account.free);
    const used = decimalString(account.used);
    const total =
      decimalString(account.total) ??
      (free !== null || used !== null ? new Decimal(free ?? '0').plus(used ?? '0').toFixed() : null);
    if (total === null) continue;
    result[asset] = {
      free: free ?? new Decimal(total).minus(used ?? '0').toFixed(),
      used: used ?? new Decimal(total).minus(free ?? total).toFixed(),
      total,
    };
  }
  return result;
}

export function toPosition(position: CcxtPosition, symbol: string): Position | null {
  const contracts = decimalString(position.contracts);
  if (contracts === null || new Decimal(contracts).isZero()) return null;
  const size = decimalString(position.contractSize) ?? '1';
  return {
    symbol,
    side: position.side === 'short' ? 'short' : 'long',
    amount: new Decimal(contracts).abs().times(size).toFixed(),
    entryPrice: decimalString(position.entryPrice),
    markPrice: decimalString(position.markPrice),
    unrealizedPnl: decimalString(position.unrealizedPnl),
    leverage: decimalString(position.leverage),
    liquidationPrice: decimalString(position.liquidationPrice),
  };
}
