/**
 * A local server speaking the subset of Bybit's v5 REST protocol (unified trading account: spot and linear
 * USDT perpetuals) that ccxt's bybit uses for Kairos' operations — TEST CODE ONLY.
 *
 * Written from Bybit's v5 API documentation (bybit-exchange/docs: guide, market/*, order/*, execution,
 * position/*, account/*, user/apikey-info, error, rate-limit) and the requests ccxt sends. Private endpoints
 * check the `X-BAPI-API-KEY`, `X-BAPI-TIMESTAMP`, `X-BAPI-RECV-WINDOW` and `X-BAPI-SIGN` headers as Bybit
 * does (HMAC-SHA256 over timestamp + key + recv window + query string or JSON body) and answer with Bybit's
 * envelope (`{"retCode":…,"retMsg":…,"result":…}`) and its retCodes, so ccxt maps them as in production.
 *
 * What the documentation says and this server does:
 * - one unified wallet per key for spot and linear; spot orders lock their coin (`locked`), linear
 *   positions and orders hold initial margin (`totalPositionIM`, `totalOrderIM`);
 * - `/v5/order/create` and `/v5/order/cancel` acknowledge with the ids only;
 * - `/v5/order/realtime` lists open orders, and by `orderId`/`orderLinkId` also the account's last 500
 *   ended orders — which a service restart forgets (`forgetRecentOrders`) — while `/v5/order/history`
 *   keeps ended orders (cancelled ones without fills for 24 h only) in 7-day windows;
 * - `/v5/execution/list` pages with `nextPageCursor` in 7-day windows, except by order id;
 * - reduce-only orders are cut to the position (refused with 110017 when nothing is left) and cancelled
 *   when the position closes; linear minimum notional does not apply to them;
 * - linear conditional orders (`triggerPrice`, `triggerDirection` 1 rise / 2 fall, `triggerBy`; reduce-only
 *   Market ones only): `Untriggered` until `setPrice` reaches the trigger — mark price = last price here —
 *   then `Triggered` and a reduce-only market order under the same orderId/orderLinkId (cut to the position,
 *   taker fees; `Filled`, or `Cancelled` short of its quantity); `Deactivated` when cancelled before (or when
 *   the position closes); one that would trigger at once is refused (110092 expect Rising / 110093 expect
 *   Falling). Lists take `orderFilter` (`StopOrder`: conditional orders only, `Order`: the others);
 * - funding (hook `chargeFunding`): every linear holder pays (long, positive rate) or receives size × mark
 *   price × rate in the unified USDT wallet, cumRealisedPnl untouched, as a `Funding` execution
 *   (`/v5/execution/list?execType=Funding`, what ccxt's fetchFundingHistory reads: `execFee` > 0 paid,
 *   `feeRate` the rate for a long and its opposite for a short) and a SETTLEMENT row of
 *   `/v5/account/transaction-log` (`funding` > 0 received), which also has a TRADE row for every linear
 *   fill (spot rows are not modelled); tickers show the rate last charged.
 *
 * Orders are matched for real against synthetic liquidity around the current price plus other accounts'
 * resting orders; resting orders fill when the price moves through them (`setPrice`). Test hooks inject
 * rate-limit answers (HTTP 429, or retCode 10006 with the X-Bapi-Limit headers), delay answers after the
 * request was processed, cancel orders as a user would on the website, and age the records.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Decimal } from '../../src/exchange/decimal';
import { TIMEFRAME_MS } from '../../src/exchange/gateway';
import {
  closeServer,
  listenOnLoopback,
  pathCandles,
  priceAt,
  takeInjection,
  type Injection,
  type PricePoint,
} from './venue-kit';

type Category = 'spot' | 'linear';
type Side = 'Buy' | 'Sell';
type BybitStatus =
  | 'New'
  | 'PartiallyFilled'
  | 'Filled'
  | 'Cancelled'
  | 'PartiallyFilledCanceled'
  | 'Rejected'
  // Conditional orders: waiting for the trigger, triggered (becoming the order), cancelled before the trigger.
  | 'Untriggered'
  | 'Triggered'
  | 'Deactivated';

export interface BybitTestMarket {
  base: string;
  quote: string;
  /** Initial last price. */
  price: string;
  spot: { tickSize: string; basePrecision: string; minOrderQty: string; minOrderAmt: string };
  linear: {
    tickSize: string;
    qtyStep: string;
    minOrderQty: string;
    minNotionalValue: string;
    maxLeverage: string;
  };
  /** Quantity offered at each synthetic level. */
  levelQty: string;
  /** Distance between synthetic levels, in quote. */
  levelStep: string;
  /** Synthetic levels on each side (default 20). */
  levels?: number;
}

export interface BybitTestAccountSpec {
  apiKey: string;
  secret: string;
  /** Unified wallet: coin → wallet balance. */
  wallet?: Record<string, string>;
  /** `'unreported'`: query-api leaves the key's wallet permissions out, so nobody can tell. */
  canWithdraw?: boolean | 'unreported';
  /** Linear position mode: hedge ("both sides", positionIdx 1/2) when true; one-way (positionIdx 0) otherwise. */
  hedgeMode?: boolean;
  /** A read-only key (query-api `readOnly: 1`, no trade permissions). */
  readOnly?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  body: string;
  status: number;
  retCode: number | null;
  apiKey: string | undefined;
  receivedAt: number;
}

interface Coin {
  wallet: Decimal;
  /** Held by open spot orders. */
  locked: Decimal;
  cumRealisedPnl: Decimal;
}

interface PositionState {
  size: Decimal; // signed: > 0 long, < 0 short
  avgPrice: Decimal;
  curRealisedPnl: Decimal;
  cumRealisedPnl: Decimal;
  createdTime: number;
  updatedTime: number;
}

interface Account {
  apiKey: string;
  secret: string;
  uid: number;
  canWithdraw: boolean | 'unreported';
  coins: Map<string, Coin>;
  positions: Map<string, PositionState>;
  leverage: Map<string, number>;
  /** Initial margin held by open linear orders, by order id. */
  orderIM: Map<string, Decimal>;
  /** The last ended orders `/v5/order/realtime` still answers for, per category (newest last). */
  recentEnded: Record<Category, string[]>;
  hedgeMode: boolean;
  readOnly: boolean;
}

interface OrderState {
  seq: number;
  category: Category;
  orderId: string;
  orderLinkId: string;
  apiKey: string;
  symbol: string;
  side: Side;
  orderType: 'Market' | 'Limit';
  timeInForce: 'GTC' | 'IOC' | 'FOK' | 'PostOnly';
  marketUnit: '' | 'baseCoin' | 'quoteCoin';
  price: Decimal; // 0 for market orders
  qty: Decimal;
  cumExecQty: Decimal;
  cumExecValue: Decimal;
  cumExecFee: Decimal;
  feeCoin: string;
  status: BybitStatus;
  cancelType: string;
  rejectReason: string;
  reduceOnly: boolean;
  /** A conditional order (`triggerPrice`): 1 triggers when the price rises to it, 2 when it falls to it. */
  trigger: { price: Decimal; direction: 1 | 2; by: string } | null;
  /** A spot TP/SL order (orderFilter=tpslOrder): what it spends locked from its placement on. */
  tpsl: boolean;
  createdTime: number;
  updatedTime: number;
  /** Spot: what the unfilled part still locks (quote for buys, base for sells). */
  locked: Decimal;
}

interface ExecutionState {
  seq: number;
  category: Category;
  execId: string;
  /** `Funding`: a funding settlement (no order; `execFee` is the funding paid, < 0 when received). */
  execType: 'Trade' | 'Funding';
  orderId: string;
  orderLinkId: string;
  apiKey: string;
  symbol: string;
  side: Side;
  orderType: 'Market' | 'Limit' | 'UNKNOWN';
  orderPrice: Decimal;
  orderQty: Decimal;
  leavesQty: Decimal;
  execPrice: Decimal;
  execQty: Decimal;
  execValue: Decimal;
  execFee: Decimal;
  feeCurrency: string;
  feeRate: Decimal;
  isMaker: boolean;
  closedSize: Decimal;
  markPrice: Decimal;
  execTime: number;
}

/** A row of the unified account's transaction log (`/v5/account/transaction-log`); linear USDT only. */
interface TransactionLogState {
  seq: number;
  id: string;
  apiKey: string;
  symbol: string;
  side: Side;
  type: 'TRADE' | 'SETTLEMENT';
  qty: Decimal;
  /** The position after it, signed (short < 0). */
  size: Decimal;
  tradePrice: Decimal;
  /** SETTLEMENT: > 0 received, < 0 paid; null on trades. */
  funding: Decimal | null;
  fee: Decimal;
  /** Realised PnL of a closing fill. */
  cashFlow: Decimal;
  cashBalance: Decimal;
  feeRate: Decimal;
  tradeId: string;
  orderId: string;
  orderLinkId: string;
  time: number;
}

interface MarketState {
  id: string;
  spec: BybitTestMarket;
  price: Decimal;
  history: PricePoint[];
}

/** A refusal in Bybit's envelope (`retCode`), answered with HTTP `status` (200 unless the docs say else). */
class BybitApiError extends Error {
  constructor(
    readonly retCode: number,
    message: string,
    readonly status = 200,
  ) {
    super(message);
  }
}

type Params = Map<string, string>;

const SPOT_TAKER_FEE = new Decimal('0.001');
const SPOT_MAKER_FEE = new Decimal('0.001');
const LINEAR_TAKER_FEE = new Decimal('0.00055');
const LINEAR_MAKER_FEE = new Decimal('0.0002');
const SYNTHETIC_LEVELS = 20;
const DEFAULT_LEVERAGE = 10;
/** The rate tickers show before any `chargeFunding`. */
const DEFAULT_FUNDING_RATE = new Decimal('0.0001');
const RECENT_ENDED_ORDERS = 500;
const DAY_MS = 86_400_000;
const WINDOW_MS = 7 * DAY_MS;
const OPEN_STATUSES: ReadonlySet<BybitStatus> = new Set(['New', 'PartiallyFilled']);
/** Listed among open orders and cancellable: open orders and conditional orders waiting for their trigger. */
const RESTING_STATUSES: ReadonlySet<BybitStatus> = new Set([...OPEN_STATUSES, 'Untriggered']);

export const DEFAULT_BYBIT_MARKETS: Record<string, BybitTestMarket> = {
  BTCUSDT: {
    base: 'BTC',
    quote: 'USDT',
    price: '65000',
    spot: { tickSize: '0.01', basePrecision: '0.000001', minOrderQty: '0.000048', minOrderAmt: '1' },
    linear: {
      tickSize: '0.1',
      qtyStep: '0.001',
      minOrderQty: '0.001',
      minNotionalValue: '5',
      maxLeverage: '100.00',
    },
    levelQty: '0.5',
    levelStep: '1',
  },
  ETHUSDT: {
    base: 'ETH',
    quote: 'USDT',
    price: '3200',
    spot: { tickSize: '0.01', basePrecision: '0.00001', minOrderQty: '0.00062', minOrderAmt: '1' },
    linear: {
      tickSize: '0.01',
      qtyStep: '0.01',
      minOrderQty: '0.01',
      minNotionalValue: '5',
      maxLeverage: '100.00',
    },
    levelQty: '5',
    levelStep: '0.1',
  },
  SOLUSDT: {
    base: 'SOL',
    quote: 'USDT',
    price: '150',
    spot: { tickSize: '0.01', basePrecision: '0.001', minOrderQty: '0.013', minOrderAmt: '1' },
    linear: {
      tickSize: '0.01',
      qtyStep: '0.1',
      minOrderQty: '0.1',
      minNotionalValue: '5',
      maxLeverage: '50.00',
    },
    levelQty: '50',
    levelStep: '0.02',
  },
};

/** Per-second budgets of Bybit's rate-limit table (UTA, per UID and endpoint) for the endpoints served. */
const ENDPOINT_LIMITS: Record<string, number> = {
  'POST /v5/order/create': 10,
  'POST /v5/order/cancel': 10,
  'GET /v5/order/realtime': 50,
  'GET /v5/order/history': 50,
  'GET /v5/execution/list': 50,
  'GET /v5/position/list': 50,
  'POST /v5/position/set-leverage': 10,
  'GET /v5/account/wallet-balance': 50,
  'GET /v5/account/info': 50,
  'GET /v5/account/transaction-log': 50,
  'GET /v5/user/query-api': 10,
  'POST /v5/account/set-margin-mode': 5,
};

/** Bybit's HMAC: hex HMAC-SHA256 over `timestamp + apiKey + recvWindow + (queryString | jsonBody)`. */
export function bybitSignature(
  secret: string,
  timestamp: string,
  apiKey: string,
  recvWindow: string,
  payload: string,
): string {
  return createHmac('sha256', secret)
    .update(timestamp + apiKey + recvWindow + payload)
    .digest('hex');
}

function text(value: Decimal): string {
  return value.toFixed();
}

function isMultiple(value: Decimal, step: Decimal): boolean {
  return step.isZero() || value.mod(step).isZero();
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A cursor names the last item of the page it ends (`<id>%3A<seq>`, percent-encoded like Bybit's). */
function cursorOf(item: { seq: number }, id: string): string {
  return encodeURIComponent(`${id}:${item.seq}`);
}

function seqOfCursor(cursor: string): number | null {
  let decoded = cursor;
  for (let i = 0; i < 3 && decoded.includes('%'); i++) decoded = decodeURIComponent(decoded);
  const seq = Number(decoded.split(':').pop());
  return Number.isInteger(seq) ? seq : null;
}

export class BybitTestServer {
  /** How far the venue's clock runs ahead of this host's (ms; negative: behind) — a host clock that drifted. */
  clockOffsetMs = 0;
  readonly requests: RecordedRequest[] = [];
  private server: Server | null = null;
  private originUrl = '';
  private readonly markets = new Map<string, MarketState>();
  private readonly accounts = new Map<string, Account>();
  private readonly orders = new Map<string, OrderState>();
  private readonly executions: ExecutionState[] = [];
  private readonly transactionLog: TransactionLogState[] = [];
  /** The funding rate last charged per linear symbol (tickers' fundingRate). */
  private readonly fundingRates = new Map<string, Decimal>();
  private nextSeq = 1;
  private nextSpotOrderId = 1_900_000_000_000_000_000n;
  private nextUid = 100_000_001;
  private readonly failures: Array<Injection & { kind: 'http429' | 'retCode10006'; resetAfterMs: number }> =
    [];
  private readonly delays: Array<Injection & { ms: number }> = [];
  /** Requests per UID, endpoint and second, for the X-Bapi-Limit headers. */
  private readonly usage = new Map<string, { second: number; count: number }>();
  /** A unified account's margin mode (account-wide), by API key; REGULAR_MARGIN (cross) until set. */
  private readonly marginModes = new Map<string, string>();
  private readonly enforceRateLimits: boolean;

  private constructor(options: { markets?: Record<string, BybitTestMarket>; enforceRateLimits?: boolean }) {
    this.enforceRateLimits = options.enforceRateLimits ?? false;
    for (const [id, spec] of Object.entries(options.markets ?? DEFAULT_BYBIT_MARKETS)) {
      const price = new Decimal(spec.price);
      this.markets.set(id, { id, spec, price, history: [{ time: 0, price }] });
    }
  }

  static async start(
    options: {
      markets?: Record<string, BybitTestMarket>;
      accounts?: BybitTestAccountSpec[];
      /** Answer 10006 once an endpoint's per-second budget is spent (off by default). */
      enforceRateLimits?: boolean;
    } = {},
  ): Promise<BybitTestServer> {
    const venue = new BybitTestServer(options);
    for (const account of options.accounts ?? []) venue.addAccount(account);
    await venue.listen();
    return venue;
  }

  /** http://127.0.0.1:<port> */
  get origin(): string {
    return this.originUrl;
  }

  /** KAIROS_VENUE_URLS' entries sending ccxt's every API URL of bybit here. */
  venueUrls(): Record<string, string> {
    return { bybit: this.originUrl };
  }

  // ---- test hooks ----------------------------------------------------------------------------------------

  addAccount(spec: BybitTestAccountSpec): void {
    const coins = new Map<string, Coin>();
    for (const [coin, amount] of Object.entries(spec.wallet ?? {})) {
      coins.set(coin, {
        wallet: new Decimal(amount),
        locked: new Decimal(0),
        cumRealisedPnl: new Decimal(0),
      });
    }
    this.accounts.set(spec.apiKey, {
      apiKey: spec.apiKey,
      secret: spec.secret,
      uid: this.nextUid++,
      canWithdraw: spec.canWithdraw ?? false,
      coins,
      positions: new Map(),
      leverage: new Map(),
      orderIM: new Map(),
      recentEnded: { spot: [], linear: [] },
      hedgeMode: spec.hedgeMode ?? false,
      readOnly: spec.readOnly ?? false,
    });
  }

  /** Wallet balance and spot lock of one coin. */
  coin(apiKey: string, coin: string): { wallet: string; locked: string } {
    const held = this.accounts.get(apiKey)?.coins.get(coin);
    return { wallet: text(held?.wallet ?? new Decimal(0)), locked: text(held?.locked ?? new Decimal(0)) };
  }

  /** Signed linear position size ('0' when flat). */
  positionSize(apiKey: string, symbol: string): string {
    return text(this.accounts.get(apiKey)?.positions.get(symbol)?.size ?? new Decimal(0));
  }

  /** The realised PnL (before fees) the venue booked on a linear order's fills: its TRADE rows' cashFlow. */
  closedPnl(orderId: string): string {
    return text(
      this.transactionLog
        .filter((row) => row.type === 'TRADE' && row.orderId === orderId)
        .reduce((sum, row) => sum.plus(row.cashFlow), new Decimal(0)),
    );
  }

  /**
   * A funding settlement of the linear `symbol` ('BTCUSDT') at `rate`, at `time` (default now): every account
   * holding a position pays size × mark price × rate (8 decimals; a long pays a positive rate, a short
   * receives it) from its unified USDT wallet, recorded as a Funding execution and a SETTLEMENT transaction
   * log row at that time. cumRealisedPnl does not move. The rate becomes the tickers' fundingRate. Answers what
   * each account got, by API key (negative: paid).
   */
  chargeFunding(symbol: string, rate: string, time = Date.now()): Record<string, string> {
    const market = this.markets.get(symbol);
    if (!market) throw new Error(`no market ${symbol}`);
    const marketRate = new Decimal(rate);
    this.fundingRates.set(symbol, marketRate);
    const charged: Record<string, string> = {};
    for (const account of this.accounts.values()) {
      const size = account.positions.get(symbol)?.size ?? new Decimal(0);
      if (size.isZero()) continue;
      const side: Side = size.isPos() ? 'Buy' : 'Sell';
      // Bybit's feeRate of a funding record: the market rate for a long, its opposite for a short.
      const feeRate = size.isPos() ? marketRate : marketRate.neg();
      const value = size.abs().times(market.price);
      const paid = value.times(feeRate).toDecimalPlaces(8);
      if (paid.isZero()) continue;
      const usdt = this.coinOf(account, 'USDT');
      usdt.wallet = usdt.wallet.minus(paid);
      const zero = new Decimal(0);
      const execution: ExecutionState = {
        seq: this.nextSeq++,
        category: 'linear',
        execId: randomUUID(),
        execType: 'Funding',
        orderId: randomUUID(),
        orderLinkId: '',
        apiKey: account.apiKey,
        symbol,
        side,
        orderType: 'UNKNOWN',
        orderPrice: zero,
        orderQty: zero,
        leavesQty: zero,
        execPrice: market.price,
        execQty: size.abs(),
        execValue: value,
        execFee: paid,
        feeCurrency: '',
        feeRate,
        isMaker: false,
        closedSize: zero,
        markPrice: market.price,
        execTime: time,
      };
      this.executions.push(execution);
      this.logTransaction(account, {
        symbol,
        side,
        type: 'SETTLEMENT',
        qty: size.abs(),
        size,
        tradePrice: market.price,
        funding: paid.neg(),
        fee: zero,
        cashFlow: zero,
        feeRate,
        tradeId: execution.execId,
        orderId: execution.orderId,
        orderLinkId: '',
        time,
      });
      charged[account.apiKey] = text(paid.neg());
    }
    return charged;
  }

  /** Moves the last price; resting limit orders the price went through fill (as makers) at their price. */
  setPrice(symbol: string, price: string): void {
    const market = this.markets.get(symbol);
    if (!market) throw new Error(`no market ${symbol}`);
    market.price = new Decimal(price);
    market.history.push({ time: Date.now(), price: market.price });
    for (const order of [...this.orders.values()]) {
      if (order.symbol !== symbol || !OPEN_STATUSES.has(order.status) || order.orderType !== 'Limit')
        continue;
      const crossed = order.side === 'Buy' ? market.price.lte(order.price) : market.price.gte(order.price);
      if (!crossed) continue;
      let qty = order.qty.minus(order.cumExecQty);
      if (order.reduceOnly) qty = Decimal.min(qty, this.reducible(order));
      if (qty.gt(0)) this.execute(order, order.price, qty, true);
      if (OPEN_STATUSES.has(order.status) && order.reduceOnly && this.reducible(order).isZero()) {
        this.finish(order, 'Cancelled', 'CancelByReduceOnly');
      }
    }
    // Conditional orders the price reached (mark price = last price here) become market orders.
    for (const order of [...this.orders.values()]) {
      if (order.symbol !== symbol || order.status !== 'Untriggered' || !order.trigger) continue;
      const reached =
        order.trigger.direction === 1
          ? market.price.gte(order.trigger.price)
          : market.price.lte(order.trigger.price);
      if (reached && order.tpsl) this.triggerSpotTpsl(order, market);
      else if (reached) this.triggerConditional(order, market);
    }
  }

  /**
   * From now on each synthetic level of `symbol` offers `levelQty`: a thin book, where a market order fills
   * level by level and, past the last one, is cancelled short of its quantity (a partial fill).
   */
  setLevelQty(symbol: string, levelQty: string): void {
    const market = this.markets.get(symbol);
    if (!market) throw new Error(`no market ${symbol}`);
    market.spec = { ...market.spec, levelQty };
  }

  /** Cancels an order as its owner would on Bybit's website (by order id or order link id). */
  cancelAtVenue(id: string): void {
    const order = [...this.orders.values()].find((o) => o.orderId === id || o.orderLinkId === id);
    if (!order || !RESTING_STATUSES.has(order.status)) throw new Error(`no open order ${id}`);
    this.finish(order, order.status === 'Untriggered' ? 'Deactivated' : 'Cancelled', 'CancelByUser');
  }

  /**
   * What a Bybit service restart does to `/v5/order/realtime`: the ended orders it kept are gone (the
   * documentation: query them through the order history afterwards).
   */
  forgetRecentOrders(): void {
    for (const account of this.accounts.values()) account.recentEnded = { spot: [], linear: [] };
  }

  /** Ages every order and execution by `ms` (to cross the 24-hour and 7-day rules of the history lists). */
  backdate(ms: number): void {
    for (const order of this.orders.values()) {
      order.createdTime -= ms;
      order.updatedTime -= ms;
    }
    for (const execution of this.executions) execution.execTime -= ms;
    for (const row of this.transactionLog) row.time -= ms;
  }

  /**
   * The next `count` matching requests are refused before processing: HTTP 429 (Bybit's system-level
   * protection) or retCode 10006 "Too many visits!" in a 200; both carry X-Bapi-Limit-Reset-Timestamp
   * `resetAfterMs` ahead (default 1 s).
   */
  failNext(options: {
    count: number;
    kind?: 'http429' | 'retCode10006';
    resetAfterMs?: number;
    match?: (method: string, path: string) => boolean;
  }): void {
    this.failures.push({
      remaining: options.count,
      kind: options.kind ?? 'retCode10006',
      resetAfterMs: options.resetAfterMs ?? 1_000,
      match: options.match ?? (() => true),
    });
  }

  /** The next `count` matching requests are processed at once but answered `ms` later. */
  delayNext(options: { count: number; ms: number; match?: (method: string, path: string) => boolean }): void {
    this.delays.push({ remaining: options.count, ms: options.ms, match: options.match ?? (() => true) });
  }

  orderByLinkId(
    orderLinkId: string,
  ): { orderId: string; status: BybitStatus; cumExecQty: string; qty: string } | undefined {
    const found = [...this.orders.values()].reverse().find((order) => order.orderLinkId === orderLinkId);
    return found
      ? {
          orderId: found.orderId,
          status: found.status,
          cumExecQty: text(found.cumExecQty),
          qty: text(found.qty),
        }
      : undefined;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    await closeServer(server);
  }

  // ---- HTTP plumbing -------------------------------------------------------------------------------------

  private async listen(): Promise<void> {
    const { server, origin } = await listenOnLoopback(
      (request, response) => this.handle(request, response),
      (error) => ({ retCode: 10016, retMsg: `Server error. ${String(error)}` }),
    );
    this.server = server;
    this.originUrl = origin;
  }

  private envelope(retCode: number, retMsg: string, result: unknown) {
    return { retCode, retMsg, result, retExtInfo: {}, time: Date.now() + this.clockOffsetMs };
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const receivedAt = Date.now();
    const method = request.method ?? 'GET';
    const rawUrl = request.url ?? '/';
    const questionMark = rawUrl.indexOf('?');
    const path = questionMark === -1 ? rawUrl : rawUrl.slice(0, questionMark);
    const rawQuery = questionMark === -1 ? '' : rawUrl.slice(questionMark + 1);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const apiKey = header(request, 'x-bapi-api-key');

    let status = 200;
    let body: unknown;
    let rawText: string | null = null;
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
    const failure = takeInjection(this.failures, method, path);
    if (failure) {
      const reset = String(receivedAt + failure.resetAfterMs);
      if (failure.kind === 'http429') {
        status = 429;
        headers['content-type'] = 'text/plain';
        headers['x-bapi-limit-reset-timestamp'] = reset;
        rawText = 'System level frequency protection';
      } else {
        const limit = ENDPOINT_LIMITS[`${method} ${path}`] ?? 50;
        Object.assign(headers, {
          'x-bapi-limit': String(limit),
          'x-bapi-limit-status': '0',
          'x-bapi-limit-reset-timestamp': reset,
        });
        body = this.envelope(10006, 'Too many visits!', {});
      }
    } else {
      try {
        body = this.envelope(0, 'OK', this.route(method, path, rawQuery, rawBody, request, headers));
      } catch (error) {
        if (!(error instanceof BybitApiError)) throw error;
        status = error.status;
        body = this.envelope(error.retCode, error.message, {});
      }
    }
    const retCode =
      body && typeof body === 'object' ? ((body as { retCode?: number }).retCode ?? null) : null;
    this.requests.push({ method, path, query: rawQuery, body: rawBody, status, retCode, apiKey, receivedAt });
    const delay = takeInjection(this.delays, method, path);
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay.ms));
    if (response.destroyed) return;
    response.writeHead(status, headers);
    response.end(rawText ?? JSON.stringify(body));
  }

  /** GET parameters from the query string, POST parameters from the JSON body (values as strings). */
  private params(method: string, rawQuery: string, rawBody: string): Params {
    const params: Params = new Map();
    if (method === 'GET') {
      for (const [key, value] of new URLSearchParams(rawQuery)) params.set(key, value);
      return params;
    }
    if (rawBody.trim() === '') return params;
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody);
    } catch {
      throw new BybitApiError(10001, 'Request parameter error: body is not valid JSON');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new BybitApiError(10001, 'Request parameter error');
    }
    for (const [key, value] of Object.entries(parsed)) {
      if (value !== null && value !== undefined) params.set(key, String(value));
    }
    return params;
  }

  private route(
    method: string,
    path: string,
    rawQuery: string,
    rawBody: string,
    request: IncomingMessage,
    headers: Record<string, string>,
  ): unknown {
    const params = this.params(method, rawQuery, rawBody);
    switch (`${method} ${path}`) {
      case 'GET /v5/market/time': {
        const now = Date.now() + this.clockOffsetMs;
        return { timeSecond: String(Math.floor(now / 1000)), timeNano: `${now}000000` };
      }
      case 'GET /v5/market/instruments-info':
        return this.instruments(params);
      case 'GET /v5/market/tickers':
        return this.tickers(params);
      case 'GET /v5/market/orderbook':
        return this.orderbook(params);
      case 'GET /v5/market/kline':
        return this.kline(params);
    }
    const endpoint = `${method} ${path}`;
    if (!(endpoint in ENDPOINT_LIMITS)) throw new BybitApiError(10001, `Cannot find path ${path}`, 404);
    const account = this.authenticate(request, method === 'GET' ? rawQuery : rawBody);
    this.countUsage(account, endpoint, headers);
    switch (endpoint) {
      case 'GET /v5/user/query-api':
        return this.apiKeyInfo(account);
      case 'GET /v5/account/info':
        return {
          marginMode: this.marginModes.get(account.apiKey) ?? 'REGULAR_MARGIN',
          updatedTime: String(Date.now()),
          unifiedMarginStatus: 6,
          dcpStatus: 'OFF',
          timeWindow: 10,
          smpGroup: 0,
          isMasterTrader: false,
          spotHedgingStatus: 'OFF',
        };
      case 'GET /v5/account/wallet-balance':
        return this.walletBalance(account, params);
      case 'GET /v5/account/transaction-log':
        return this.transactionLogList(account, params);
      case 'POST /v5/order/create':
        return this.placeOrder(account, params);
      case 'POST /v5/order/cancel':
        return this.cancelOrder(account, params);
      case 'GET /v5/order/realtime':
        return this.realtimeOrders(account, params);
      case 'GET /v5/order/history':
        return this.orderHistory(account, params);
      case 'GET /v5/execution/list':
        return this.executionList(account, params);
      case 'GET /v5/position/list':
        return this.positionList(account, params);
      case 'POST /v5/position/set-leverage':
        return this.setLeverage(account, params);
      case 'POST /v5/account/set-margin-mode':
        return this.setMarginMode(account, params);
    }
    throw new BybitApiError(10001, `Cannot find path ${path}`, 404);
  }

  /** Key, then timestamp window, then signature — with Bybit's retCodes (10003, 10002, 10004). */
  private authenticate(request: IncomingMessage, payload: string): Account {
    const apiKey = header(request, 'x-bapi-api-key');
    const timestamp = header(request, 'x-bapi-timestamp');
    const sign = header(request, 'x-bapi-sign');
    const recvWindow = header(request, 'x-bapi-recv-window') ?? '5000';
    if (!apiKey || !timestamp || !sign) {
      throw new BybitApiError(
        10001,
        `empty value: apiTimestamp[${timestamp ?? ''}] apiKey[${apiKey ?? ''}] apiSignature[${sign ?? ''}]: openapi sign params error!`,
      );
    }
    const account = this.accounts.get(apiKey);
    if (!account) throw new BybitApiError(10003, 'API key is invalid.', 401);
    const serverTime = Date.now() + this.clockOffsetMs;
    const sent = Number(timestamp);
    const window = Number(recvWindow);
    // The documented rule: server_time - recv_window <= timestamp < server_time + 1000.
    if (
      !Number.isFinite(sent) ||
      !Number.isFinite(window) ||
      sent < serverTime - window ||
      sent >= serverTime + 1000
    ) {
      throw new BybitApiError(
        10002,
        `invalid request, please check your server timestamp or recv_window param. req_timestamp[${timestamp}],server_timestamp[${serverTime}],recv_window[${recvWindow}]`,
      );
    }
    const expected = Buffer.from(
      bybitSignature(account.secret, timestamp, apiKey, recvWindow, payload),
      'utf8',
    );
    const given = Buffer.from(sign.toLowerCase(), 'utf8');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new BybitApiError(
        10004,
        'error sign! origin_string[' + timestamp + apiKey + recvWindow + payload + ']',
      );
    }
    return account;
  }

  /** X-Bapi-Limit headers on every private answer; with `enforceRateLimits`, 10006 past the budget. */
  private countUsage(account: Account, endpoint: string, headers: Record<string, string>): void {
    const limit = ENDPOINT_LIMITS[endpoint] ?? 50;
    const now = Date.now();
    const second = Math.floor(now / 1000);
    const key = `${account.uid} ${endpoint}`;
    const used = this.usage.get(key);
    const count = used && used.second === second ? used.count + 1 : 1;
    this.usage.set(key, { second, count });
    const exceeded = count > limit;
    Object.assign(headers, {
      'x-bapi-limit': String(limit),
      'x-bapi-limit-status': String(Math.max(0, limit - count)),
      'x-bapi-limit-reset-timestamp': String(exceeded ? (second + 1) * 1000 : now),
    });
    if (exceeded && this.enforceRateLimits) throw new BybitApiError(10006, 'Too many visits!');
  }

  // ---- market data ---------------------------------------------------------------------------------------

  private category(params: Params, allowed: readonly Category[] = ['spot', 'linear']): Category {
    const category = params.get('category');
    if (!category) throw new BybitApiError(10001, 'params error: category is empty');
    if (!(allowed as readonly string[]).includes(category)) {
      throw new BybitApiError(10001, `params error: Illegal category ${category}`);
    }
    return category as Category;
  }

  private requireMarket(category: Category, symbol: string | null | undefined): MarketState {
    const market = symbol ? this.markets.get(symbol) : undefined;
    if (!market) {
      if (category === 'spot') throw new BybitApiError(170121, 'Invalid symbol.');
      throw new BybitApiError(10001, 'params error: symbol invalid');
    }
    return market;
  }

  private tick(category: Category, market: MarketState): Decimal {
    return new Decimal(category === 'spot' ? market.spec.spot.tickSize : market.spec.linear.tickSize);
  }

  private instruments(params: Params) {
    const category = this.category(params);
    const status = params.get('status') ?? 'Trading';
    const symbol = params.get('symbol');
    const list =
      status !== 'Trading'
        ? [] // nothing pre-launching or delivering here
        : [...this.markets.values()]
            .filter((market) => !symbol || market.id === symbol)
            .map(({ id, spec }) =>
              category === 'spot'
                ? {
                    symbol: id,
                    baseCoin: spec.base,
                    quoteCoin: spec.quote,
                    innovation: '0',
                    status: 'Trading',
                    marginTrading: 'utaOnly',
                    stTag: '0',
                    lotSizeFilter: {
                      basePrecision: spec.spot.basePrecision,
                      quotePrecision: '0.00000001',
                      minOrderQty: spec.spot.minOrderQty,
                      maxOrderQty: '71.73956243',
                      minOrderAmt: spec.spot.minOrderAmt,
                      maxOrderAmt: '4000000',
                    },
                    priceFilter: { tickSize: spec.spot.tickSize },
                    riskParameters: { priceLimitRatioX: '0.01', priceLimitRatioY: '0.02' },
                    symbolType: '',
                  }
                : {
                    symbol: id,
                    contractType: 'LinearPerpetual',
                    status: 'Trading',
                    baseCoin: spec.base,
                    quoteCoin: spec.quote,
                    launchTime: '1585526400000',
                    deliveryTime: '0',
                    deliveryFeeRate: '',
                    priceScale: String(new Decimal(spec.linear.tickSize).decimalPlaces()),
                    leverageFilter: {
                      minLeverage: '1',
                      maxLeverage: spec.linear.maxLeverage,
                      leverageStep: '0.01',
                    },
                    priceFilter: {
                      minPrice: spec.linear.tickSize,
                      maxPrice: '1999999.80',
                      tickSize: spec.linear.tickSize,
                    },
                    lotSizeFilter: {
                      maxOrderQty: '1190.000',
                      minOrderQty: spec.linear.minOrderQty,
                      qtyStep: spec.linear.qtyStep,
                      postOnlyMaxOrderQty: '1190.000',
                      maxMktOrderQty: '500.000',
                      minNotionalValue: spec.linear.minNotionalValue,
                    },
                    unifiedMarginTrade: true,
                    fundingInterval: 480,
                    settleCoin: spec.quote,
                    copyTrading: 'both',
                    upperFundingRate: '0.00375',
                    lowerFundingRate: '-0.00375',
                    isPreListing: false,
                    preListingInfo: null,
                    riskParameters: { priceLimitRatioX: '0.01', priceLimitRatioY: '0.02' },
                    symbolType: '',
                  },
            );
    return { category, list, nextPageCursor: '' };
  }

  private tickers(params: Params) {
    const category = this.category(params);
    const symbol = params.get('symbol');
    const markets = symbol ? [this.markets.get(symbol)] : [...this.markets.values()];
    if (symbol && !markets[0]) throw new BybitApiError(10001, 'Not supported symbols');
    const now = Date.now();
    const list = (markets as MarketState[]).map((market) => {
      const open = priceAt(market.history, now - DAY_MS);
      const window = market.history.filter((entry) => entry.time >= now - DAY_MS).map((entry) => entry.price);
      const prices = [open, ...window, market.price];
      const { bid, ask } = this.bestSynthetic(market);
      const common = {
        symbol: market.id,
        bid1Price: text(bid),
        bid1Size: market.spec.levelQty,
        ask1Price: text(ask),
        ask1Size: market.spec.levelQty,
        lastPrice: text(market.price),
        prevPrice24h: text(open),
        price24hPcnt: market.price.minus(open).div(open).toDecimalPlaces(6).toFixed(),
        highPrice24h: text(Decimal.max(...prices)),
        lowPrice24h: text(Decimal.min(...prices)),
        turnover24h: text(market.price.times(1000)),
        volume24h: '1000',
      };
      if (category === 'spot') return { ...common, usdIndexPrice: text(market.price) };
      return {
        ...common,
        indexPrice: text(market.price),
        markPrice: text(market.price),
        prevPrice1h: text(priceAt(market.history, now - 3_600_000)),
        openInterest: '50000',
        openInterestValue: text(market.price.times(50000)),
        fundingRate: text(this.fundingRates.get(market.id) ?? DEFAULT_FUNDING_RATE),
        nextFundingTime: String(Math.ceil(now / 28_800_000) * 28_800_000),
        predictedDeliveryPrice: '',
        basisRate: '',
        deliveryFeeRate: '',
        deliveryTime: '0',
        preOpenPrice: '',
        preQty: '',
        curPreListingPhase: '',
      };
    });
    return { category, list };
  }

  private bestSynthetic(market: MarketState): { bid: Decimal; ask: Decimal } {
    const step = new Decimal(market.spec.levelStep);
    return { bid: market.price.minus(step), ask: market.price.plus(step) };
  }

  /** Liquidity a taker on `side` can hit: synthetic levels plus other accounts' resting orders, best first. */
  private liquidity(
    category: Category,
    market: MarketState,
    side: Side,
    excludeApiKey?: string,
  ): Array<{ price: Decimal; qty: Decimal; maker: OrderState | null }> {
    const step = new Decimal(market.spec.levelStep);
    const synthetic = Array.from({ length: market.spec.levels ?? SYNTHETIC_LEVELS }, (_, i) => ({
      price: side === 'Buy' ? market.price.plus(step.times(i + 1)) : market.price.minus(step.times(i + 1)),
      qty: new Decimal(market.spec.levelQty),
      maker: null as OrderState | null,
    })).filter((level) => level.price.gt(0));
    const resting = [...this.orders.values()]
      .filter(
        (order) =>
          order.category === category &&
          order.symbol === market.id &&
          order.side !== side &&
          order.orderType === 'Limit' &&
          order.apiKey !== excludeApiKey &&
          OPEN_STATUSES.has(order.status),
      )
      .map((order) => ({ price: order.price, qty: order.qty.minus(order.cumExecQty), maker: order }));
    const all = [...synthetic, ...resting];
    all.sort((a, b) => (side === 'Buy' ? a.price.comparedTo(b.price) : b.price.comparedTo(a.price)));
    return all;
  }

  private orderbook(params: Params) {
    const category = this.category(params);
    const market = this.requireMarket(category, params.get('symbol'));
    const limit = Number(params.get('limit') ?? (category === 'spot' ? 1 : 25));
    const aggregate = (side: Side) => {
      const levels = new Map<string, Decimal>();
      for (const level of this.liquidity(category, market, side)) {
        const key = text(level.price);
        levels.set(key, (levels.get(key) ?? new Decimal(0)).plus(level.qty));
      }
      return [...levels.entries()].slice(0, limit).map(([price, qty]) => [price, text(qty)]);
    };
    const now = Date.now();
    return {
      s: market.id,
      b: aggregate('Sell'),
      a: aggregate('Buy'),
      ts: now,
      u: this.nextSeq,
      seq: this.nextSeq,
      cts: now,
    };
  }

  private kline(params: Params) {
    const category = this.category(params);
    const market = this.requireMarket(category, params.get('symbol'));
    const intervals: Record<string, number> = {
      '1': TIMEFRAME_MS['1m'],
      '3': TIMEFRAME_MS['3m'],
      '5': TIMEFRAME_MS['5m'],
      '15': TIMEFRAME_MS['15m'],
      '30': TIMEFRAME_MS['30m'],
      '60': TIMEFRAME_MS['1h'],
      '120': TIMEFRAME_MS['2h'],
      '240': TIMEFRAME_MS['4h'],
      '360': TIMEFRAME_MS['6h'],
      '720': TIMEFRAME_MS['12h'],
      D: TIMEFRAME_MS['1d'],
      W: TIMEFRAME_MS['1w'],
    };
    const interval = intervals[params.get('interval') ?? ''];
    if (!interval) throw new BybitApiError(10001, 'params error: interval invalid');
    const limit = Math.min(Number(params.get('limit') ?? 200), 1000);
    const rows = pathCandles(market.history, interval, {
      ...(params.get('start') ? { start: Number(params.get('start')) } : {}),
      ...(params.get('end') ? { end: Number(params.get('end')) } : {}),
      limit,
    }).map((candle) => [
      String(candle.openTime),
      text(candle.open),
      text(candle.high),
      text(candle.low),
      text(candle.close),
      '10',
      text(candle.close.times(10)),
    ]);
    // Newest first, as Bybit lists candles.
    return { category, symbol: market.id, list: rows.reverse() };
  }

  // ---- account -------------------------------------------------------------------------------------------

  private apiKeyInfo(account: Account) {
    return {
      id: String(account.uid * 10 + 7),
      note: 'kairos-test',
      apiKey: account.apiKey,
      readOnly: account.readOnly ? 1 : 0,
      secret: '',
      permissions: {
        ContractTrade: account.readOnly ? [] : ['Order', 'Position'],
        Spot: account.readOnly ? [] : ['SpotTrade'],
        ...(account.canWithdraw === 'unreported'
          ? {}
          : { Wallet: account.canWithdraw ? ['AccountTransfer', 'Withdraw'] : ['AccountTransfer'] }),
        Options: [],
        Derivatives: ['DerivativesTrade'],
        CopyTrading: [],
        BlockTrade: [],
        Exchange: [],
        NFT: [],
        Affiliate: [],
        Earn: [],
      },
      ips: ['*'],
      type: 1,
      deadlineDay: 83,
      expiredAt: '2099-01-01T00:00:00Z',
      createdAt: '2024-01-01T00:00:00Z',
      unified: 0,
      uta: 1,
      userID: account.uid,
      inviterID: 0,
      vipLevel: 'No VIP',
      mktMakerLevel: '0',
      affiliateID: 0,
      rsaPublicKey: '',
      isMaster: true,
      parentUid: '0',
      kycLevel: 'LEVEL_1',
      kycRegion: '',
    };
  }

  private coinOf(account: Account, coin: string): Coin {
    let held = account.coins.get(coin);
    if (!held) {
      held = { wallet: new Decimal(0), locked: new Decimal(0), cumRealisedPnl: new Decimal(0) };
      account.coins.set(coin, held);
    }
    return held;
  }

  private leverageOf(account: Account, symbol: string): number {
    return account.leverage.get(symbol) ?? DEFAULT_LEVERAGE;
  }

  private unrealisedPnl(symbol: string, position: PositionState): Decimal {
    return this.markets.get(symbol)!.price.minus(position.avgPrice).times(position.size);
  }

  /** Margin figures of the USDT settle coin (all linear markets here settle in USDT). */
  private margin(account: Account) {
    let positionIM = new Decimal(0);
    let positionMM = new Decimal(0);
    let unrealised = new Decimal(0);
    for (const [symbol, position] of account.positions) {
      if (position.size.isZero()) continue;
      const value = position.size.abs().times(this.markets.get(symbol)!.price);
      positionIM = positionIM.plus(value.div(this.leverageOf(account, symbol)));
      positionMM = positionMM.plus(value.times('0.005'));
      unrealised = unrealised.plus(this.unrealisedPnl(symbol, position));
    }
    let orderIM = new Decimal(0);
    for (const im of account.orderIM.values()) orderIM = orderIM.plus(im);
    return { positionIM, positionMM, orderIM, unrealised };
  }

  /** What a new order may use of a coin in the unified wallet. */
  private available(account: Account, coin: string): Decimal {
    const held = this.coinOf(account, coin);
    let available = held.wallet.minus(held.locked);
    if (coin === 'USDT') {
      const margin = this.margin(account);
      available = available
        .minus(margin.positionIM)
        .minus(margin.orderIM)
        .plus(Decimal.min(margin.unrealised, 0));
    }
    return available;
  }

  private usdPrice(coin: string): Decimal {
    if (coin === 'USDT' || coin === 'USDC') return new Decimal(1);
    return this.markets.get(`${coin}USDT`)?.price ?? new Decimal(0);
  }

  private walletBalance(account: Account, params: Params) {
    const accountType = params.get('accountType');
    if (accountType !== 'UNIFIED') {
      throw new BybitApiError(10001, `accountType only support UNIFIED. (${accountType ?? ''})`);
    }
    const wanted = params.get('coin')?.split(',');
    const margin = this.margin(account);
    let totalWallet = new Decimal(0);
    let totalEquity = new Decimal(0);
    const coins = [...account.coins.entries()]
      .filter(([coin, held]) =>
        wanted ? wanted.includes(coin) : !held.wallet.isZero() || !held.locked.isZero(),
      )
      .map(([coin, held]) => {
        const settle = coin === 'USDT';
        const upl = settle ? margin.unrealised : new Decimal(0);
        const usd = this.usdPrice(coin);
        totalWallet = totalWallet.plus(held.wallet.times(usd));
        totalEquity = totalEquity.plus(held.wallet.plus(upl).times(usd));
        return {
          availableToBorrow: '',
          bonus: '0',
          accruedInterest: '0',
          availableToWithdraw: '', // deprecated for UNIFIED since 9 Jan 2025
          totalOrderIM: settle ? text(margin.orderIM) : '0',
          equity: text(held.wallet.plus(upl)),
          totalPositionMM: settle ? text(margin.positionMM) : '0',
          usdValue: text(held.wallet.plus(upl).times(usd)),
          spotHedgingQty: '0',
          unrealisedPnl: text(upl),
          collateralSwitch: true,
          borrowAmount: '0',
          totalPositionIM: settle ? text(margin.positionIM) : '0',
          walletBalance: text(held.wallet),
          cumRealisedPnl: text(held.cumRealisedPnl),
          locked: text(held.locked),
          marginCollateral: true,
          coin,
          spotBorrow: '0',
        };
      });
    const initial = margin.positionIM.plus(margin.orderIM);
    return {
      list: [
        {
          totalEquity: text(totalEquity),
          accountIMRate: totalEquity.isZero() ? '0' : initial.div(totalEquity).toDecimalPlaces(4).toFixed(),
          totalMarginBalance: text(totalWallet.plus(margin.unrealised)),
          totalInitialMargin: text(initial),
          accountType: 'UNIFIED',
          totalAvailableBalance: text(totalWallet.plus(margin.unrealised).minus(initial)),
          accountMMRate: '0',
          totalPerpUPL: text(margin.unrealised),
          totalWalletBalance: text(totalWallet),
          accountLTV: '0',
          totalMaintenanceMargin: text(margin.positionMM),
          coin: coins,
        },
      ],
    };
  }

  private positionView(account: Account, symbol: string, position: PositionState | undefined) {
    const market = this.markets.get(symbol)!;
    const size = position?.size ?? new Decimal(0);
    const leverage = this.leverageOf(account, symbol);
    const value = size.abs().times(position?.avgPrice ?? 0);
    return {
      positionIdx: 0,
      riskId: 1,
      riskLimitValue: '2000000',
      symbol,
      side: size.isZero() ? '' : size.gt(0) ? 'Buy' : 'Sell',
      size: text(size.abs()),
      avgPrice: text(position?.avgPrice ?? new Decimal(0)),
      positionValue: text(value),
      tradeMode: 0,
      positionStatus: 'Normal',
      autoAddMargin: 0,
      adlRankIndicator: size.isZero() ? 0 : 2,
      leverage: String(leverage),
      breakEvenPrice: text(position?.avgPrice ?? new Decimal(0)),
      positionBalance: text(value.div(leverage)),
      markPrice: text(market.price),
      liqPrice: '',
      bustPrice: '',
      positionMM: text(size.abs().times(market.price).times('0.005')),
      positionIM: text(size.abs().times(market.price).div(leverage)),
      tpslMode: 'Full',
      takeProfit: '',
      stopLoss: '',
      trailingStop: '0',
      unrealisedPnl: position ? text(this.unrealisedPnl(symbol, position)) : '0',
      curRealisedPnl: text(position?.curRealisedPnl ?? new Decimal(0)),
      cumRealisedPnl: text(position?.cumRealisedPnl ?? new Decimal(0)),
      seq: this.nextSeq,
      isReduceOnly: false,
      mmrSysUpdatedTime: '',
      leverageSysUpdatedTime: '',
      sessionAvgPrice: '',
      createdTime: String(position?.createdTime ?? Date.now()),
      updatedTime: String(position?.updatedTime ?? Date.now()),
    };
  }

  private positionList(account: Account, params: Params) {
    const category = this.category(params, ['linear']);
    const symbol = params.get('symbol');
    if (symbol) {
      this.requireMarket(category, symbol);
      const view = this.positionView(account, symbol, account.positions.get(symbol));
      return {
        category,
        // Hedge mode keeps one record per side (positionIdx 1 buy, 2 sell), one-way mode one (0).
        list: account.hedgeMode
          ? [
              { ...view, positionIdx: 1, side: '' },
              { ...view, positionIdx: 2, side: '' },
            ]
          : [view],
        nextPageCursor: '',
      };
    }
    if (!params.get('settleCoin') && !params.get('baseCoin')) {
      throw new BybitApiError(
        10001,
        'Missing some parameters that must be filled in, symbol or settleCoin or baseCoin',
      );
    }
    const list = [...account.positions.entries()]
      .filter(([, position]) => !position.size.isZero())
      .map(([id, position]) => this.positionView(account, id, position));
    return { category, list, nextPageCursor: '' };
  }

  /**
   * A unified account's margin mode, for the whole account (ccxt's setMarginMode on a UTA): ISOLATED_MARGIN or
   * REGULAR_MARGIN (cross); PORTFOLIO_MARGIN asks for an equity this server's accounts never have (3400045).
   * `reasons` is empty on success.
   */
  private setMarginMode(account: Account, params: Params) {
    const mode = params.get('setMarginMode');
    if (mode !== 'ISOLATED_MARGIN' && mode !== 'REGULAR_MARGIN' && mode !== 'PORTFOLIO_MARGIN') {
      throw new BybitApiError(10001, 'params error: setMarginMode invalid');
    }
    if (mode === 'PORTFOLIO_MARGIN') {
      throw new BybitApiError(3400045, 'Set margin mode failed');
    }
    this.marginModes.set(account.apiKey, mode);
    return { reasons: [] };
  }

  private setLeverage(account: Account, params: Params) {
    const category = this.category(params, ['linear']);
    const market = this.requireMarket(category, params.get('symbol'));
    const buy = params.get('buyLeverage');
    const sell = params.get('sellLeverage');
    const leverage = Number(buy);
    if (!buy || buy !== sell) {
      throw new BybitApiError(10001, 'buy leverage must be the same as sell leverage in one-way mode');
    }
    if (!Number.isFinite(leverage) || leverage < 1 || new Decimal(buy).gt(market.spec.linear.maxLeverage)) {
      throw new BybitApiError(10001, `leverage invalid: [1, ${market.spec.linear.maxLeverage}]`);
    }
    if (this.leverageOf(account, market.id) === leverage) {
      throw new BybitApiError(110043, 'leverage not modified');
    }
    account.leverage.set(market.id, leverage);
    return {};
  }

  // ---- orders --------------------------------------------------------------------------------------------

  private placeOrder(account: Account, params: Params) {
    const category = this.category(params);
    const spot = category === 'spot';
    const market = this.requireMarket(category, params.get('symbol'));
    if (!spot && (params.get('positionIdx') ?? '0') === '0' && account.hedgeMode) {
      throw new BybitApiError(10001, 'position idx not match position mode');
    }
    const side = params.get('side');
    if (side !== 'Buy' && side !== 'Sell') {
      throw new BybitApiError(spot ? 170117 : 10001, spot ? 'Invalid side.' : 'params error: side invalid');
    }
    const orderType = params.get('orderType');
    if (orderType !== 'Market' && orderType !== 'Limit') {
      throw new BybitApiError(
        spot ? 170116 : 10001,
        spot ? 'Invalid orderType.' : 'params error: orderType invalid',
      );
    }
    const orderLinkId = params.get('orderLinkId') ?? '';
    if (orderLinkId !== '' && !/^[A-Za-z0-9_-]{1,36}$/.test(orderLinkId)) {
      throw new BybitApiError(10001, 'params error: orderLinkId invalid');
    }
    if (
      orderLinkId !== '' &&
      [...this.orders.values()].some(
        (order) =>
          order.apiKey === account.apiKey && order.category === category && order.orderLinkId === orderLinkId,
      )
    ) {
      if (spot) throw new BybitApiError(170141, 'Duplicate clientOrderId.');
      throw new BybitApiError(110072, 'OrderLinkedID is duplicate');
    }
    const rawQty = params.get('qty');
    if (!rawQty || !/^\d+(\.\d+)?$/.test(rawQty) || new Decimal(rawQty).lte(0)) {
      throw new BybitApiError(
        spot ? 170130 : 10001,
        spot ? "Data sent for paramter 'qty' is not valid." : 'params error: qty invalid',
      );
    }
    const timeInForce = (params.get('timeInForce') ?? 'GTC') as OrderState['timeInForce'];
    if (!['GTC', 'IOC', 'FOK', 'PostOnly'].includes(timeInForce)) {
      throw new BybitApiError(
        spot ? 170115 : 10001,
        spot ? 'Invalid timeInForce.' : 'params error: timeInForce invalid',
      );
    }
    const tick = this.tick(category, market);
    let price = new Decimal(0);
    if (orderType === 'Limit') {
      const rawPrice = params.get('price');
      if (!rawPrice || !/^\d+(\.\d+)?$/.test(rawPrice) || new Decimal(rawPrice).lte(0)) {
        throw new BybitApiError(
          spot ? 170130 : 10001,
          spot ? "Data sent for paramter 'price' is not valid." : 'params error: price invalid',
        );
      }
      price = new Decimal(rawPrice);
      if (!isMultiple(price, tick)) {
        throw new BybitApiError(
          spot ? 170134 : 10001,
          spot ? 'Order price has too many decimals.' : 'params error: price invalid',
        );
      }
    }

    // Spot market buys are sized in quote unless marketUnit says baseCoin (the documented default).
    let marketUnit: OrderState['marketUnit'] = '';
    let qty = new Decimal(rawQty);
    if (spot && orderType === 'Market') {
      marketUnit =
        (params.get('marketUnit') as OrderState['marketUnit'] | undefined) ??
        (side === 'Buy' ? 'quoteCoin' : 'baseCoin');
      if (marketUnit !== 'baseCoin' && marketUnit !== 'quoteCoin') {
        throw new BybitApiError(170130, "Data sent for paramter 'marketUnit' is not valid.");
      }
      if (marketUnit === 'quoteCoin') qty = this.baseForQuote(category, market, side, qty);
    }
    const reduceOnly = !spot && params.get('reduceOnly') === 'true';
    const step = new Decimal(spot ? market.spec.spot.basePrecision : market.spec.linear.qtyStep);
    if (!isMultiple(qty, step)) {
      if (spot) throw new BybitApiError(170137, 'Order quantity has too many decimals.');
      throw new BybitApiError(10001, `params error: qty must be a multiple of ${market.spec.linear.qtyStep}`);
    }
    const minQty = spot ? market.spec.spot.minOrderQty : market.spec.linear.minOrderQty;
    if (qty.lt(minQty)) {
      if (spot) throw new BybitApiError(170136, 'Order quantity is lower than the minimum.');
      throw new BybitApiError(10001, 'The number of contracts below min limit allowed');
    }
    const position = account.positions.get(market.id)?.size ?? new Decimal(0);
    const tpsl = spot && params.get('orderFilter') === 'tpslOrder';
    const trigger = spot
      ? tpsl
        ? this.spotTpslTrigger(params, market)
        : null
      : this.conditionalTrigger(params, market);
    if (reduceOnly) {
      // Cut to what the position has left in the closing direction; nothing left is a refusal.
      const closing = side === 'Buy' ? Decimal.max(0, position.neg()) : Decimal.max(0, position);
      if (closing.isZero())
        throw new BybitApiError(110017, 'current position is zero, cannot fix reduce-only order qty');
      // A conditional order keeps its quantity until it triggers (then it is cut to the position).
      if (!trigger) qty = Decimal.min(qty, closing);
    }
    const reference = orderType === 'Limit' ? price : market.price;
    const notional = qty.times(reference);
    if (spot && notional.lt(market.spec.spot.minOrderAmt)) {
      throw new BybitApiError(170140, 'Order value exceeded lower limit.');
    }
    if (!spot && !reduceOnly && notional.lt(market.spec.linear.minNotionalValue)) {
      throw new BybitApiError(
        110094,
        `Order does not meet minimum order value ${market.spec.linear.minNotionalValue}USDT`,
      );
    }

    const now = Date.now();
    const order: OrderState = {
      seq: this.nextSeq++,
      category,
      orderId: spot ? String(this.nextSpotOrderId++) : randomUUID(),
      orderLinkId,
      apiKey: account.apiKey,
      symbol: market.id,
      side,
      orderType,
      timeInForce: orderType === 'Market' ? 'IOC' : timeInForce,
      marketUnit,
      price,
      qty,
      cumExecQty: new Decimal(0),
      cumExecValue: new Decimal(0),
      cumExecFee: new Decimal(0),
      feeCoin: '',
      status: 'New',
      cancelType: 'UNKNOWN',
      rejectReason: 'EC_NoError',
      reduceOnly,
      trigger,
      tpsl,
      createdTime: now,
      updatedTime: now,
      locked: new Decimal(0),
    };
    if (tpsl) {
      // A spot TP/SL order holds what it spends at once (170131 without it), untriggered.
      this.reserveSpot(account, market, order, []);
      order.status = 'Untriggered';
      this.orders.set(order.orderId, order);
      return { orderId: order.orderId, orderLinkId };
    }
    if (trigger) {
      // Rests untriggered (no margin held: only reduce-only conditional orders are modelled).
      order.status = 'Untriggered';
      order.timeInForce = 'IOC';
      this.orders.set(order.orderId, order);
      return { orderId: order.orderId, orderLinkId };
    }

    const plan = this.planTake(order, market);
    const crosses = plan.length > 0;
    if (order.timeInForce === 'PostOnly' && crosses) {
      // Would take liquidity: cancelled at once, as the documentation says of PostOnly.
      this.orders.set(order.orderId, order);
      this.finish(order, 'Cancelled', 'CancelByPostOnly');
      return { orderId: order.orderId, orderLinkId };
    }
    const planned = plan.reduce((total, level) => total.plus(level.qty), new Decimal(0));
    if (order.timeInForce === 'FOK' && planned.lt(order.qty)) {
      this.orders.set(order.orderId, order);
      this.finish(order, 'Cancelled', 'CancelByFokNotFilled');
      return { orderId: order.orderId, orderLinkId };
    }
    if (spot) this.reserveSpot(account, market, order, plan);
    else if (!reduceOnly) this.checkMargin(account, market, order, plan);

    this.orders.set(order.orderId, order);
    for (const level of plan) {
      let qtyHere = level.qty;
      if (order.reduceOnly) qtyHere = Decimal.min(qtyHere, this.reducible(order));
      if (qtyHere.lte(0)) break;
      this.execute(order, level.price, qtyHere, false);
      if (level.maker) this.execute(level.maker, level.price, qtyHere, true);
    }
    if (OPEN_STATUSES.has(order.status)) {
      if (order.orderType === 'Market' || order.timeInForce === 'IOC') {
        this.finish(
          order,
          order.cumExecQty.gt(0) && spot ? 'PartiallyFilledCanceled' : 'Cancelled',
          'CancelByOther',
        );
      } else if (!spot && !order.reduceOnly) {
        const remaining = order.qty.minus(order.cumExecQty);
        account.orderIM.set(
          order.orderId,
          remaining.times(order.price).div(this.leverageOf(account, order.symbol)),
        );
      }
    }
    return { orderId: order.orderId, orderLinkId };
  }

  /**
   * A linear conditional order's trigger (`triggerPrice`, `triggerDirection` 1 rise / 2 fall, `triggerBy`
   * LastPrice by default, MarkPrice or IndexPrice — all the last price here); null without a trigger price.
   * Modelled: reduce-only Market conditional orders. One that would trigger at once is refused as Bybit does
   * (110092 expect Rising / 110093 expect Falling).
   */
  private conditionalTrigger(params: Params, market: MarketState): OrderState['trigger'] {
    const raw = params.get('triggerPrice');
    if (raw === undefined || raw === '') return null;
    if (!/^\d+(\.\d+)?$/.test(raw) || new Decimal(raw).lte(0)) {
      throw new BybitApiError(10001, 'params error: triggerPrice invalid');
    }
    const price = new Decimal(raw);
    if (!isMultiple(price, this.tick('linear', market))) {
      throw new BybitApiError(10001, 'params error: triggerPrice invalid');
    }
    const direction = Number(params.get('triggerDirection'));
    if (direction !== 1 && direction !== 2) {
      throw new BybitApiError(10001, 'params error: triggerDirection invalid');
    }
    const by = params.get('triggerBy') ?? 'LastPrice';
    if (!['LastPrice', 'MarkPrice', 'IndexPrice'].includes(by)) {
      throw new BybitApiError(10001, 'params error: triggerBy invalid');
    }
    if (params.get('orderType') !== 'Market' || params.get('reduceOnly') !== 'true') {
      throw new BybitApiError(10001, 'bybit-server models reduce-only Market conditional orders only');
    }
    const current = market.price;
    if (direction === 1 && price.lte(current)) {
      throw new BybitApiError(
        110092,
        `expect Rising, but trigger_price[${text(price)}] <= current[${text(current)}]`,
      );
    }
    if (direction === 2 && price.gte(current)) {
      throw new BybitApiError(
        110093,
        `expect Falling, but trigger_price[${text(price)}] >= current[${text(current)}]`,
      );
    }
    return { price, direction, by };
  }

  /**
   * A spot TP/SL order's trigger (`triggerPrice`; spot takes no `triggerDirection`: it rises to a trigger above
   * the last price, falls to one below it). Modelled: Limit ones.
   */
  private spotTpslTrigger(params: Params, market: MarketState): NonNullable<OrderState['trigger']> {
    const raw = params.get('triggerPrice') ?? '';
    if (!/^\d+(\.\d+)?$/.test(raw) || new Decimal(raw).lte(0) || new Decimal(raw).eq(market.price)) {
      throw new BybitApiError(170130, "Data sent for paramter 'triggerPrice' is not valid.");
    }
    if (params.get('orderType') !== 'Limit') {
      throw new BybitApiError(10001, 'bybit-server models Limit spot TP/SL orders only');
    }
    const price = new Decimal(raw);
    if (!isMultiple(price, this.tick('spot', market))) {
      throw new BybitApiError(170134, 'Order price has too many decimals.');
    }
    return { price, direction: price.gt(market.price) ? 1 : 2, by: 'LastPrice' };
  }

  /**
   * A spot TP/SL order reached its trigger: Triggered, then New under the same ids — a limit order taking the
   * book at its price or better, resting for the rest with what it locked.
   */
  private triggerSpotTpsl(order: OrderState, market: MarketState): void {
    order.status = 'New';
    order.updatedTime = Date.now();
    for (const level of this.planTake(order, market)) {
      const qtyHere = Decimal.min(level.qty, order.qty.minus(order.cumExecQty));
      if (qtyHere.lte(0)) break;
      this.execute(order, level.price, qtyHere, false);
      if (level.maker) this.execute(level.maker, level.price, qtyHere, true);
    }
  }

  /**
   * A conditional order reached its trigger: Triggered, then a reduce-only market order under the same ids
   * (cut to the position, cancelled when nothing is left to close), filled against the book with taker fees.
   */
  private triggerConditional(order: OrderState, market: MarketState): void {
    order.status = 'Triggered';
    order.updatedTime = Date.now();
    for (const level of this.planTake(order, market)) {
      const qtyHere = Decimal.min(level.qty, this.reducible(order), order.qty.minus(order.cumExecQty));
      if (qtyHere.lte(0)) break;
      this.execute(order, level.price, qtyHere, false);
      if (level.maker) this.execute(level.maker, level.price, qtyHere, true);
    }
    if (order.status === 'Triggered' || OPEN_STATUSES.has(order.status)) {
      this.finish(order, 'Cancelled', order.cumExecQty.isZero() ? 'CancelByReduceOnly' : 'CancelByOther');
    }
  }

  /** Base quantity a quote amount takes walking the book, rounded down to the base precision. */
  private baseForQuote(category: Category, market: MarketState, side: Side, quote: Decimal): Decimal {
    let remaining = quote;
    let qty = new Decimal(0);
    for (const level of this.liquidity(category, market, side)) {
      const cost = level.price.times(level.qty);
      if (cost.gte(remaining)) {
        qty = qty.plus(remaining.div(level.price));
        remaining = new Decimal(0);
        break;
      }
      qty = qty.plus(level.qty);
      remaining = remaining.minus(cost);
    }
    const step = new Decimal(market.spec.spot.basePrecision);
    return qty.div(step).floor().times(step);
  }

  private planTake(order: OrderState, market: MarketState) {
    const plan: Array<{ price: Decimal; qty: Decimal; maker: OrderState | null }> = [];
    let remaining = order.qty;
    for (const level of this.liquidity(order.category, market, order.side, order.apiKey)) {
      if (remaining.isZero()) break;
      if (order.orderType === 'Limit') {
        const acceptable = order.side === 'Buy' ? level.price.lte(order.price) : level.price.gte(order.price);
        if (!acceptable) break;
      }
      const qty = Decimal.min(remaining, level.qty);
      plan.push({ price: level.price, qty, maker: level.maker });
      remaining = remaining.minus(qty);
    }
    return plan;
  }

  /** Spot: refuses (170131) without the coin, then locks what the order may spend. */
  private reserveSpot(
    account: Account,
    market: MarketState,
    order: OrderState,
    plan: Array<{ price: Decimal; qty: Decimal }>,
  ): void {
    const coin = order.side === 'Buy' ? market.spec.quote : market.spec.base;
    const needed =
      order.side === 'Sell'
        ? order.qty
        : order.orderType === 'Limit'
          ? order.qty.times(order.price)
          : plan.reduce((total, level) => total.plus(level.price.times(level.qty)), new Decimal(0));
    if (this.available(account, coin).lt(needed)) throw new BybitApiError(170131, 'Insufficient balance.');
    this.coinOf(account, coin).locked = this.coinOf(account, coin).locked.plus(needed);
    order.locked = needed;
  }

  /** Linear: new exposure needs its initial margin and the taker fee (110007). */
  private checkMargin(
    account: Account,
    market: MarketState,
    order: OrderState,
    plan: Array<{ price: Decimal; qty: Decimal }>,
  ): void {
    const position = account.positions.get(market.id)?.size ?? new Decimal(0);
    const buying = order.side === 'Buy';
    const opening =
      position.isZero() || position.gt(0) === buying
        ? order.qty
        : Decimal.max(0, order.qty.minus(position.abs()));
    const price = order.orderType === 'Limit' ? order.price : (plan[plan.length - 1]?.price ?? market.price);
    const margin = opening.times(price).div(this.leverageOf(account, market.id));
    const fee = order.qty.times(price).times(LINEAR_TAKER_FEE);
    if (this.available(account, 'USDT').lt(margin.plus(fee))) {
      throw new BybitApiError(110007, 'ab not enough for new order');
    }
  }

  /** What a reduce-only order may still close of its position. */
  private reducible(order: OrderState): Decimal {
    const position = this.accounts.get(order.apiKey)!.positions.get(order.symbol)?.size ?? new Decimal(0);
    return order.side === 'Buy' ? Decimal.max(0, position.neg()) : Decimal.max(0, position);
  }

  /** Executes `qty` of `order` at `price`: wallet, position, fees and the execution record. */
  private execute(order: OrderState, price: Decimal, qty: Decimal, isMaker: boolean): void {
    const account = this.accounts.get(order.apiKey)!;
    const market = this.markets.get(order.symbol)!;
    const value = price.times(qty);
    const now = Date.now();
    let fee: Decimal;
    let feeCurrency: string;
    let feeRate: Decimal;
    let closedSize = new Decimal(0);
    let cashFlow = new Decimal(0);

    if (order.category === 'spot') {
      feeRate = isMaker ? SPOT_MAKER_FEE : SPOT_TAKER_FEE;
      const base = this.coinOf(account, market.spec.base);
      const quote = this.coinOf(account, market.spec.quote);
      if (order.side === 'Buy') {
        // A positive fee rate takes a buy's fee in the coin bought.
        fee = qty.times(feeRate).toDecimalPlaces(8, Decimal.ROUND_UP);
        feeCurrency = market.spec.base;
        quote.locked = quote.locked.minus(value);
        quote.wallet = quote.wallet.minus(value);
        order.locked = order.locked.minus(value);
        base.wallet = base.wallet.plus(qty).minus(fee);
      } else {
        fee = value.times(feeRate).toDecimalPlaces(8, Decimal.ROUND_UP);
        feeCurrency = market.spec.quote;
        base.locked = base.locked.minus(qty);
        base.wallet = base.wallet.minus(qty);
        order.locked = order.locked.minus(qty);
        quote.wallet = quote.wallet.plus(value).minus(fee);
      }
    } else {
      feeRate = isMaker ? LINEAR_MAKER_FEE : LINEAR_TAKER_FEE;
      fee = value.times(feeRate).toDecimalPlaces(8, Decimal.ROUND_UP);
      feeCurrency = 'USDT';
      const position = account.positions.get(order.symbol) ?? {
        size: new Decimal(0),
        avgPrice: new Decimal(0),
        curRealisedPnl: new Decimal(0),
        cumRealisedPnl: new Decimal(0),
        createdTime: now,
        updatedTime: now,
      };
      if (position.size.isZero()) position.createdTime = now;
      const signed = order.side === 'Buy' ? qty : qty.neg();
      let realised = new Decimal(0);
      if (position.size.isZero() || position.size.isNeg() === signed.isNeg()) {
        const size = position.size.plus(signed);
        position.avgPrice = position.avgPrice.times(position.size.abs()).plus(value).div(size.abs());
        position.size = size;
      } else {
        closedSize = Decimal.min(qty, position.size.abs());
        realised = price
          .minus(position.avgPrice)
          .times(closedSize)
          .times(position.size.isNeg() ? -1 : 1);
        const rest = qty.minus(closedSize);
        position.size = position.size.plus(signed);
        if (position.size.isZero()) position.avgPrice = new Decimal(0);
        else if (rest.gt(0)) position.avgPrice = price;
      }
      cashFlow = realised;
      position.curRealisedPnl = position.curRealisedPnl.plus(realised).minus(fee);
      position.cumRealisedPnl = position.cumRealisedPnl.plus(realised).minus(fee);
      position.updatedTime = now;
      account.positions.set(order.symbol, position);
      const usdt = this.coinOf(account, 'USDT');
      usdt.wallet = usdt.wallet.plus(realised).minus(fee);
      usdt.cumRealisedPnl = usdt.cumRealisedPnl.plus(realised).minus(fee);
    }

    order.cumExecQty = order.cumExecQty.plus(qty);
    order.cumExecValue = order.cumExecValue.plus(value);
    order.cumExecFee = order.cumExecFee.plus(fee);
    order.feeCoin = feeCurrency;
    order.updatedTime = now;
    const remaining = order.qty.minus(order.cumExecQty);
    if (order.category === 'linear' && account.orderIM.has(order.orderId)) {
      account.orderIM.set(
        order.orderId,
        remaining.times(order.price).div(this.leverageOf(account, order.symbol)),
      );
    }
    this.executions.push({
      seq: this.nextSeq++,
      category: order.category,
      execId: randomUUID(),
      orderId: order.orderId,
      orderLinkId: order.orderLinkId,
      apiKey: order.apiKey,
      symbol: order.symbol,
      side: order.side,
      orderType: order.orderType,
      orderPrice: order.price,
      orderQty: order.qty,
      leavesQty: remaining,
      execPrice: price,
      execQty: qty,
      execValue: value,
      execFee: fee,
      feeCurrency,
      feeRate,
      isMaker,
      closedSize,
      markPrice: market.price,
      execTime: now,
      execType: 'Trade',
    });
    if (order.category === 'linear') {
      this.logTransaction(account, {
        symbol: order.symbol,
        side: order.side,
        type: 'TRADE',
        qty,
        size: account.positions.get(order.symbol)!.size,
        tradePrice: price,
        funding: null,
        fee,
        cashFlow,
        feeRate,
        tradeId: this.executions[this.executions.length - 1]!.execId,
        orderId: order.orderId,
        orderLinkId: order.orderLinkId,
        time: now,
      });
    }
    if (remaining.lte(0)) this.finish(order, 'Filled', 'UNKNOWN');
    else order.status = 'PartiallyFilled';

    // A closed position takes its reduce-only orders with it.
    if (order.category === 'linear' && account.positions.get(order.symbol)?.size.isZero()) {
      for (const other of this.orders.values()) {
        if (
          other !== order &&
          other.apiKey === order.apiKey &&
          other.category === 'linear' &&
          other.symbol === order.symbol &&
          other.reduceOnly &&
          RESTING_STATUSES.has(other.status)
        ) {
          // Conditional ones too, before their trigger (Deactivated).
          this.finish(
            other,
            other.status === 'Untriggered' ? 'Deactivated' : 'Cancelled',
            'CancelByReduceOnly',
          );
        }
      }
    }
  }

  /** Ends an order: releases what it holds and keeps it among the recent ended orders. */
  private finish(order: OrderState, status: BybitStatus, cancelType: string): void {
    order.status = status;
    order.cancelType = status === 'Filled' ? 'UNKNOWN' : cancelType;
    order.updatedTime = Date.now();
    const account = this.accounts.get(order.apiKey)!;
    account.orderIM.delete(order.orderId);
    if (order.category === 'spot' && order.locked.gt(0)) {
      const market = this.markets.get(order.symbol)!;
      const held = this.coinOf(account, order.side === 'Buy' ? market.spec.quote : market.spec.base);
      held.locked = held.locked.minus(order.locked);
      order.locked = new Decimal(0);
    }
    const recent = account.recentEnded[order.category];
    recent.push(order.orderId);
    if (recent.length > RECENT_ENDED_ORDERS) recent.splice(0, recent.length - RECENT_ENDED_ORDERS);
  }

  private ownOrder(account: Account, category: Category, params: Params): OrderState | undefined {
    const orderId = params.get('orderId');
    const orderLinkId = params.get('orderLinkId');
    return [...this.orders.values()]
      .reverse()
      .find(
        (order) =>
          order.apiKey === account.apiKey &&
          order.category === category &&
          (orderId ? order.orderId === orderId : order.orderLinkId === orderLinkId),
      );
  }

  private cancelOrder(account: Account, params: Params) {
    const category = this.category(params);
    const market = this.requireMarket(category, params.get('symbol'));
    if (!params.get('orderId') && !params.get('orderLinkId')) {
      throw new BybitApiError(10001, 'params error: orderId or orderLinkId is required');
    }
    const order = this.ownOrder(account, category, params);
    if (!order || order.symbol !== market.id || !RESTING_STATUSES.has(order.status)) {
      if (category === 'spot') throw new BybitApiError(170213, 'Order does not exist.');
      throw new BybitApiError(110001, 'order not exists or too late to cancel');
    }
    this.finish(order, order.status === 'Untriggered' ? 'Deactivated' : 'Cancelled', 'CancelByUser');
    return { orderId: order.orderId, orderLinkId: order.orderLinkId };
  }

  private orderView(order: OrderState) {
    const average = order.cumExecQty.gt(0) ? order.cumExecValue.div(order.cumExecQty) : null;
    const leaves = RESTING_STATUSES.has(order.status) ? order.qty.minus(order.cumExecQty) : new Decimal(0);
    const view: Record<string, unknown> = {
      orderId: order.orderId,
      orderLinkId: order.orderLinkId,
      blockTradeId: '',
      symbol: order.symbol,
      price: text(order.price),
      qty: text(order.qty),
      side: order.side,
      isLeverage: order.category === 'spot' ? '0' : '',
      positionIdx: 0,
      orderStatus: order.status,
      cancelType: order.cancelType,
      rejectReason: order.rejectReason,
      avgPrice: average ? average.toDecimalPlaces(8).toFixed() : '',
      leavesQty: text(leaves),
      leavesValue: text(leaves.times(order.price)),
      cumExecQty: text(order.cumExecQty),
      cumExecValue: text(order.cumExecValue),
      cumExecFee: text(order.cumExecFee),
      cumFeeDetail: order.feeCoin ? { [order.feeCoin]: text(order.cumExecFee) } : {},
      timeInForce: order.timeInForce,
      orderType: order.orderType,
      stopOrderType: order.tpsl ? 'tpslOrder' : order.trigger ? 'Stop' : '',
      orderIv: '',
      marketUnit: order.marketUnit,
      triggerPrice: order.trigger ? text(order.trigger.price) : '',
      takeProfit: '',
      stopLoss: '',
      tpLimitPrice: '',
      slLimitPrice: '',
      tpTriggerBy: '',
      slTriggerBy: '',
      triggerDirection: order.trigger?.direction ?? 0,
      triggerBy: order.trigger?.by ?? '',
      reduceOnly: order.reduceOnly,
      closeOnTrigger: false,
      placeType: '',
      smpType: 'None',
      smpGroup: 0,
      smpOrderId: '',
      createdTime: String(order.createdTime),
      updatedTime: String(order.updatedTime),
    };
    if (order.category === 'linear') {
      // Derivatives orders carry these; spot orders do not (ccxt tells them apart by `tpslMode`).
      Object.assign(view, { tpslMode: '', createType: 'CreateByUser', lastPriceOnCreated: '' });
    } else {
      view['basePrice'] = '';
      view['ocoTriggerBy'] = '';
    }
    return view;
  }

  /** One page of newest-first `items`, after the item a cursor names. */
  private page<T extends { seq: number }>(
    items: T[],
    params: Params,
    idOf: (item: T) => string,
    limits: { max: number; fallback: number },
  ): { list: T[]; nextPageCursor: string } {
    const limit = Number(params.get('limit') ?? limits.fallback);
    if (!Number.isInteger(limit) || limit < 1 || limit > limits.max) {
      throw new BybitApiError(10001, `params error: limit must be in [1, ${limits.max}]`);
    }
    const sorted = [...items].sort((a, b) => b.seq - a.seq);
    const cursor = params.get('cursor');
    const after = cursor ? seqOfCursor(cursor) : null;
    if (cursor && after === null) throw new BybitApiError(10001, 'params error: cursor invalid');
    const rest = after === null ? sorted : sorted.filter((item) => item.seq < after);
    const list = rest.slice(0, limit);
    const last = list[list.length - 1];
    return { list, nextPageCursor: rest.length > limit && last ? cursorOf(last, idOf(last)) : '' };
  }

  /**
   * `orderFilter`: `Order` active orders only, `StopOrder` conditional orders only, `tpslOrder` spot TP/SL
   * orders only (they keep their ids once triggered); without it every kind (v5's open-orders doc: "all kinds
   * of orders by default").
   */
  private passesOrderFilter(order: OrderState, params: Params): boolean {
    const filter = params.get('orderFilter') ?? '';
    if (filter === 'tpslOrder') return order.tpsl;
    if (filter === 'StopOrder') return order.trigger !== null && !order.tpsl;
    if (filter === 'Order') return order.trigger === null;
    return true;
  }

  private realtimeOrders(account: Account, params: Params) {
    const category = this.category(params);
    const symbol = params.get('symbol');
    if (symbol) this.requireMarket(category, symbol);
    const byId = params.get('orderId') || params.get('orderLinkId');
    if (category === 'linear' && !symbol && !params.get('settleCoin') && !params.get('baseCoin') && !byId) {
      throw new BybitApiError(
        10001,
        'Missing some parameters that must be filled in, symbol or settleCoin or baseCoin',
      );
    }
    const recent = new Set(account.recentEnded[category]);
    const openOnly = params.get('openOnly') ?? '0';
    const candidates = [...this.orders.values()].filter(
      (order) =>
        order.apiKey === account.apiKey &&
        order.category === category &&
        (!symbol || order.symbol === symbol) &&
        (!params.get('baseCoin') || this.markets.get(order.symbol)!.spec.base === params.get('baseCoin')) &&
        // By id: open, or among the last ended ones. Otherwise openOnly picks one or the other.
        this.passesOrderFilter(order, params) &&
        (byId
          ? RESTING_STATUSES.has(order.status) || recent.has(order.orderId)
          : openOnly === '0'
            ? RESTING_STATUSES.has(order.status)
            : recent.has(order.orderId)),
    );
    const matching = byId
      ? [this.ownOrder(account, category, params)].filter(
          (order): order is OrderState => order !== undefined && candidates.includes(order),
        )
      : candidates;
    const { list, nextPageCursor } = this.page(matching, params, (o) => o.orderId, { max: 50, fallback: 20 });
    return { category, nextPageCursor, list: list.map((order) => this.orderView(order)) };
  }

  /**
   * The time window of the history lists: 7 days back from now by default; from `startTime` or to `endTime`
   * 7 days; both at most 7 days apart (the documented rule, refused with 10001 otherwise).
   */
  private window(params: Params): { from: number; to: number } {
    const start = params.get('startTime') ? Number(params.get('startTime')) : null;
    const end = params.get('endTime') ? Number(params.get('endTime')) : null;
    const now = Date.now();
    if (start !== null && end !== null) {
      if (end < start || end - start > WINDOW_MS) {
        throw new BybitApiError(10001, 'params error: endTime - startTime must be within 7 days');
      }
      return { from: start, to: end };
    }
    if (start !== null) return { from: start, to: start + WINDOW_MS };
    if (end !== null) return { from: end - WINDOW_MS, to: end };
    return { from: now - WINDOW_MS, to: now };
  }

  private orderHistory(account: Account, params: Params) {
    const category = this.category(params);
    const symbol = params.get('symbol');
    if (symbol) this.requireMarket(category, symbol);
    const { from, to } = this.window(params);
    const now = Date.now();
    const status = params.get('orderStatus');
    const orderId = params.get('orderId');
    const orderLinkId = params.get('orderLinkId');
    const matching = [...this.orders.values()].filter((order) => {
      if (order.apiKey !== account.apiKey || order.category !== category) return false;
      if (RESTING_STATUSES.has(order.status)) return false; // closed statuses only
      if (!this.passesOrderFilter(order, params)) return false;
      if (symbol && order.symbol !== symbol) return false;
      if (orderId ? order.orderId !== orderId : orderLinkId && order.orderLinkId !== orderLinkId)
        return false;
      if (status && order.status !== status) return false;
      if (order.createdTime < from || order.createdTime > to) return false;
      // Ended without fills (cancelled, rejected): listed for 24 hours only.
      if (order.cumExecQty.isZero() && now - order.updatedTime > DAY_MS) return false;
      return true;
    });
    const { list, nextPageCursor } = this.page(matching, params, (o) => o.orderId, { max: 50, fallback: 20 });
    return { category, nextPageCursor, list: list.map((order) => this.orderView(order)) };
  }

  private executionList(account: Account, params: Params) {
    const category = this.category(params);
    const symbol = params.get('symbol');
    if (symbol) this.requireMarket(category, symbol);
    const orderId = params.get('orderId');
    const orderLinkId = params.get('orderLinkId');
    // By order id or link id every other filter (the time window included) is ignored, as documented.
    const byOrder = Boolean(orderId || orderLinkId);
    const { from, to } = byOrder ? { from: -Infinity, to: Infinity } : this.window(params);
    const execType = params.get('execType');
    const matching = this.executions.filter(
      (execution) =>
        execution.apiKey === account.apiKey &&
        execution.category === category &&
        (execType === undefined || execType === execution.execType) &&
        (byOrder
          ? orderId
            ? execution.orderId === orderId
            : execution.orderLinkId === orderLinkId
          : (!symbol || execution.symbol === symbol) &&
            execution.execTime >= from &&
            execution.execTime <= to),
    );
    const { list, nextPageCursor } = this.page(matching, params, (e) => e.execId, { max: 100, fallback: 50 });
    return {
      category,
      nextPageCursor,
      list: list.map((execution) => ({
        symbol: execution.symbol,
        orderId: execution.orderId,
        orderLinkId: execution.orderLinkId,
        side: execution.side,
        orderPrice: text(execution.orderPrice),
        orderQty: text(execution.orderQty),
        leavesQty: text(execution.leavesQty),
        ...(execution.category === 'linear'
          ? { createType: execution.execType === 'Trade' ? 'CreateByUser' : '' }
          : {}),
        orderType: execution.orderType,
        stopOrderType: execution.execType === 'Funding' ? 'UNKNOWN' : '',
        execFee: text(execution.execFee),
        execFeeV2: '',
        execId: execution.execId,
        execPrice: text(execution.execPrice),
        execQty: text(execution.execQty),
        execType: execution.execType,
        execValue: text(execution.execValue),
        execTime: String(execution.execTime),
        feeCurrency: execution.feeCurrency,
        isMaker: execution.isMaker,
        feeRate: text(execution.feeRate),
        tradeIv: '',
        markIv: '',
        markPrice: text(execution.markPrice),
        indexPrice: '',
        underlyingPrice: '',
        blockTradeId: '',
        closedSize: text(execution.closedSize),
        seq: execution.seq,
        extraFees: '',
      })),
    };
  }

  // ---- transaction log -----------------------------------------------------------------------------------

  /** Appends a linear USDT row; its cash balance is the wallet as it stands now (after the change). */
  private logTransaction(
    account: Account,
    row: Omit<TransactionLogState, 'seq' | 'id' | 'apiKey' | 'cashBalance'>,
  ): void {
    const seq = this.nextSeq++;
    this.transactionLog.push({
      ...row,
      seq,
      id: `${account.uid}_${row.symbol}_${seq}`,
      apiKey: account.apiKey,
      cashBalance: this.coinOf(account, 'USDT').wallet,
    });
  }

  /**
   * GET /v5/account/transaction-log: newest first, 20 a page by default (at most 50), paged with
   * `nextPageCursor`, in the 7-day windows of `startTime`/`endTime`; filtered by category, currency, baseCoin
   * and type. Only linear USDT rows exist here (a spot or option category answers none).
   */
  private transactionLogList(account: Account, params: Params) {
    const accountType = params.get('accountType');
    if (accountType && accountType !== 'UNIFIED') {
      throw new BybitApiError(10001, `accountType only support UNIFIED. (${accountType})`);
    }
    const category = params.get('category');
    if (category && !['spot', 'linear', 'option', 'inverse'].includes(category)) {
      throw new BybitApiError(10001, `params error: Illegal category ${category}`);
    }
    const currency = params.get('currency');
    const baseCoin = params.get('baseCoin');
    const type = params.get('type');
    const { from, to } = this.window(params);
    const matching = this.transactionLog.filter(
      (row) =>
        row.apiKey === account.apiKey &&
        (!category || category === 'linear') &&
        (!currency || currency === 'USDT') &&
        (!baseCoin || this.markets.get(row.symbol)!.spec.base === baseCoin) &&
        (!type || row.type === type) &&
        row.time >= from &&
        row.time <= to,
    );
    const { list, nextPageCursor } = this.page(matching, params, (row) => row.id, { max: 50, fallback: 20 });
    return {
      nextPageCursor,
      list: list.map((row) => ({
        id: row.id,
        symbol: row.symbol,
        category: 'linear',
        side: row.side,
        transactionTime: String(row.time),
        type: row.type,
        transSubType: '',
        qty: text(row.qty),
        size: text(row.size),
        currency: 'USDT',
        tradePrice: text(row.tradePrice),
        funding: row.funding === null ? '' : text(row.funding),
        fee: text(row.fee),
        cashFlow: text(row.cashFlow),
        // Change = cashFlow + funding − fee.
        change: text(row.cashFlow.plus(row.funding ?? 0).minus(row.fee)),
        cashBalance: text(row.cashBalance),
        feeRate: text(row.feeRate),
        bonusChange: '',
        tradeId: row.tradeId,
        orderId: row.orderId,
        orderLinkId: row.orderLinkId,
        extraFees: '',
      })),
    };
  }
}
