/**
 * The only door between Kairos and a venue, real (ccxt) or simulated (paper).
 *
 * Symbols are Kairos' unified form `BASE/QUOTE` ('BTC/USDT') whatever the account's market type: a futures
 * gateway resolves it to the venue's linear perpetual ('BTC/USDT:USDT'). Every price, amount, balance and fee
 * is a decimal string; nothing here is ever a float.
 */

/** Plain decimal notation, e.g. '0.00120000' or '65000.5'. Parse with decimal.js, never `Number()`. */
export type DecimalString = string;

export type AccountMarketType = 'spot' | 'future';
export type MarginMode = 'isolated' | 'cross';
export type MarketType = 'spot' | 'swap';
export type OrderSide = 'buy' | 'sell';
export type OrderType = 'market' | 'limit';
export type OrderStatus = 'open' | 'partially_filled' | 'filled' | 'cancelled' | 'rejected' | 'expired';

/** The price tick (and amount step) assumed for a venue that reports none: fine enough for any price we trade. */
export const FALLBACK_TICK = '0.00000001';

export interface Market {
  /** Kairos symbol, 'BTC/USDT'. */
  symbol: string;
  /** The venue's own unified symbol ('BTC/USDT' spot, 'BTC/USDT:USDT' perpetual). */
  venueSymbol: string;
  base: string;
  quote: string;
  type: MarketType;
  /** Order amounts must be a multiple of this (base units; contracts × contractSize on futures). */
  amountStep: DecimalString | null;
  /** Prices must be a multiple of this. */
  priceTick: DecimalString | null;
  minAmount: DecimalString | null;
  /** Minimum order value in quote currency. */
  minNotional: DecimalString | null;
  active: boolean;
}

export interface Ticker {
  symbol: string;
  last: DecimalString | null;
  bid: DecimalString | null;
  ask: DecimalString | null;
  high: DecimalString | null;
  low: DecimalString | null;
  open: DecimalString | null;
  /** 24 h change in percent, e.g. '-1.25'. */
  changePercent: DecimalString | null;
  baseVolume: DecimalString | null;
  quoteVolume: DecimalString | null;
  timestamp: number;
}

/** [price, amount] */
export type BookLevel = [DecimalString, DecimalString];

export interface OrderBook {
  symbol: string;
  /** Best (highest) first. */
  bids: BookLevel[];
  /** Best (lowest) first. */
  asks: BookLevel[];
  timestamp: number;
}

export type Timeframe = '1m' | '3m' | '5m' | '15m' | '30m' | '1h' | '2h' | '4h' | '6h' | '12h' | '1d' | '1w';

export interface Candle {
  /** Open time, ms since epoch. */
  time: number;
  open: DecimalString;
  high: DecimalString;
  low: DecimalString;
  close: DecimalString;
  volume: DecimalString;
}

export interface AssetBalance {
  free: DecimalString;
  used: DecimalString;
  total: DecimalString;
}

/** asset code → balance */
export type Balances = Record<string, AssetBalance>;

export interface Fee {
  cost: DecimalString;
  currency: string;
}

export interface CreateOrderRequest {
  symbol: string;
  side: OrderSide;
  type: OrderType;
  amount: DecimalString;
  /** Required for limit orders. */
  price?: DecimalString;
  reduceOnly?: boolean;
  /** Deterministic id persisted before the call; the venue rejects or dedupes a second order with it. */
  clientOrderId: string;
}

export interface Order {
  venueOrderId: string;
  clientOrderId: string | null;
  symbol: string;
  side: OrderSide;
  type: OrderType;
  status: OrderStatus;
  /** Limit price; null for market orders. */
  price: DecimalString | null;
  amount: DecimalString;
  filled: DecimalString;
  /** Average fill price; null until something filled. */
  average: DecimalString | null;
  fee: Fee | null;
  reduceOnly: boolean;
  timestamp: number;
  /**
   * The order's executions when the venue's answer lists them (`createOrder` on the paper venue, a Binance
   * market order): spares a `fetchMyTrades`. Used only when they add up to `filled`; deduped like any fill.
   */
  fills?: Fill[];
  /**
   * The venue's own order closing a position it liquidated (or auto-deleveraged), where it says so: Binance's
   * `autoclose-`/`adl_autoclose` client ids, Bybit's `createType`, OKX's `category`, the paper venue's
   * `liquidation-` orders. Absent otherwise.
   */
  liquidation?: boolean;
}

export interface Fill {
  /** The venue's trade id: the key fills are deduplicated on. */
  venueTradeId: string;
  venueOrderId: string;
  symbol: string;
  side: OrderSide;
  price: DecimalString;
  amount: DecimalString;
  /** price × amount in quote currency. */
  cost: DecimalString;
  fee: DecimalString;
  feeCurrency: string | null;
  takerOrMaker: 'taker' | 'maker' | null;
  timestamp: number;
}

export interface Position {
  symbol: string;
  side: 'long' | 'short';
  /** Size in base units (contracts × contractSize), always positive. */
  amount: DecimalString;
  entryPrice: DecimalString | null;
  markPrice: DecimalString | null;
  unrealizedPnl: DecimalString | null;
  leverage: DecimalString | null;
  liquidationPrice: DecimalString | null;
}

/**
 * A stop resting on the venue (issue 18): when the venue's price crosses `triggerPrice` it sends an order of
 * `amount` — on futures a reduce-only market order, triggered on the mark price (Binance
 * `workingType=MARK_PRICE`); on spot a limit order at `limitPrice` (a stop-limit: nothing is reduce-only on spot,
 * so a sell stop locks the coins it sells from its placement on, as the venues do). The paper venue triggers on
 * its own price path. It protects the position while Kairos, its database or its network are down.
 */
export interface StopOrderRequest {
  symbol: string;
  /** The side of the order it sends: sell for a long position, buy for a short. */
  side: OrderSide;
  /** Base units, like every amount. */
  amount: DecimalString;
  triggerPrice: DecimalString;
  /**
   * A stop-limit: once triggered the stop sends a limit order at this price (its fills, at it or better, are
   * the exit). Required on spot (a spot stop without it is refused with `InvalidOrderError`); futures stops are
   * stop-markets (refused with it).
   */
  limitPrice?: DecimalString;
  /** Deterministic, persisted before the call like any order's; never sent twice. */
  clientOrderId: string;
}

/**
 * `triggered`: the order it sent exists (`triggeredOrderId`: a market order, or the limit order of a stop-limit,
 * which may still be working); its fills are the exit's.
 */
export type StopOrderStatus = 'open' | 'triggered' | 'cancelled' | 'rejected' | 'expired';

export interface StopOrder {
  venueOrderId: string;
  clientOrderId: string | null;
  symbol: string;
  side: OrderSide;
  amount: DecimalString;
  triggerPrice: DecimalString;
  /** A stop-limit's limit price; null for a stop-market. */
  limitPrice: DecimalString | null;
  status: StopOrderStatus;
  /**
   * The order the stop became once triggered, read like any order (`fetchOrder`, its fills `fetchOrderFills`);
   * null before.
   */
  triggeredOrderId: string | null;
  timestamp: number;
}

/** Stop orders resting on the venue, where the venue has them for the account's market type. */
export interface VenueStops {
  /**
   * Places the stop. Throws `UnknownOutcomeError` when it may have reached the venue: look it up with
   * `fetchStopByClientId` before placing it again.
   */
  placeStop(request: StopOrderRequest): Promise<StopOrder>;
  /** Cancels a stop; a stop already triggered or gone answers with its state (no error). */
  cancelStop(venueOrderId: string, symbol: string): Promise<StopOrder>;
  fetchStop(venueOrderId: string, symbol: string): Promise<StopOrder>;
  /** Throws `OrderNotFoundError` when the venue has no stop with that client id. */
  fetchStopByClientId(clientOrderId: string, symbol: string): Promise<StopOrder>;
}

/** One funding settlement on a futures position: positive received, negative paid. */
export interface FundingPayment {
  /** The venue's id of the payment: the key payments are deduplicated on. */
  id: string;
  symbol: string;
  amount: DecimalString;
  currency: string;
  timestamp: number;
}

export interface ApiKeyPermissions {
  /** null when the venue does not report it. */
  canWithdraw: boolean | null;
  /** Whether the key may place orders on the account's market type; null when the venue does not report it. */
  canTrade: boolean | null;
  /** Where the answer came from, for the 422 message (e.g. 'binance apiRestrictions'). */
  source: string;
}

export interface ExchangeGateway {
  /** Venue id ('binance', 'paper', …). */
  readonly exchangeId: string;
  readonly marketType: AccountMarketType;
  /**
   * True when the venue keeps its books in Kairos' own database (the paper venue): a row written before a
   * call to it need not be flushed to disk first, since whatever the venue writes after it follows it in
   * the same log (see `CommitMode`).
   */
  readonly sharesDatabase?: boolean;

  /** Loads (or reuses the venue-wide cache of) the markets; every other call does it lazily. */
  loadMarkets(): Promise<Market[]>;
  listMarkets(): Promise<Market[]>;
  fetchTicker(symbol: string): Promise<Ticker>;
  fetchOrderBook(symbol: string, limit?: number): Promise<OrderBook>;
  fetchCandles(symbol: string, timeframe: Timeframe, since?: number, limit?: number): Promise<Candle[]>;
  fetchBalances(): Promise<Balances>;

  /**
   * Places an order. Throws `UnknownOutcomeError` when the request may have reached the venue but no
   * answer came back: look the order up with `fetchOrderByClientId` before placing it again.
   */
  createOrder(request: CreateOrderRequest): Promise<Order>;
  cancelOrder(venueOrderId: string, symbol: string): Promise<Order>;
  fetchOrder(venueOrderId: string, symbol: string): Promise<Order>;
  /** Throws `OrderNotFoundError` when the venue has no order with that client id. */
  fetchOrderByClientId(clientOrderId: string, symbol: string): Promise<Order>;
  fetchOpenOrders(symbol?: string): Promise<Order[]>;
  fetchMyTrades(symbol: string, since?: number): Promise<Fill[]>;
  /**
   * The fills of one order: asked by order id where the venue can (no time window to miss, e.g. a
   * take-profit that rested past Binance USD-M's 7-day trade window), otherwise every page of the trade
   * list from `since` (the order's creation) filtered to it.
   */
  fetchOrderFills(venueOrderId: string, symbol: string, since?: number): Promise<Fill[]>;

  /** Open futures positions; always empty on spot. */
  fetchPositions(): Promise<Position[]>;
  /**
   * Futures funding paid or received on `symbol` since `since` (inclusive), oldest first, as the venue lists
   * it (its income or bills history); always empty on spot.
   */
  fetchFundingHistory(symbol: string, since?: number): Promise<FundingPayment[]>;
  /** Futures only. */
  setLeverage(symbol: string, leverage: number): Promise<void>;
  /**
   * Futures only: the margin mode and leverage the next orders on the symbol trade at (already so is not an
   * error). Refused while a position is open where the venue refuses it.
   */
  configureMargin(symbol: string, settings: { leverage: number; mode: MarginMode }): Promise<void>;
  /**
   * Stop orders on the venue, where its capability row has them for this account's market type (null: the
   * stop is watched by Kairos): stop-markets on futures, stop-limits on spot.
   */
  readonly stops: VenueStops | null;
}

export const TIMEFRAME_MS: Record<Timeframe, number> = {
  '1m': 60_000,
  '3m': 180_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '2h': 7_200_000,
  '4h': 14_400_000,
  '6h': 21_600_000,
  '12h': 43_200_000,
  '1d': 86_400_000,
  '1w': 604_800_000,
};

export function isTimeframe(value: string): value is Timeframe {
  return Object.hasOwn(TIMEFRAME_MS, value);
}
