/**
 * A local server speaking the subset of Binance's REST protocol (spot `api/v3`, `sapi/v1`, USDⓈ-M futures
 * `fapi`) that ccxt uses for Kairos' operations — TEST CODE ONLY.
 *
 * Written from Binance's public API documentation and the request/response samples in ccxt's static test
 * data. Private endpoints check the `X-MBX-APIKEY` header, the `timestamp`/`recvWindow` window and the
 * HMAC-SHA256 `signature` over query string + body exactly as Binance does, and answer with Binance's error
 * bodies (`{"code":-1022,"msg":…}`) so ccxt maps them as it would in production.
 *
 * Orders are matched for real: takers walk a book made of synthetic liquidity around the current price plus
 * the resting limit orders of every account; resting orders fill when the price moves through them (hook
 * `setPrice`). USDⓈ-M conditional orders (STOP_MARKET, TAKE_PROFIT_MARKET) rest in the Algo Service
 * (`/fapi/v1/algoOrder`, as since Dec 2025) and, when `setPrice` crosses their trigger, become market orders. Test hooks also inject 429/418 answers with Retry-After and delay responses after the request
 * was processed (a timeout after the venue accepted an order).
 *
 * USDⓈ-M funding (hook `chargeFunding`): every account holding a position on the symbol pays (long with a
 * positive rate) or receives position × mark price × rate in its wallet balance, booked as a FUNDING_FEE row
 * of the income history (`GET /fapi/v1/income`, which also lists every futures fill's COMMISSION and
 * REALIZED_PNL); `GET /fapi/v1/premiumIndex` answers the mark price (the last price: this server has no
 * separate mark), the funding rate last charged and the next funding time.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
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

type Venue = 'spot' | 'futures';
type Side = 'BUY' | 'SELL';
type BinanceStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED' | 'REJECTED';

export interface BinanceTestMarket {
  base: string;
  quote: string;
  /** Initial last price. */
  price: string;
  tickSize: string;
  stepSize: string;
  minQty: string;
  minNotional: string;
  /** Quantity offered at each synthetic level. */
  levelQty: string;
  /** Distance between synthetic levels, in ticks. */
  levelTicks: number;
}

export interface BinanceTestAccountSpec {
  apiKey: string;
  secret: string;
  /** Spot balances: asset → free amount. */
  balances?: Record<string, string>;
  /** USDⓈ-M wallet balance in USDT. */
  futuresWallet?: string;
  canWithdraw?: boolean;
  /** USDⓈ-M position mode: hedge (long and short sides) when true; one-way (Binance's default) otherwise. */
  dualSidePosition?: boolean;
  /** What the key may trade (apiRestrictions): both by default. */
  enableFutures?: boolean;
  enableSpotAndMarginTrading?: boolean;
  /**
   * "Use BNB to pay for fees" (spotBNBBurn): a spot trade's commission is taken in BNB, 25 % off, valued at
   * the BNB market of the trade's quote, whenever the account holds enough free BNB.
   */
  spotBnbBurn?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  /** The form body (ccxt sends a spot order's parameters there). */
  body: string;
  status: number;
  apiKey: string | undefined;
  receivedAt: number;
}

interface Balance {
  free: Decimal;
  locked: Decimal;
}

interface FuturesPosition {
  amount: Decimal; // signed: > 0 long, < 0 short
  entryPrice: Decimal;
  updateTime: number;
}

interface Account {
  apiKey: string;
  secret: string;
  canWithdraw: boolean;
  balances: Map<string, Balance>;
  futuresWallet: Decimal;
  positions: Map<string, FuturesPosition>;
  leverage: Map<string, number>;
  /** Futures margin type per symbol; CROSSED until set (Binance's default). */
  marginType: Map<string, 'ISOLATED' | 'CROSSED'>;
  /** Margin held by open futures orders, by order id. */
  orderMargin: Map<number, Decimal>;
  dualSidePosition: boolean;
  enableFutures: boolean;
  enableSpotAndMarginTrading: boolean;
  spotBnbBurn: boolean;
}

interface OrderState {
  venue: Venue;
  orderId: number;
  clientOrderId: string;
  apiKey: string;
  symbol: string;
  side: Side;
  /** STOP_LOSS_LIMIT (spot): a limit order that works only once the last price reached `stopPrice`. */
  type: 'LIMIT' | 'MARKET' | 'STOP_LOSS_LIMIT';
  timeInForce: 'GTC' | 'IOC' | 'FOK';
  price: Decimal; // 0 for market
  /** STOP_LOSS_LIMIT's trigger; 0 otherwise. */
  stopPrice: Decimal;
  /** False while a STOP_LOSS_LIMIT waits for its trigger (its coins locked already); true for every other. */
  isWorking: boolean;
  workingTime: number;
  origQty: Decimal;
  executedQty: Decimal;
  cumQuote: Decimal;
  status: BinanceStatus;
  reduceOnly: boolean;
  time: number;
  updateTime: number;
  /** Spot: amount still locked for the unfilled part (quote for buys, base for sells). */
  locked: Decimal;
}

interface TradeState {
  venue: Venue;
  id: number;
  orderId: number;
  apiKey: string;
  symbol: string;
  side: Side;
  price: Decimal;
  qty: Decimal;
  quoteQty: Decimal;
  commission: Decimal;
  commissionAsset: string;
  realizedPnl: Decimal;
  maker: boolean;
  time: number;
}

/** A row of the USDⓈ-M income history (`GET /fapi/v1/income`); `income` is signed (< 0: paid). */
interface IncomeState {
  tranId: number;
  apiKey: string;
  symbol: string;
  incomeType: 'FUNDING_FEE' | 'COMMISSION' | 'REALIZED_PNL';
  income: Decimal;
  time: number;
  /** The fill's trade id for COMMISSION and REALIZED_PNL, '' for funding. */
  tradeId: string;
}

/** USDⓈ-M Algo Service statuses (ALGO_UPDATE "Algo Status" in Binance's user data stream docs). */
type AlgoStatus = 'NEW' | 'CANCELED' | 'TRIGGERING' | 'TRIGGERED' | 'FINISHED' | 'REJECTED' | 'EXPIRED';

/** A conditional order resting in the Algo Service (`POST /fapi/v1/algoOrder`, algoType=CONDITIONAL). */
interface AlgoOrderState {
  algoId: number;
  clientAlgoId: string;
  apiKey: string;
  symbol: string;
  side: Side;
  positionSide: string;
  orderType: 'STOP_MARKET' | 'TAKE_PROFIT_MARKET';
  /** null with closePosition=true (the whole position at trigger). */
  quantity: Decimal | null;
  triggerPrice: Decimal;
  workingType: 'MARK_PRICE' | 'CONTRACT_PRICE';
  reduceOnly: boolean;
  closePosition: boolean;
  priceProtect: boolean;
  algoStatus: AlgoStatus;
  /** The matching-engine order it became once triggered. */
  actualOrderId: number | null;
  createTime: number;
  updateTime: number;
  triggerTime: number;
}

interface MarketState {
  id: string;
  spec: BinanceTestMarket;
  price: Decimal;
  history: PricePoint[];
}

class BinanceApiError extends Error {
  constructor(
    readonly status: number,
    readonly binanceCode: number,
    message: string,
  ) {
    super(message);
  }
}

const SPOT_TAKER_FEE = new Decimal('0.001');
const SPOT_MAKER_FEE = new Decimal('0.001');
/** Binance's discount on fees paid in BNB. */
const BNB_FEE_DISCOUNT = new Decimal('0.75');
const FUTURES_TAKER_FEE = new Decimal('0.0004');
const FUTURES_MAKER_FEE = new Decimal('0.0002');
const SYNTHETIC_LEVELS = 20;
const DEFAULT_LEVERAGE = 20;
/** USDⓈ-M perpetuals settle funding every 8 hours (00:00, 08:00, 16:00 UTC) unless Binance shortens it. */
const FUNDING_INTERVAL_MS = 8 * 3_600_000;
/** The rate premiumIndex shows before any `chargeFunding`: the interest-rate-only 0.01 %. */
const DEFAULT_FUNDING_RATE = new Decimal('0.0001');

export const DEFAULT_TEST_MARKETS: Record<string, BinanceTestMarket> = {
  BTCUSDT: {
    base: 'BTC',
    quote: 'USDT',
    price: '65000.00',
    tickSize: '0.01',
    stepSize: '0.00001',
    minQty: '0.00001',
    minNotional: '5',
    levelQty: '0.5',
    levelTicks: 100,
  },
  ETHUSDT: {
    base: 'ETH',
    quote: 'USDT',
    price: '3200.00',
    tickSize: '0.01',
    stepSize: '0.0001',
    minQty: '0.0001',
    minNotional: '5',
    levelQty: '5',
    levelTicks: 10,
  },
  SOLUSDT: {
    base: 'SOL',
    quote: 'USDT',
    price: '150.00',
    tickSize: '0.01',
    stepSize: '0.001',
    minQty: '0.001',
    minNotional: '5',
    levelQty: '50',
    levelTicks: 2,
  },
};

const SPOT_PREFIX = '/api/v3/';
const CONDITIONAL_TYPES = new Set([
  'STOP',
  'STOP_MARKET',
  'TAKE_PROFIT',
  'TAKE_PROFIT_MARKET',
  'TRAILING_STOP_MARKET',
]);
const SAPI_PREFIX = '/sapi/v1/';
const FAPI_PREFIX = /^\/fapi\/v[123]\//;

function dp(value: Decimal, places = 8): string {
  return value.toFixed(places);
}

function isMultiple(value: Decimal, step: Decimal): boolean {
  return step.isZero() || value.mod(step).isZero();
}

/** Removes the `signature` pair from a raw query/body string; returns the rest and the signature. */
function splitSignature(raw: string): { rest: string; signature: string | null } {
  if (raw === '') return { rest: '', signature: null };
  let signature: string | null = null;
  const kept: string[] = [];
  for (const pair of raw.split('&')) {
    if (pair.startsWith('signature=')) signature = decodeURIComponent(pair.slice('signature='.length));
    else kept.push(pair);
  }
  return { rest: kept.join('&'), signature };
}

/** Binance's HMAC: hex HMAC-SHA256 over `queryString + requestBody` (no separator), signature excluded. */
export function binanceSignature(secret: string, totalParams: string): string {
  return createHmac('sha256', secret).update(totalParams).digest('hex');
}

export class BinanceTestServer {
  /** How far the venue's clock runs ahead of this host's (ms; negative: behind) — a host clock that drifted. */
  clockOffsetMs = 0;
  readonly requests: RecordedRequest[] = [];
  private server: Server | null = null;
  private originUrl = '';
  private readonly markets = new Map<string, MarketState>();
  private readonly accounts = new Map<string, Account>();
  private readonly orders = new Map<number, OrderState>();
  private readonly trades: TradeState[] = [];
  private nextOrderId = 100_000;
  private nextTradeId = 500_000;
  private readonly incomes: IncomeState[] = [];
  private nextTranId = 9_689_322_392;
  /** The funding rate last charged per symbol (premiumIndex's lastFundingRate). */
  private readonly fundingRates = new Map<string, Decimal>();
  private readonly algoOrders = new Map<number, AlgoOrderState>();
  private nextAlgoId = 3_000;
  private readonly failures: Array<Injection & { status: 429 | 418; retryAfterSeconds: number | null }> = [];
  private readonly delays: Array<Injection & { ms: number }> = [];
  private readonly recvWindowMs: number;

  private constructor(options: { markets?: Record<string, BinanceTestMarket>; recvWindowMs?: number }) {
    this.recvWindowMs = options.recvWindowMs ?? 60_000;
    for (const [id, spec] of Object.entries(options.markets ?? DEFAULT_TEST_MARKETS)) {
      const price = new Decimal(spec.price);
      this.markets.set(id, { id, spec, price, history: [{ time: 0, price }] });
    }
  }

  static async start(
    options: {
      markets?: Record<string, BinanceTestMarket>;
      accounts?: BinanceTestAccountSpec[];
      recvWindowMs?: number;
    } = {},
  ): Promise<BinanceTestServer> {
    const venue = new BinanceTestServer(options);
    for (const account of options.accounts ?? []) venue.addAccount(account);
    await venue.listen();
    return venue;
  }

  /** http://127.0.0.1:<port> */
  get origin(): string {
    return this.originUrl;
  }

  /** KAIROS_VENUE_URLS' entries sending ccxt's every API URL of binance and binanceusdm here. */
  venueUrls(): Record<string, string> {
    return { binance: this.originUrl, binanceusdm: this.originUrl };
  }

  // ---- test hooks ----------------------------------------------------------------------------------------

  addAccount(spec: BinanceTestAccountSpec): void {
    const balances = new Map<string, Balance>();
    for (const [asset, free] of Object.entries(spec.balances ?? {})) {
      balances.set(asset, { free: new Decimal(free), locked: new Decimal(0) });
    }
    this.accounts.set(spec.apiKey, {
      apiKey: spec.apiKey,
      secret: spec.secret,
      canWithdraw: spec.canWithdraw ?? false,
      balances,
      futuresWallet: new Decimal(spec.futuresWallet ?? '0'),
      positions: new Map(),
      leverage: new Map(),
      marginType: new Map(),
      orderMargin: new Map(),
      dualSidePosition: spec.dualSidePosition ?? false,
      enableFutures: spec.enableFutures ?? true,
      enableSpotAndMarginTrading: spec.enableSpotAndMarginTrading ?? true,
      spotBnbBurn: spec.spotBnbBurn ?? false,
    });
  }

  balance(apiKey: string, asset: string): { free: string; locked: string } {
    const balance = this.accounts.get(apiKey)?.balances.get(asset);
    return {
      free: (balance?.free ?? new Decimal(0)).toFixed(),
      locked: (balance?.locked ?? new Decimal(0)).toFixed(),
    };
  }

  /** The futures leverage and margin type the account has on a symbol ('BTCUSDT'). */
  futuresSettings(apiKey: string, symbol: string): { leverage: number; marginType: 'ISOLATED' | 'CROSSED' } {
    const account = this.accounts.get(apiKey)!;
    return {
      leverage: this.leverageOf(account, symbol),
      marginType: account.marginType.get(symbol) ?? 'CROSSED',
    };
  }

  /** The account's live orders on a market ('BTCUSDT'), as the venue holds them. */
  liveOrders(
    apiKey: string,
    symbol: string,
    venue: Venue = 'futures',
  ): { side: Side; origQty: string; reduceOnly: boolean; clientOrderId: string }[] {
    return [...this.orders.values()]
      .filter(
        (o) =>
          o.apiKey === apiKey &&
          o.symbol === symbol &&
          o.venue === venue &&
          (o.status === 'NEW' || o.status === 'PARTIALLY_FILLED'),
      )
      .map((o) => ({
        side: o.side,
        origQty: o.origQty.toFixed(),
        reduceOnly: o.reduceOnly,
        clientOrderId: o.clientOrderId,
      }));
  }

  /** The account's signed futures position on a symbol ('0' when flat). */
  positionAmount(apiKey: string, symbol: string): string {
    return (this.accounts.get(apiKey)?.positions.get(symbol)?.amount ?? new Decimal(0)).toFixed();
  }

  futuresWallet(apiKey: string): string {
    return (this.accounts.get(apiKey)?.futuresWallet ?? new Decimal(0)).toFixed();
  }

  /** The realised PnL (before fees) the venue booked on an order's fills, as its userTrades' realizedPnl. */
  closedPnl(orderId: string): string {
    return this.trades
      .filter((trade) => String(trade.orderId) === orderId)
      .reduce((sum, trade) => sum.plus(trade.realizedPnl), new Decimal(0))
      .toFixed();
  }

  /**
   * A funding settlement of `symbol` ('BTCUSDT') at `rate`, at `time` (default now): every account holding a
   * position receives −position × mark price × rate (8 decimals; a long pays a positive rate, a short
   * receives it) in its USDⓈ-M wallet balance, as a FUNDING_FEE income at that time. The rate becomes
   * premiumIndex's lastFundingRate. Answers what each account got, by API key (negative: paid).
   */
  chargeFunding(symbol: string, rate: string, time = Date.now()): Record<string, string> {
    const market = this.requireMarket(symbol);
    const fundingRate = new Decimal(rate);
    this.fundingRates.set(market.id, fundingRate);
    const charged: Record<string, string> = {};
    for (const account of this.accounts.values()) {
      const amount = account.positions.get(market.id)?.amount ?? new Decimal(0);
      const income = amount.times(market.price).times(fundingRate).neg().toDecimalPlaces(8);
      if (income.isZero()) continue;
      account.futuresWallet = account.futuresWallet.plus(income);
      this.recordIncome(account.apiKey, market.id, 'FUNDING_FEE', income, time, '');
      charged[account.apiKey] = income.toFixed();
    }
    return charged;
  }

  /** Moves the last price; resting limit orders the price went through fill (as makers) at their price. */
  setPrice(symbol: string, price: string): void {
    const market = this.requireMarket(symbol);
    market.price = new Decimal(price);
    market.history.push({ time: Date.now(), price: market.price });
    for (const order of [...this.orders.values()]) {
      if (order.symbol !== symbol || (order.status !== 'NEW' && order.status !== 'PARTIALLY_FILLED'))
        continue;
      if (!order.isWorking) {
        this.triggerStopLossLimit(order, market);
        continue;
      }
      const crossed = order.side === 'BUY' ? market.price.lte(order.price) : market.price.gte(order.price);
      if (crossed) this.fill(order, order.price, order.origQty.minus(order.executedQty), true);
    }
    this.triggerAlgoOrders(market);
  }

  /**
   * From now on each synthetic level of `symbol` offers `levelQty`: a thin book, where a market order fills
   * level by level and, past the last one, expires short of its quantity (a partial fill).
   */
  setLevelQty(symbol: string, levelQty: string): void {
    const market = this.requireMarket(symbol);
    market.spec = { ...market.spec, levelQty };
  }

  /** The next `count` matching requests get HTTP `status` (429 or 418) with an optional Retry-After. */
  failNext(options: {
    count: number;
    status?: 429 | 418;
    retryAfterSeconds?: number | null;
    match?: (method: string, path: string) => boolean;
  }): void {
    this.failures.push({
      remaining: options.count,
      status: options.status ?? 429,
      retryAfterSeconds: options.retryAfterSeconds === undefined ? 1 : options.retryAfterSeconds,
      match: options.match ?? (() => true),
    });
  }

  /** The next `count` matching requests are processed at once but answered `ms` later. */
  delayNext(options: { count: number; ms: number; match?: (method: string, path: string) => boolean }): void {
    this.delays.push({ remaining: options.count, ms: options.ms, match: options.match ?? (() => true) });
  }

  /** The account's conditional orders still waiting in the Algo Service on a market ('BTCUSDT'). */
  liveAlgoOrders(
    apiKey: string,
    symbol: string,
  ): {
    algoId: number;
    clientAlgoId: string;
    side: Side;
    orderType: string;
    quantity: string | null;
    triggerPrice: string;
    workingType: string;
    reduceOnly: boolean;
    closePosition: boolean;
  }[] {
    return [...this.algoOrders.values()]
      .filter((a) => a.apiKey === apiKey && a.symbol === symbol && a.algoStatus === 'NEW')
      .map((a) => ({
        algoId: a.algoId,
        clientAlgoId: a.clientAlgoId,
        side: a.side,
        orderType: a.orderType,
        quantity: a.quantity?.toFixed() ?? null,
        triggerPrice: a.triggerPrice.toFixed(),
        workingType: a.workingType,
        reduceOnly: a.reduceOnly,
        closePosition: a.closePosition,
      }));
  }

  /** The latest conditional order with that client algo id: its status and the order it became, if any. */
  algoOrderByClientId(
    clientAlgoId: string,
  ): { algoId: number; algoStatus: AlgoStatus; actualOrderId: number | null } | undefined {
    const found = [...this.algoOrders.values()].reverse().find((a) => a.clientAlgoId === clientAlgoId);
    return found
      ? { algoId: found.algoId, algoStatus: found.algoStatus, actualOrderId: found.actualOrderId }
      : undefined;
  }

  orderByClientId(clientOrderId: string): { orderId: number; status: BinanceStatus } | undefined {
    const found = [...this.orders.values()].reverse().find((order) => order.clientOrderId === clientOrderId);
    return found ? { orderId: found.orderId, status: found.status } : undefined;
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
      (error) => ({ code: -1000, msg: String(error) }),
    );
    this.server = server;
    this.originUrl = origin;
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
    const apiKeyHeader = request.headers['x-mbx-apikey'];
    const apiKey = Array.isArray(apiKeyHeader) ? apiKeyHeader[0] : apiKeyHeader;

    let status = 200;
    let body: unknown;
    const headers: Record<string, string> = { 'content-type': 'application/json;charset=UTF-8' };
    const failure = takeInjection(this.failures, method, path);
    if (failure) {
      status = failure.status;
      if (failure.retryAfterSeconds !== null) headers['retry-after'] = String(failure.retryAfterSeconds);
      body =
        failure.status === 418
          ? { code: -1003, msg: `Way too many requests; IP(127.0.0.1) banned until ${Date.now() + 60_000}.` }
          : {
              code: -1003,
              msg: 'Too many requests; current limit of IP(127.0.0.1) is 6000 requests per minute. Please use the websocket for live updates to avoid polling the API.',
            };
    } else {
      try {
        body = this.route(method, path, rawQuery, rawBody, apiKey);
      } catch (error) {
        if (!(error instanceof BinanceApiError)) throw error;
        status = error.status;
        body = { code: error.binanceCode, msg: error.message };
      }
    }
    this.requests.push({ method, path, query: rawQuery, body: rawBody, status, apiKey, receivedAt });
    const delay = takeInjection(this.delays, method, path);
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay.ms));
    if (response.destroyed) return;
    response.writeHead(status, headers);
    response.end(JSON.stringify(body));
  }

  private route(method: string, path: string, rawQuery: string, rawBody: string, apiKey?: string): unknown {
    const params = new URLSearchParams(rawQuery);
    for (const [key, value] of new URLSearchParams(rawBody)) params.set(key, value);

    if (path.startsWith(SPOT_PREFIX)) {
      const endpoint = path.slice(SPOT_PREFIX.length);
      switch (`${method} ${endpoint}`) {
        case 'GET ping':
          return {};
        case 'GET time':
          return { serverTime: Date.now() + this.clockOffsetMs };
        case 'GET exchangeInfo':
          return this.spotExchangeInfo();
        case 'GET ticker/24hr':
        case 'GET ticker':
          return this.ticker24hr(this.requireMarket(params.get('symbol')), 8);
        case 'GET ticker/bookTicker':
          return this.bookTicker(this.requireMarket(params.get('symbol')));
        case 'GET depth':
          return this.depth(
            'spot',
            this.requireMarket(params.get('symbol')),
            Number(params.get('limit') ?? 100),
          );
        case 'GET klines':
          return this.klines(this.requireMarket(params.get('symbol')), params);
      }
      const account = this.authenticate(apiKey, rawQuery, rawBody, params);
      switch (`${method} ${endpoint}`) {
        case 'GET account':
          return this.spotAccount(account);
        case 'POST order':
          return this.placeOrder('spot', account, params);
        case 'DELETE order':
          return this.cancelOrder('spot', account, params);
        case 'GET order':
          return this.orderView(this.findOrder('spot', account, params));
        case 'GET openOrders':
          return this.listOrders('spot', account, params.get('symbol'), true);
        case 'GET allOrders':
          return this.listOrders('spot', account, params.get('symbol'), false);
        case 'GET myTrades':
          return this.listTrades('spot', account, params);
      }
    } else if (path.startsWith(SAPI_PREFIX)) {
      const endpoint = path.slice(SAPI_PREFIX.length);
      if (method === 'GET' && endpoint === 'system/status') return { status: 0, msg: 'normal' };
      const account = this.authenticate(apiKey, rawQuery, rawBody, params);
      if (method === 'GET' && endpoint === 'account/apiRestrictions') return this.apiRestrictions(account);
    } else if (FAPI_PREFIX.test(path)) {
      const endpoint = path.replace(FAPI_PREFIX, '');
      switch (`${method} ${endpoint}`) {
        case 'GET ping':
          return {};
        case 'GET time':
          return { serverTime: Date.now() + this.clockOffsetMs };
        case 'GET exchangeInfo':
          return this.futuresExchangeInfo();
        case 'GET ticker/24hr':
          return this.ticker24hr(this.requireMarket(params.get('symbol')), 2);
        case 'GET premiumIndex':
          return this.premiumIndex(params.get('symbol'));
        case 'GET depth':
          return this.depth(
            'futures',
            this.requireMarket(params.get('symbol')),
            Number(params.get('limit') ?? 100),
          );
        case 'GET klines':
          return this.klines(this.requireMarket(params.get('symbol')), params);
      }
      const account = this.authenticate(apiKey, rawQuery, rawBody, params);
      switch (`${method} ${endpoint}`) {
        case 'GET account':
          return this.futuresAccount(account);
        case 'GET positionRisk':
          return this.positionRisk(account, params.get('symbol'));
        case 'GET leverageBracket':
          return this.leverageBrackets(params.get('symbol'));
        case 'POST leverage':
          return this.setLeverage(account, params);
        case 'POST marginType':
          return this.setMarginType(account, params);
        case 'GET positionSide/dual':
          return { dualSidePosition: account.dualSidePosition };
        case 'POST order':
          return this.placeOrder('futures', account, params);
        case 'DELETE order':
          return this.cancelOrder('futures', account, params);
        case 'GET order':
          return this.orderView(this.findOrder('futures', account, params));
        case 'GET openOrders':
          return this.listOrders('futures', account, params.get('symbol'), true);
        case 'GET allOrders':
          return this.listOrders('futures', account, params.get('symbol'), false);
        case 'GET userTrades':
          return this.listTrades('futures', account, params);
        case 'GET income':
          return this.incomeHistory(account, params);
        case 'POST algoOrder':
          return this.placeAlgoOrder(account, params);
        case 'GET algoOrder':
          return this.algoOrderView(this.findAlgoOrder(account, params));
        case 'DELETE algoOrder':
          return this.cancelAlgoOrder(account, params);
        case 'GET openAlgoOrders':
          return this.listAlgoOrders(account, params, true);
        case 'GET allAlgoOrders':
          return this.listAlgoOrders(account, params, false);
      }
    }
    throw new BinanceApiError(404, -1000, `Unknown endpoint ${method} ${path}`);
  }

  /** API key header, then timestamp window, then signature — in Binance's order, with its error codes. */
  private authenticate(
    apiKey: string | undefined,
    rawQuery: string,
    rawBody: string,
    params: URLSearchParams,
  ): Account {
    if (!apiKey || !/^[A-Za-z0-9]{8,128}$/.test(apiKey)) {
      throw new BinanceApiError(401, -2014, 'API-key format invalid.');
    }
    const account = this.accounts.get(apiKey);
    if (!account) throw new BinanceApiError(401, -2015, 'Invalid API-key, IP, or permissions for action.');
    const timestamp = Number(params.get('timestamp'));
    if (!params.get('timestamp') || !Number.isFinite(timestamp)) {
      throw new BinanceApiError(
        400,
        -1102,
        "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed.",
      );
    }
    const recvWindow = Math.min(Number(params.get('recvWindow') ?? 5000), this.recvWindowMs);
    const now = Date.now() + this.clockOffsetMs;
    if (timestamp > now + 1000 || now - timestamp > recvWindow) {
      throw new BinanceApiError(400, -1021, 'Timestamp for this request is outside of the recvWindow.');
    }
    const query = splitSignature(rawQuery);
    const body = splitSignature(rawBody);
    const signature = query.signature ?? body.signature;
    if (!signature) throw new BinanceApiError(400, -1102, "Mandatory parameter 'signature' was not sent.");
    const expected = Buffer.from(binanceSignature(account.secret, query.rest + body.rest), 'utf8');
    const given = Buffer.from(signature.toLowerCase(), 'utf8');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new BinanceApiError(400, -1022, 'Signature for this request is not valid.');
    }
    return account;
  }

  // ---- market data ---------------------------------------------------------------------------------------

  private requireMarket(symbol: string | null): MarketState {
    const market = symbol ? this.markets.get(symbol) : undefined;
    if (!market) throw new BinanceApiError(400, -1121, 'Invalid symbol.');
    return market;
  }

  private spotExchangeInfo() {
    return {
      timezone: 'UTC',
      serverTime: Date.now(),
      rateLimits: [
        { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000 },
        { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 100 },
      ],
      exchangeFilters: [],
      symbols: [...this.markets.values()].map(({ id, spec }) => ({
        symbol: id,
        status: 'TRADING',
        baseAsset: spec.base,
        baseAssetPrecision: 8,
        quoteAsset: spec.quote,
        quotePrecision: 8,
        quoteAssetPrecision: 8,
        baseCommissionPrecision: 8,
        quoteCommissionPrecision: 8,
        orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT_LIMIT'],
        icebergAllowed: true,
        ocoAllowed: true,
        quoteOrderQtyMarketAllowed: true,
        allowTrailingStop: true,
        cancelReplaceAllowed: true,
        isSpotTradingAllowed: true,
        isMarginTradingAllowed: false,
        filters: [
          {
            filterType: 'PRICE_FILTER',
            minPrice: spec.tickSize,
            maxPrice: '1000000.00000000',
            tickSize: spec.tickSize,
          },
          { filterType: 'LOT_SIZE', minQty: spec.minQty, maxQty: '9000.00000000', stepSize: spec.stepSize },
          {
            filterType: 'NOTIONAL',
            minNotional: spec.minNotional,
            applyMinToMarket: true,
            maxNotional: '9000000.00000000',
            applyMaxToMarket: false,
            avgPriceMins: 5,
          },
          {
            filterType: 'MARKET_LOT_SIZE',
            minQty: '0.00000000',
            maxQty: '100.00000000',
            stepSize: '0.00000000',
          },
          { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 200 },
        ],
        permissions: [],
        permissionSets: [['SPOT']],
        defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
        allowedSelfTradePreventionModes: ['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'],
      })),
    };
  }

  private futuresExchangeInfo() {
    return {
      timezone: 'UTC',
      serverTime: Date.now(),
      futuresType: 'U_MARGINED',
      rateLimits: [{ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 2400 }],
      exchangeFilters: [],
      assets: [{ asset: 'USDT', marginAvailable: true, autoAssetExchange: '-10000' }],
      symbols: [...this.markets.values()].map(({ id, spec }) => ({
        symbol: id,
        pair: id,
        contractType: 'PERPETUAL',
        deliveryDate: 4133404800000,
        onboardDate: 1569398400000,
        status: 'TRADING',
        maintMarginPercent: '2.5000',
        requiredMarginPercent: '5.0000',
        baseAsset: spec.base,
        quoteAsset: spec.quote,
        marginAsset: spec.quote,
        pricePrecision: new Decimal(spec.tickSize).decimalPlaces(),
        quantityPrecision: new Decimal(spec.stepSize).decimalPlaces(),
        baseAssetPrecision: 8,
        quotePrecision: 8,
        underlyingType: 'COIN',
        underlyingSubType: [],
        triggerProtect: '0.0500',
        liquidationFee: '0.012500',
        marketTakeBound: '0.05',
        maxMoveOrderLimit: 10000,
        filters: [
          {
            filterType: 'PRICE_FILTER',
            minPrice: spec.tickSize,
            maxPrice: '4529764',
            tickSize: spec.tickSize,
          },
          { filterType: 'LOT_SIZE', minQty: spec.minQty, maxQty: '1000', stepSize: spec.stepSize },
          { filterType: 'MARKET_LOT_SIZE', minQty: spec.minQty, maxQty: '120', stepSize: spec.stepSize },
          { filterType: 'MAX_NUM_ORDERS', limit: 200 },
          { filterType: 'MIN_NOTIONAL', notional: spec.minNotional },
          {
            filterType: 'PERCENT_PRICE',
            multiplierUp: '1.0500',
            multiplierDown: '0.9500',
            multiplierDecimal: '4',
          },
        ],
        orderTypes: ['LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET'],
        timeInForce: ['GTC', 'IOC', 'FOK', 'GTX'],
      })),
    };
  }

  private ticker24hr(market: MarketState, places: number) {
    const now = Date.now();
    const dayAgo = now - 86_400_000;
    const window = market.history.filter((entry) => entry.time >= dayAgo).map((entry) => entry.price);
    const open = priceAt(market.history, dayAgo);
    const prices = [open, ...window, market.price];
    const high = Decimal.max(...prices);
    const low = Decimal.min(...prices);
    const { bid, ask } = this.bestSynthetic(market);
    const change = market.price.minus(open);
    return {
      symbol: market.id,
      priceChange: dp(change, places),
      priceChangePercent: change.div(open).times(100).toFixed(3),
      weightedAvgPrice: dp(market.price, places),
      prevClosePrice: dp(open, places),
      lastPrice: dp(market.price, places),
      lastQty: '0.00100000',
      bidPrice: dp(bid, places),
      bidQty: market.spec.levelQty,
      askPrice: dp(ask, places),
      askQty: market.spec.levelQty,
      openPrice: dp(open, places),
      highPrice: dp(high, places),
      lowPrice: dp(low, places),
      volume: '1000.00000000',
      quoteVolume: dp(market.price.times(1000), places),
      openTime: dayAgo,
      closeTime: now,
      firstId: 1,
      lastId: 1000,
      count: 1000,
    };
  }

  private bookTicker(market: MarketState) {
    const { bid, ask } = this.bestSynthetic(market);
    return {
      symbol: market.id,
      bidPrice: dp(bid),
      bidQty: market.spec.levelQty,
      askPrice: dp(ask),
      askQty: market.spec.levelQty,
    };
  }

  private levelStep(market: MarketState): Decimal {
    return new Decimal(market.spec.tickSize).times(market.spec.levelTicks);
  }

  private bestSynthetic(market: MarketState): { bid: Decimal; ask: Decimal } {
    const step = this.levelStep(market);
    return { bid: market.price.minus(step), ask: market.price.plus(step) };
  }

  /** Liquidity a taker on `side` can hit: synthetic levels plus other accounts' resting orders, best first. */
  private liquidity(
    venue: Venue,
    market: MarketState,
    side: Side,
    excludeApiKey?: string,
  ): Array<{ price: Decimal; qty: Decimal; maker: OrderState | null }> {
    const step = this.levelStep(market);
    const synthetic = Array.from({ length: SYNTHETIC_LEVELS }, (_, i) => ({
      price: side === 'BUY' ? market.price.plus(step.times(i + 1)) : market.price.minus(step.times(i + 1)),
      qty: new Decimal(market.spec.levelQty),
      maker: null as OrderState | null,
    })).filter((level) => level.price.gt(0));
    const resting = [...this.orders.values()]
      .filter(
        (order) =>
          order.venue === venue &&
          order.symbol === market.id &&
          order.side !== side &&
          order.apiKey !== excludeApiKey &&
          order.isWorking &&
          (order.status === 'NEW' || order.status === 'PARTIALLY_FILLED'),
      )
      .map((order) => ({ price: order.price, qty: order.origQty.minus(order.executedQty), maker: order }));
    const all = [...synthetic, ...resting];
    all.sort((a, b) => (side === 'BUY' ? a.price.comparedTo(b.price) : b.price.comparedTo(a.price)));
    return all;
  }

  private depth(venue: Venue, market: MarketState, limit: number) {
    const aggregate = (side: Side) => {
      const levels = new Map<string, Decimal>();
      for (const level of this.liquidity(venue, market, side)) {
        const key = dp(level.price);
        levels.set(key, (levels.get(key) ?? new Decimal(0)).plus(level.qty));
      }
      return [...levels.entries()].slice(0, limit).map(([price, qty]) => [price, dp(qty)]);
    };
    return {
      lastUpdateId: this.nextTradeId,
      ...(venue === 'futures' ? { E: Date.now(), T: Date.now() } : {}),
      bids: aggregate('SELL'),
      asks: aggregate('BUY'),
    };
  }

  private klines(market: MarketState, params: URLSearchParams) {
    const intervals: Record<string, number> = { ...TIMEFRAME_MS, '8h': 28_800_000 };
    const interval = intervals[params.get('interval') ?? ''];
    if (!interval) throw new BinanceApiError(400, -1120, 'Invalid interval.');
    const limit = Math.min(Number(params.get('limit') ?? 500), 1000);
    const rows = pathCandles(market.history, interval, {
      ...(params.get('startTime') ? { start: Number(params.get('startTime')) } : {}),
      ...(params.get('endTime') ? { end: Number(params.get('endTime')) } : {}),
      limit,
    }).map((candle) => [
      candle.openTime,
      dp(candle.open),
      dp(candle.high),
      dp(candle.low),
      dp(candle.close),
      '10.00000000',
      candle.closeTime,
      dp(candle.close.times(10)),
      100,
      '5.00000000',
      dp(candle.close.times(5)),
      '0',
    ]);
    return rows;
  }

  // ---- accounts ------------------------------------------------------------------------------------------

  private balanceOf(account: Account, asset: string): Balance {
    let balance = account.balances.get(asset);
    if (!balance) {
      balance = { free: new Decimal(0), locked: new Decimal(0) };
      account.balances.set(asset, balance);
    }
    return balance;
  }

  private spotAccount(account: Account) {
    return {
      makerCommission: 10,
      takerCommission: 10,
      buyerCommission: 0,
      sellerCommission: 0,
      commissionRates: {
        maker: '0.00100000',
        taker: '0.00100000',
        buyer: '0.00000000',
        seller: '0.00000000',
      },
      canTrade: true,
      canWithdraw: account.canWithdraw,
      canDeposit: true,
      brokered: false,
      requireSelfTradePrevention: false,
      preventSor: false,
      updateTime: Date.now(),
      accountType: 'SPOT',
      balances: [...account.balances.entries()].map(([asset, balance]) => ({
        asset,
        free: dp(balance.free),
        locked: dp(balance.locked),
      })),
      permissions: ['SPOT'],
      uid: 354937868,
    };
  }

  private apiRestrictions(account: Account) {
    return {
      ipRestrict: false,
      createTime: 1698645219000,
      enableReading: true,
      enableWithdrawals: account.canWithdraw,
      enableInternalTransfer: false,
      enableMargin: false,
      enableFutures: account.enableFutures,
      permitsUniversalTransfer: false,
      enableVanillaOptions: false,
      enableFixApiTrade: false,
      enableFixReadOnly: false,
      enableSpotAndMarginTrading: account.enableSpotAndMarginTrading,
      enablePortfolioMarginTrading: false,
    };
  }

  private unrealizedPnl(symbol: string, position: FuturesPosition): Decimal {
    const mark = this.markets.get(symbol)!.price;
    return mark.minus(position.entryPrice).times(position.amount);
  }

  private futuresMarginUsed(account: Account): { positions: Decimal; orders: Decimal; unrealized: Decimal } {
    let positions = new Decimal(0);
    let unrealized = new Decimal(0);
    for (const [symbol, position] of account.positions) {
      if (position.amount.isZero()) continue;
      const mark = this.markets.get(symbol)!.price;
      positions = positions.plus(position.amount.abs().times(mark).div(this.leverageOf(account, symbol)));
      unrealized = unrealized.plus(this.unrealizedPnl(symbol, position));
    }
    let orders = new Decimal(0);
    for (const margin of account.orderMargin.values()) orders = orders.plus(margin);
    return { positions, orders, unrealized };
  }

  private leverageOf(account: Account, symbol: string): number {
    return account.leverage.get(symbol) ?? DEFAULT_LEVERAGE;
  }

  private futuresAvailable(account: Account): Decimal {
    const used = this.futuresMarginUsed(account);
    return account.futuresWallet
      .plus(Decimal.min(used.unrealized, 0))
      .minus(used.positions)
      .minus(used.orders);
  }

  private futuresAccount(account: Account) {
    const used = this.futuresMarginUsed(account);
    const initialMargin = used.positions.plus(used.orders);
    const marginBalance = account.futuresWallet.plus(used.unrealized);
    const available = this.futuresAvailable(account);
    const now = Date.now();
    return {
      totalInitialMargin: dp(initialMargin),
      totalMaintMargin: dp(used.positions.times('0.1')),
      totalWalletBalance: dp(account.futuresWallet),
      totalUnrealizedProfit: dp(used.unrealized),
      totalMarginBalance: dp(marginBalance),
      totalPositionInitialMargin: dp(used.positions),
      totalOpenOrderInitialMargin: dp(used.orders),
      totalCrossWalletBalance: dp(account.futuresWallet),
      totalCrossUnPnl: dp(used.unrealized),
      availableBalance: dp(available),
      maxWithdrawAmount: dp(available),
      assets: [
        {
          asset: 'USDT',
          walletBalance: dp(account.futuresWallet),
          unrealizedProfit: dp(used.unrealized),
          marginBalance: dp(marginBalance),
          maintMargin: dp(used.positions.times('0.1')),
          initialMargin: dp(initialMargin),
          positionInitialMargin: dp(used.positions),
          openOrderInitialMargin: dp(used.orders),
          crossWalletBalance: dp(account.futuresWallet),
          crossUnPnl: dp(used.unrealized),
          availableBalance: dp(available),
          maxWithdrawAmount: dp(available),
          updateTime: now,
        },
      ],
      positions: [...account.positions.entries()]
        .filter(([, position]) => !position.amount.isZero())
        .map(([symbol, position]) => ({
          symbol,
          positionSide: 'BOTH',
          positionAmt: position.amount.toFixed(),
          unrealizedProfit: dp(this.unrealizedPnl(symbol, position)),
          isolatedMargin: '0',
          notional: dp(position.amount.times(this.markets.get(symbol)!.price)),
          isolatedWallet: '0',
          initialMargin: dp(
            position.amount
              .abs()
              .times(this.markets.get(symbol)!.price)
              .div(this.leverageOf(account, symbol)),
          ),
          maintMargin: '0',
          updateTime: position.updateTime,
        })),
    };
  }

  private positionRisk(account: Account, symbol: string | null) {
    return [...account.positions.entries()]
      .filter(([id, position]) => !position.amount.isZero() && (symbol === null || id === symbol))
      .map(([id, position]) => {
        const mark = this.markets.get(id)!.price;
        return {
          symbol: id,
          positionSide: 'BOTH',
          positionAmt: position.amount.toFixed(),
          entryPrice: position.entryPrice.toFixed(),
          breakEvenPrice: position.entryPrice.toFixed(),
          markPrice: dp(mark),
          unRealizedProfit: dp(this.unrealizedPnl(id, position)),
          liquidationPrice: '0',
          isolatedMargin: '0',
          notional: dp(position.amount.times(mark)),
          marginAsset: 'USDT',
          isolatedWallet: '0',
          initialMargin: dp(position.amount.abs().times(mark).div(this.leverageOf(account, id))),
          maintMargin: dp(position.amount.abs().times(mark).times('0.004')),
          positionInitialMargin: dp(position.amount.abs().times(mark).div(this.leverageOf(account, id))),
          openOrderInitialMargin: '0',
          adl: 0,
          bidNotional: '0',
          askNotional: '0',
          updateTime: position.updateTime,
        };
      });
  }

  private leverageBrackets(symbol: string | null) {
    return [...this.markets.keys()]
      .filter((id) => symbol === null || id === symbol)
      .map((id) => ({
        symbol: id,
        brackets: [
          {
            bracket: 1,
            initialLeverage: 125,
            notionalCap: 50000,
            notionalFloor: 0,
            maintMarginRatio: 0.004,
            cum: 0,
          },
          {
            bracket: 2,
            initialLeverage: 100,
            notionalCap: 600000,
            notionalFloor: 50000,
            maintMarginRatio: 0.005,
            cum: 50,
          },
        ],
      }));
  }

  /** POST /fapi/v1/marginType: -4046 when already so, -4048 while a position is open. */
  private setMarginType(account: Account, params: URLSearchParams) {
    const market = this.requireMarket(params.get('symbol'));
    const type = params.get('marginType');
    if (type !== 'ISOLATED' && type !== 'CROSSED') {
      throw new BinanceApiError(
        400,
        -1102,
        "Mandatory parameter 'marginType' was not sent, was empty/null, or malformed.",
      );
    }
    if ((account.marginType.get(market.id) ?? 'CROSSED') === type) {
      throw new BinanceApiError(400, -4046, 'No need to change margin type.');
    }
    if (!(account.positions.get(market.id)?.amount ?? new Decimal(0)).isZero()) {
      throw new BinanceApiError(400, -4048, 'Margin type cannot be changed if there exists position.');
    }
    account.marginType.set(market.id, type);
    return { code: 200, msg: 'success' };
  }

  private setLeverage(account: Account, params: URLSearchParams) {
    const market = this.requireMarket(params.get('symbol'));
    const leverage = Number(params.get('leverage'));
    if (!Number.isInteger(leverage) || leverage < 1 || leverage > 125) {
      throw new BinanceApiError(400, -4028, 'Leverage is not valid');
    }
    account.leverage.set(market.id, leverage);
    return { leverage, maxNotionalValue: '50000', symbol: market.id };
  }

  // ---- orders --------------------------------------------------------------------------------------------

  private placeOrder(venue: Venue, account: Account, params: URLSearchParams) {
    const market = this.requireMarket(params.get('symbol'));
    const side = params.get('side');
    if (side !== 'BUY' && side !== 'SELL') throw new BinanceApiError(400, -1117, 'Invalid side.');
    const type = params.get('type');
    if (venue === 'futures' && type !== null && CONDITIONAL_TYPES.has(type)) {
      // Since Dec 2025 USDⓈ-M conditional orders live in the Algo Service (POST /fapi/v1/algoOrder).
      throw new BinanceApiError(
        400,
        -4120,
        'Order type not supported for this endpoint. Please use the Algo Order API endpoints instead.',
      );
    }
    const stopLossLimit = venue === 'spot' && type === 'STOP_LOSS_LIMIT';
    if (type !== 'LIMIT' && type !== 'MARKET' && !stopLossLimit) {
      throw new BinanceApiError(400, -1116, 'Invalid orderType.');
    }
    const clientOrderId =
      params.get('newClientOrderId') ?? `web_${randomBytes(10).toString('hex')}`.slice(0, 24);
    if (!/^[.A-Z:/a-z0-9_-]{1,36}$/.test(clientOrderId)) {
      throw new BinanceApiError(400, -1100, "Illegal characters found in parameter 'newClientOrderId'.");
    }
    const duplicate = [...this.orders.values()].some(
      (order) =>
        order.venue === venue &&
        order.apiKey === account.apiKey &&
        order.clientOrderId === clientOrderId &&
        (order.status === 'NEW' || order.status === 'PARTIALLY_FILLED'),
    );
    if (duplicate) throw new BinanceApiError(400, -2010, 'Duplicate order sent.');
    // A hedge-mode account needs positionSide LONG/SHORT on every order; one-way mode takes BOTH or none.
    const positionSide = params.get('positionSide') ?? 'BOTH';
    if (venue === 'futures' && (positionSide === 'BOTH') === account.dualSidePosition) {
      throw new BinanceApiError(400, -4061, "Order's position side does not match user's setting.");
    }

    const tick = new Decimal(market.spec.tickSize);
    const step = new Decimal(market.spec.stepSize);
    const quoteOrderQty = params.get('quoteOrderQty');
    let qty: Decimal | null = params.get('quantity') ? new Decimal(params.get('quantity')!) : null;
    let price = new Decimal(0);
    let stopPrice = new Decimal(0);
    if (stopLossLimit) {
      if (!params.get('stopPrice')) {
        throw new BinanceApiError(
          400,
          -1102,
          "Mandatory parameter 'stopPrice' was not sent, was empty/null, or malformed.",
        );
      }
      stopPrice = new Decimal(params.get('stopPrice')!);
      if (stopPrice.lte(0) || !isMultiple(stopPrice, tick))
        throw new BinanceApiError(400, -1013, 'Filter failure: PRICE_FILTER');
      // A sell stop triggers when the price falls to it, a buy stop when it rises to it.
      if (side === 'SELL' ? market.price.lte(stopPrice) : market.price.gte(stopPrice)) {
        throw new BinanceApiError(400, -2010, 'Stop price would trigger immediately.');
      }
    }
    if (type === 'LIMIT' || stopLossLimit) {
      if (!params.get('price') || !qty) {
        throw new BinanceApiError(
          400,
          -1102,
          "Mandatory parameter 'price' was not sent, was empty/null, or malformed.",
        );
      }
      if (!params.get('timeInForce')) {
        throw new BinanceApiError(
          400,
          -1102,
          "Mandatory parameter 'timeInForce' was not sent, was empty/null, or malformed.",
        );
      }
      price = new Decimal(params.get('price')!);
      if (price.lte(0) || !isMultiple(price, tick))
        throw new BinanceApiError(400, -1013, 'Filter failure: PRICE_FILTER');
    }
    if (venue === 'spot' && type === 'MARKET' && quoteOrderQty && side === 'BUY' && !qty) {
      qty = this.quantityForQuote(market, new Decimal(quoteOrderQty), step);
    }
    if (!qty) {
      throw new BinanceApiError(
        400,
        -1102,
        "Mandatory parameter 'quantity' was not sent, was empty/null, or malformed.",
      );
    }
    if (qty.lte(0) || qty.lt(market.spec.minQty) || !isMultiple(qty, step)) {
      throw new BinanceApiError(400, -1013, 'Filter failure: LOT_SIZE');
    }
    const reduceOnly = params.get('reduceOnly') === 'true';
    if (reduceOnly && venue === 'spot') {
      throw new BinanceApiError(400, -1106, "Parameter 'reduceOnly' sent when not required.");
    }
    const referencePrice = type === 'MARKET' ? market.price : price;
    if (!reduceOnly && qty.times(referencePrice).lt(market.spec.minNotional)) {
      if (venue === 'spot') throw new BinanceApiError(400, -1013, 'Filter failure: NOTIONAL');
      throw new BinanceApiError(
        400,
        -4164,
        `Order's notional must be no smaller than ${market.spec.minNotional} (unless you choose reduce only).`,
      );
    }

    const now = Date.now();
    const order: OrderState = {
      venue,
      orderId: this.nextOrderId++,
      clientOrderId,
      apiKey: account.apiKey,
      symbol: market.id,
      side,
      type,
      timeInForce: (params.get('timeInForce') as OrderState['timeInForce'] | null) ?? 'GTC',
      price,
      stopPrice,
      isWorking: !stopLossLimit,
      workingTime: stopLossLimit ? -1 : now,
      origQty: qty,
      executedQty: new Decimal(0),
      cumQuote: new Decimal(0),
      status: 'NEW',
      reduceOnly,
      time: now,
      updateTime: now,
      locked: new Decimal(0),
    };

    // The walk this taker would do, to check funds before anything changes (a stop waiting takes nothing yet).
    const plan = order.isWorking ? this.planTake(order, market) : [];
    if (venue === 'spot') this.reserveSpot(account, market, order, plan);
    else this.checkFutures(account, market, order, plan);

    this.orders.set(order.orderId, order);
    const fills: TradeState[] = [];
    for (const step of plan) {
      fills.push(...this.fill(order, step.price, step.qty, false, step.maker));
    }
    if (order.status === 'NEW' || order.status === 'PARTIALLY_FILLED') {
      if (order.type === 'MARKET' || order.timeInForce !== 'GTC') {
        this.finish(order, 'EXPIRED');
      } else if (venue === 'futures') {
        const remaining = order.origQty.minus(order.executedQty);
        if (!order.reduceOnly) {
          account.orderMargin.set(
            order.orderId,
            remaining.times(order.price).div(this.leverageOf(account, order.symbol)),
          );
        }
      }
    }
    const view = this.orderView(order);
    if (venue === 'futures') return view;
    const responseType = params.get('newOrderRespType') ?? 'FULL';
    if (responseType === 'ACK') {
      return {
        symbol: order.symbol,
        orderId: order.orderId,
        orderListId: -1,
        clientOrderId,
        transactTime: now,
      };
    }
    const result = {
      symbol: order.symbol,
      orderId: order.orderId,
      orderListId: -1,
      clientOrderId,
      transactTime: now,
      price: dp(order.price),
      origQty: dp(order.origQty),
      executedQty: dp(order.executedQty),
      origQuoteOrderQty: quoteOrderQty ? dp(new Decimal(quoteOrderQty)) : '0.00000000',
      cummulativeQuoteQty: dp(order.cumQuote),
      status: order.status,
      timeInForce: order.timeInForce,
      type: order.type,
      side: order.side,
      ...(stopLossLimit ? { stopPrice: dp(order.stopPrice) } : {}),
      workingTime: order.workingTime,
      selfTradePreventionMode: 'EXPIRE_MAKER',
    };
    if (responseType === 'RESULT') return result;
    return {
      ...result,
      fills: fills.map((trade) => ({
        price: dp(trade.price),
        qty: dp(trade.qty),
        commission: dp(trade.commission),
        commissionAsset: trade.commissionAsset,
        tradeId: trade.id,
      })),
    };
  }

  /** Base quantity a quote amount buys walking the asks, rounded down to the step. */
  private quantityForQuote(market: MarketState, quote: Decimal, step: Decimal): Decimal {
    let remaining = quote;
    let qty = new Decimal(0);
    for (const level of this.liquidity('spot', market, 'BUY')) {
      const cost = level.price.times(level.qty);
      if (cost.gte(remaining)) {
        qty = qty.plus(remaining.div(level.price));
        remaining = new Decimal(0);
        break;
      }
      qty = qty.plus(level.qty);
      remaining = remaining.minus(cost);
    }
    return qty.div(step).floor().times(step);
  }

  private planTake(order: OrderState, market: MarketState) {
    const plan: Array<{ price: Decimal; qty: Decimal; maker: OrderState | null }> = [];
    let remaining = order.origQty;
    for (const level of this.liquidity(order.venue, market, order.side, order.apiKey)) {
      if (remaining.isZero()) break;
      if (order.type !== 'MARKET') {
        const acceptable = order.side === 'BUY' ? level.price.lte(order.price) : level.price.gte(order.price);
        if (!acceptable) break;
      }
      const qty = Decimal.min(remaining, level.qty);
      plan.push({ price: level.price, qty, maker: level.maker });
      remaining = remaining.minus(qty);
    }
    return plan;
  }

  /** Spot: refuses (-2010) without the funds, then locks what the order may spend. */
  private reserveSpot(
    account: Account,
    market: MarketState,
    order: OrderState,
    plan: Array<{ price: Decimal; qty: Decimal }>,
  ): void {
    const insufficient = () =>
      new BinanceApiError(400, -2010, 'Account has insufficient balance for requested action.');
    if (order.side === 'BUY') {
      const quote = this.balanceOf(account, market.spec.quote);
      const needed =
        order.type !== 'MARKET'
          ? order.origQty.times(order.price)
          : plan.reduce((total, step) => total.plus(step.price.times(step.qty)), new Decimal(0));
      if (quote.free.lt(needed)) throw insufficient();
      quote.free = quote.free.minus(needed);
      quote.locked = quote.locked.plus(needed);
      order.locked = needed;
    } else {
      const base = this.balanceOf(account, market.spec.base);
      if (base.free.lt(order.origQty)) throw insufficient();
      base.free = base.free.minus(order.origQty);
      base.locked = base.locked.plus(order.origQty);
      order.locked = order.origQty;
    }
  }

  /** Futures: reduce-only must shrink the position; new exposure needs initial margin. */
  private checkFutures(
    account: Account,
    market: MarketState,
    order: OrderState,
    plan: Array<{ price: Decimal; qty: Decimal }>,
  ): void {
    const position = account.positions.get(market.id)?.amount ?? new Decimal(0);
    const signed = order.side === 'BUY' ? order.origQty : order.origQty.neg();
    if (order.reduceOnly) {
      const reduces =
        !position.isZero() && position.isNeg() !== signed.isNeg() && order.origQty.lte(position.abs());
      if (!reduces) throw new BinanceApiError(400, -2022, 'ReduceOnly Order is rejected.');
      return;
    }
    const opening =
      position.isNeg() === signed.isNeg() || position.isZero()
        ? order.origQty
        : Decimal.max(0, order.origQty.minus(position.abs()));
    const price =
      order.type === 'LIMIT' ? order.price : plan.length > 0 ? plan[plan.length - 1]!.price : market.price;
    const margin = opening.times(price).div(this.leverageOf(account, market.id));
    const fee = order.origQty.times(price).times(FUTURES_TAKER_FEE);
    if (this.futuresAvailable(account).lt(margin.plus(fee))) {
      throw new BinanceApiError(400, -2019, 'Margin is insufficient.');
    }
  }

  /** Executes `qty` of `order` at `price`; settles balances/positions and the maker side, if any. */
  private fill(
    order: OrderState,
    price: Decimal,
    qty: Decimal,
    isMaker: boolean,
    counterparty: OrderState | null = null,
  ): TradeState[] {
    if (qty.lte(0)) return [];
    const trade = this.execute(order, price, qty, isMaker);
    if (counterparty) this.execute(counterparty, price, qty, true);
    return [trade];
  }

  /** A spot commission in BNB when the account pays fees in BNB and holds enough of it; null otherwise. */
  private bnbFee(account: Account, market: MarketState, quoteQty: Decimal, isMaker: boolean): Decimal | null {
    if (!account.spotBnbBurn || market.spec.base === 'BNB') return null;
    const bnbMarket = this.markets.get(`BNB${market.spec.quote}`);
    if (!bnbMarket) return null;
    const rate = (isMaker ? SPOT_MAKER_FEE : SPOT_TAKER_FEE).times(BNB_FEE_DISCOUNT);
    const fee = quoteQty.times(rate).div(bnbMarket.price).toDecimalPlaces(8, Decimal.ROUND_UP);
    return this.balanceOf(account, 'BNB').free.gte(fee) ? fee : null;
  }

  private execute(order: OrderState, price: Decimal, qty: Decimal, isMaker: boolean): TradeState {
    const account = this.accounts.get(order.apiKey)!;
    const market = this.markets.get(order.symbol)!;
    const quoteQty = price.times(qty);
    const now = Date.now();
    let commission: Decimal;
    let commissionAsset: string;
    let realizedPnl = new Decimal(0);

    const bnb = order.venue === 'spot' ? this.bnbFee(account, market, quoteQty, isMaker) : null;
    if (order.venue === 'spot' && bnb) {
      // Paid in BNB: the traded assets move whole.
      commission = bnb;
      commissionAsset = 'BNB';
      const base = this.balanceOf(account, market.spec.base);
      const quote = this.balanceOf(account, market.spec.quote);
      this.balanceOf(account, 'BNB').free = this.balanceOf(account, 'BNB').free.minus(bnb);
      if (order.side === 'BUY') {
        quote.locked = quote.locked.minus(quoteQty);
        order.locked = order.locked.minus(quoteQty);
        base.free = base.free.plus(qty);
      } else {
        base.locked = base.locked.minus(qty);
        order.locked = order.locked.minus(qty);
        quote.free = quote.free.plus(quoteQty);
      }
    } else if (order.venue === 'spot') {
      const rate = isMaker ? SPOT_MAKER_FEE : SPOT_TAKER_FEE;
      const base = this.balanceOf(account, market.spec.base);
      const quote = this.balanceOf(account, market.spec.quote);
      if (order.side === 'BUY') {
        // Binance takes the commission from the asset received.
        commission = qty.times(rate).toDecimalPlaces(8, Decimal.ROUND_UP);
        commissionAsset = market.spec.base;
        const spent = quoteQty;
        quote.locked = quote.locked.minus(spent);
        order.locked = order.locked.minus(spent);
        base.free = base.free.plus(qty).minus(commission);
      } else {
        commission = quoteQty.times(rate).toDecimalPlaces(8, Decimal.ROUND_UP);
        commissionAsset = market.spec.quote;
        base.locked = base.locked.minus(qty);
        order.locked = order.locked.minus(qty);
        quote.free = quote.free.plus(quoteQty).minus(commission);
      }
    } else {
      const rate = isMaker ? FUTURES_MAKER_FEE : FUTURES_TAKER_FEE;
      commission = quoteQty.times(rate).toDecimalPlaces(8, Decimal.ROUND_UP);
      commissionAsset = 'USDT';
      const position = account.positions.get(order.symbol) ?? {
        amount: new Decimal(0),
        entryPrice: new Decimal(0),
        updateTime: now,
      };
      const signed = order.side === 'BUY' ? qty : qty.neg();
      if (position.amount.isZero() || position.amount.isNeg() === signed.isNeg()) {
        const newAmount = position.amount.plus(signed);
        position.entryPrice = position.entryPrice
          .times(position.amount.abs())
          .plus(price.times(qty))
          .div(newAmount.abs());
        position.amount = newAmount;
      } else {
        const closing = Decimal.min(qty, position.amount.abs());
        const direction = position.amount.isNeg() ? -1 : 1;
        realizedPnl = price.minus(position.entryPrice).times(closing).times(direction);
        const rest = qty.minus(closing);
        position.amount = position.amount.plus(signed);
        if (position.amount.isZero()) position.entryPrice = new Decimal(0);
        else if (rest.gt(0)) position.entryPrice = price;
      }
      position.updateTime = now;
      account.positions.set(order.symbol, position);
      account.futuresWallet = account.futuresWallet.plus(realizedPnl).minus(commission);
    }

    order.executedQty = order.executedQty.plus(qty);
    order.cumQuote = order.cumQuote.plus(quoteQty);
    order.updateTime = now;
    if (order.executedQty.gte(order.origQty)) this.finish(order, 'FILLED');
    else order.status = 'PARTIALLY_FILLED';

    const trade: TradeState = {
      venue: order.venue,
      id: this.nextTradeId++,
      orderId: order.orderId,
      apiKey: order.apiKey,
      symbol: order.symbol,
      side: order.side,
      price,
      qty,
      quoteQty,
      commission,
      commissionAsset,
      realizedPnl,
      maker: isMaker,
      time: now,
    };
    this.trades.push(trade);
    if (order.venue === 'futures') {
      const tradeId = String(trade.id);
      if (!realizedPnl.isZero()) {
        this.recordIncome(order.apiKey, order.symbol, 'REALIZED_PNL', realizedPnl, now, tradeId);
      }
      this.recordIncome(order.apiKey, order.symbol, 'COMMISSION', commission.neg(), now, tradeId);
    }
    return trade;
  }

  /** Terminal status: releases whatever the order still locks. */
  private finish(order: OrderState, status: BinanceStatus): void {
    order.status = status;
    order.updateTime = Date.now();
    const account = this.accounts.get(order.apiKey)!;
    account.orderMargin.delete(order.orderId);
    if (order.venue === 'spot' && order.locked.gt(0)) {
      const market = this.markets.get(order.symbol)!;
      const balance = this.balanceOf(account, order.side === 'BUY' ? market.spec.quote : market.spec.base);
      balance.locked = balance.locked.minus(order.locked);
      balance.free = balance.free.plus(order.locked);
      order.locked = new Decimal(0);
    }
  }

  private findOrder(venue: Venue, account: Account, params: URLSearchParams): OrderState {
    const orderId = params.get('orderId');
    const clientOrderId = params.get('origClientOrderId');
    if (!orderId && !clientOrderId) {
      throw new BinanceApiError(
        400,
        -1102,
        "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!",
      );
    }
    const symbol = params.get('symbol');
    const candidates = [...this.orders.values()].filter(
      (order) =>
        order.venue === venue &&
        order.apiKey === account.apiKey &&
        order.symbol === symbol &&
        (orderId ? String(order.orderId) === orderId : order.clientOrderId === clientOrderId),
    );
    const order = candidates[candidates.length - 1];
    if (!order) throw new BinanceApiError(400, -2013, 'Order does not exist.');
    return order;
  }

  private cancelOrder(venue: Venue, account: Account, params: URLSearchParams) {
    let order: OrderState;
    try {
      order = this.findOrder(venue, account, params);
    } catch (error) {
      if (error instanceof BinanceApiError && error.binanceCode === -2013) {
        throw new BinanceApiError(400, -2011, 'Unknown order sent.');
      }
      throw error;
    }
    if (order.status !== 'NEW' && order.status !== 'PARTIALLY_FILLED') {
      throw new BinanceApiError(400, -2011, 'Unknown order sent.');
    }
    this.finish(order, 'CANCELED');
    const view = this.orderView(order);
    if (venue === 'futures') return view;
    return {
      symbol: order.symbol,
      origClientOrderId: order.clientOrderId,
      orderId: order.orderId,
      orderListId: -1,
      // Binance answers a cancel with a fresh client id for the cancel request itself.
      clientOrderId: params.get('newClientOrderId') ?? `cancel${randomBytes(8).toString('hex')}`,
      transactTime: Date.now(),
      price: dp(order.price),
      origQty: dp(order.origQty),
      executedQty: dp(order.executedQty),
      origQuoteOrderQty: '0.00000000',
      cummulativeQuoteQty: dp(order.cumQuote),
      status: order.status,
      timeInForce: order.timeInForce,
      type: order.type,
      side: order.side,
      selfTradePreventionMode: 'EXPIRE_MAKER',
    };
  }

  private orderView(order: OrderState) {
    if (order.venue === 'futures') {
      const average = order.executedQty.gt(0) ? order.cumQuote.div(order.executedQty) : new Decimal(0);
      return {
        orderId: order.orderId,
        symbol: order.symbol,
        status: order.status,
        clientOrderId: order.clientOrderId,
        price: order.price.toFixed(),
        avgPrice: average.toFixed(),
        origQty: order.origQty.toFixed(),
        executedQty: order.executedQty.toFixed(),
        cumQty: order.executedQty.toFixed(),
        cumQuote: order.cumQuote.toFixed(),
        timeInForce: order.timeInForce,
        type: order.type,
        reduceOnly: order.reduceOnly,
        closePosition: false,
        side: order.side,
        positionSide: 'BOTH',
        stopPrice: '0',
        workingType: 'CONTRACT_PRICE',
        priceProtect: false,
        origType: order.type,
        priceMatch: 'NONE',
        selfTradePreventionMode: 'NONE',
        goodTillDate: 0,
        time: order.time,
        updateTime: order.updateTime,
      };
    }
    return {
      symbol: order.symbol,
      orderId: order.orderId,
      orderListId: -1,
      clientOrderId: order.clientOrderId,
      price: dp(order.price),
      origQty: dp(order.origQty),
      executedQty: dp(order.executedQty),
      cummulativeQuoteQty: dp(order.cumQuote),
      status: order.status,
      timeInForce: order.timeInForce,
      type: order.type,
      side: order.side,
      stopPrice: dp(order.stopPrice),
      icebergQty: '0.00000000',
      time: order.time,
      updateTime: order.updateTime,
      isWorking: order.isWorking,
      workingTime: order.workingTime,
      origQuoteOrderQty: '0.00000000',
      selfTradePreventionMode: 'EXPIRE_MAKER',
    };
  }

  private listOrders(venue: Venue, account: Account, symbol: string | null, openOnly: boolean) {
    if (symbol) this.requireMarket(symbol);
    return [...this.orders.values()]
      .filter(
        (order) =>
          order.venue === venue &&
          order.apiKey === account.apiKey &&
          (symbol === null || order.symbol === symbol) &&
          (!openOnly || order.status === 'NEW' || order.status === 'PARTIALLY_FILLED'),
      )
      .map((order) => this.orderView(order));
  }

  /**
   * A STOP_LOSS_LIMIT the last price reached starts working (`isWorking`, same orderId): it takes the book at
   * its limit or better as a taker, and rests for the rest (its coins were locked since its placement).
   */
  private triggerStopLossLimit(order: OrderState, market: MarketState): void {
    const reached =
      order.side === 'SELL' ? market.price.lte(order.stopPrice) : market.price.gte(order.stopPrice);
    if (!reached) return;
    order.isWorking = true;
    order.workingTime = Date.now();
    order.updateTime = order.workingTime;
    for (const step of this.planTake(order, market))
      this.fill(order, step.price, step.qty, false, step.maker);
  }

  // ---- Algo Service: conditional orders (USDⓈ-M) ----------------------------------------------------------

  /**
   * POST /fapi/v1/algoOrder, algoType=CONDITIONAL: STOP_MARKET and TAKE_PROFIT_MARKET. The trigger watches the
   * server's last price whatever `workingType` says (this server has no separate mark price). No margin is
   * checked until the order triggers, as Binance documents for the Algo Service.
   */
  private placeAlgoOrder(account: Account, params: URLSearchParams) {
    const market = this.requireMarket(params.get('symbol'));
    const mandatory = (name: string) =>
      new BinanceApiError(
        400,
        -1102,
        `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`,
      );
    const algoType = params.get('algoType');
    if (!algoType) throw mandatory('algoType');
    if (algoType !== 'CONDITIONAL') {
      throw new BinanceApiError(400, -1130, "Data sent for parameter 'algoType' is not valid.");
    }
    const side = params.get('side');
    if (side !== 'BUY' && side !== 'SELL') throw new BinanceApiError(400, -1117, 'Invalid side.');
    const orderType = params.get('type');
    if (!orderType) throw mandatory('type');
    if (orderType !== 'STOP_MARKET' && orderType !== 'TAKE_PROFIT_MARKET') {
      // STOP, TAKE_PROFIT and TRAILING_STOP_MARKET exist on Binance; this server does not model them.
      throw new BinanceApiError(400, -1116, 'Invalid orderType.');
    }
    const positionSide = params.get('positionSide') ?? 'BOTH';
    if ((positionSide === 'BOTH') === account.dualSidePosition) {
      throw new BinanceApiError(400, -4061, "Order's position side does not match user's setting.");
    }
    const reduceOnly = params.get('reduceOnly') === 'true';
    const closePosition = params.get('closePosition') === 'true';
    if (reduceOnly && (account.dualSidePosition || closePosition)) {
      // Binance: reduceOnly "Cannot be sent in Hedge Mode; cannot be sent with closePosition=true".
      throw new BinanceApiError(400, -1106, "Parameter 'reduceOnly' sent when not required.");
    }
    const workingType = params.get('workingType') ?? 'CONTRACT_PRICE';
    if (workingType !== 'MARK_PRICE' && workingType !== 'CONTRACT_PRICE') {
      throw new BinanceApiError(400, -4031, 'Invalid workingType.');
    }
    const clientAlgoId = params.get('clientAlgoId') ?? randomBytes(11).toString('hex');
    if (!/^[.A-Z:/a-z0-9_-]{1,36}$/.test(clientAlgoId)) {
      throw new BinanceApiError(400, -4015, 'Client order id is not valid.');
    }
    // "A unique id among open orders."
    const duplicate = [...this.algoOrders.values()].some(
      (a) => a.apiKey === account.apiKey && a.clientAlgoId === clientAlgoId && a.algoStatus === 'NEW',
    );
    if (duplicate) throw new BinanceApiError(400, -4116, 'ClientOrderId is duplicated.');

    const rawTrigger = params.get('triggerPrice');
    if (!rawTrigger) throw mandatory('triggerPrice');
    const triggerPrice = new Decimal(rawTrigger);
    if (triggerPrice.lte(0)) throw new BinanceApiError(400, -4006, 'Stop price less than zero.');
    if (!isMultiple(triggerPrice, new Decimal(market.spec.tickSize))) {
      throw new BinanceApiError(400, -4014, 'Price not increased by tick size.');
    }
    let quantity: Decimal | null = null;
    if (closePosition) {
      if (params.get('quantity')) {
        throw new BinanceApiError(400, -4137, 'Quantity must be zero with closePosition equals true');
      }
    } else {
      if (!params.get('quantity')) throw mandatory('quantity');
      quantity = new Decimal(params.get('quantity')!);
      if (
        quantity.lte(0) ||
        quantity.lt(market.spec.minQty) ||
        !isMultiple(quantity, new Decimal(market.spec.stepSize))
      ) {
        throw new BinanceApiError(400, -1013, 'Filter failure: LOT_SIZE');
      }
    }
    if (this.algoWouldTrigger(side, orderType, triggerPrice, market.price)) {
      throw new BinanceApiError(400, -2021, 'Order would immediately trigger.');
    }
    if (reduceOnly && this.algoCloses(account, market.id, side).isZero()) {
      throw new BinanceApiError(400, -2022, 'ReduceOnly Order is rejected.');
    }

    const now = Date.now();
    const algo: AlgoOrderState = {
      algoId: this.nextAlgoId++,
      clientAlgoId,
      apiKey: account.apiKey,
      symbol: market.id,
      side,
      positionSide,
      orderType,
      quantity,
      triggerPrice,
      workingType,
      reduceOnly,
      closePosition,
      priceProtect: params.get('priceProtect')?.toLowerCase() === 'true',
      algoStatus: 'NEW',
      actualOrderId: null,
      createTime: now,
      updateTime: now,
      triggerTime: 0,
    };
    this.algoOrders.set(algo.algoId, algo);
    // The New Algo Order answer has no actual* fields (the order has not triggered).
    return this.algoOrderView(algo, { placed: true });
  }

  /** STOP: BUY when the price rises to the trigger, SELL when it falls to it; TAKE_PROFIT the other way. */
  private algoWouldTrigger(side: Side, orderType: string, trigger: Decimal, price: Decimal): boolean {
    const rising = (side === 'BUY') === (orderType === 'STOP_MARKET');
    return rising ? price.gte(trigger) : price.lte(trigger);
  }

  /** How much of the position an order on `side` can close: the opposite position's size, else 0. */
  private algoCloses(account: Account, symbol: string, side: Side): Decimal {
    const position = account.positions.get(symbol)?.amount ?? new Decimal(0);
    const opposite = side === 'BUY' ? position.isNeg() : position.isPos();
    return opposite ? position.abs() : new Decimal(0);
  }

  /**
   * Called on every price move: each waiting conditional order whose condition holds becomes a MARKET order in
   * the matching engine (its own orderId, `actualOrderId` on the algo order), filled like any market order.
   * Reduce-only and close-all orders are capped to the position; with nothing left to close the algo order is
   * EXPIRED by the system; an order the matching engine refuses leaves it REJECTED.
   */
  private triggerAlgoOrders(market: MarketState): void {
    for (const algo of [...this.algoOrders.values()]) {
      if (algo.symbol !== market.id || algo.algoStatus !== 'NEW') continue;
      if (!this.algoWouldTrigger(algo.side, algo.orderType, algo.triggerPrice, market.price)) continue;
      const account = this.accounts.get(algo.apiKey)!;
      const now = Date.now();
      algo.triggerTime = now;
      algo.updateTime = now;
      let quantity = algo.quantity;
      if (algo.reduceOnly || algo.closePosition) {
        const closable = this.algoCloses(account, algo.symbol, algo.side);
        quantity = quantity ? Decimal.min(quantity, closable) : closable;
      }
      if (!quantity || quantity.isZero()) {
        algo.algoStatus = 'EXPIRED';
        continue;
      }
      algo.algoStatus = 'TRIGGERING';
      const request = new URLSearchParams({
        symbol: algo.symbol,
        side: algo.side,
        type: 'MARKET',
        quantity: quantity.toFixed(),
        positionSide: algo.positionSide,
        newClientOrderId: `algo_${algo.algoId}_${randomBytes(6).toString('hex')}`,
      });
      if (algo.reduceOnly || algo.closePosition) request.set('reduceOnly', 'true');
      try {
        const placed = this.placeOrder('futures', account, request) as { orderId: number; status: string };
        algo.actualOrderId = placed.orderId;
        algo.algoStatus =
          placed.status === 'NEW' || placed.status === 'PARTIALLY_FILLED' ? 'TRIGGERED' : 'FINISHED';
      } catch (error) {
        if (!(error instanceof BinanceApiError)) throw error;
        algo.algoStatus = 'REJECTED';
      }
    }
  }

  /** GET /fapi/v1/algoOrder: by algoId or clientAlgoId (the latest with it); -2013 when there is none. */
  private findAlgoOrder(account: Account, params: URLSearchParams): AlgoOrderState {
    const algoId = params.get('algoId');
    const clientAlgoId = params.get('clientAlgoId');
    if (!algoId && !clientAlgoId) {
      throw new BinanceApiError(
        400,
        -1102,
        "Param 'clientAlgoId' or 'algoId' must be sent, but both were empty/null!",
      );
    }
    const found = [...this.algoOrders.values()]
      .filter(
        (a) =>
          a.apiKey === account.apiKey &&
          (algoId ? String(a.algoId) === algoId : a.clientAlgoId === clientAlgoId),
      )
      .at(-1);
    if (!found) throw new BinanceApiError(400, -2013, 'Order does not exist.');
    return found;
  }

  /** DELETE /fapi/v1/algoOrder: only a waiting order can be cancelled (-2011 otherwise). */
  private cancelAlgoOrder(account: Account, params: URLSearchParams) {
    let algo: AlgoOrderState;
    try {
      algo = this.findAlgoOrder(account, params);
    } catch (error) {
      if (error instanceof BinanceApiError && error.binanceCode === -2013) {
        throw new BinanceApiError(400, -2011, 'Unknown order sent.');
      }
      throw error;
    }
    if (algo.algoStatus !== 'NEW') throw new BinanceApiError(400, -2011, 'Unknown order sent.');
    algo.algoStatus = 'CANCELED';
    algo.updateTime = Date.now();
    return { algoId: algo.algoId, clientAlgoId: algo.clientAlgoId, code: '200', msg: 'success' };
  }

  /** GET /fapi/v1/openAlgoOrders (symbol optional) and /fapi/v1/allAlgoOrders (symbol, algoId ≥, time window). */
  private listAlgoOrders(account: Account, params: URLSearchParams, openOnly: boolean) {
    const symbol = params.get('symbol');
    if (symbol || !openOnly) this.requireMarket(symbol);
    const algoId = Number(params.get('algoId') ?? 0);
    const startTime = Number(params.get('startTime') ?? 0);
    const endTime = Number(params.get('endTime') ?? Number.MAX_SAFE_INTEGER);
    const limit = Number(params.get('limit') ?? 500);
    return [...this.algoOrders.values()]
      .filter(
        (a) =>
          a.apiKey === account.apiKey &&
          (symbol === null || a.symbol === symbol) &&
          (openOnly
            ? a.algoStatus === 'NEW'
            : a.algoId >= algoId && a.createTime >= startTime && a.createTime <= endTime),
      )
      .slice(0, limit)
      .map((a) => this.algoOrderView(a));
  }

  /** Query Algo Order's answer (Binance's documented example fields); New Algo Order's lacks actual*. */
  private algoOrderView(algo: AlgoOrderState, options: { placed?: boolean } = {}) {
    const actual = algo.actualOrderId === null ? undefined : this.orders.get(algo.actualOrderId);
    const average =
      actual && actual.executedQty.gt(0) ? actual.cumQuote.div(actual.executedQty) : new Decimal(0);
    const places = new Decimal(this.markets.get(algo.symbol)!.spec.tickSize).decimalPlaces();
    return {
      algoId: algo.algoId,
      clientAlgoId: algo.clientAlgoId,
      algoType: 'CONDITIONAL',
      orderType: algo.orderType,
      symbol: algo.symbol,
      side: algo.side,
      positionSide: algo.positionSide,
      timeInForce: 'GTC',
      quantity: (algo.quantity ?? new Decimal(0)).toFixed(),
      algoStatus: algo.algoStatus,
      ...(options.placed
        ? {}
        : {
            // Empty string until triggered, then the matching-engine order's id.
            actualOrderId: actual ? String(actual.orderId) : '',
            actualPrice: average.toFixed(5),
            ...(actual ? { actualType: actual.type } : {}),
            ...(actual && actual.executedQty.gt(0) ? { actualQty: actual.executedQty.toFixed() } : {}),
          }),
      triggerPrice: algo.triggerPrice.toFixed(places),
      price: new Decimal(0).toFixed(places),
      icebergQuantity: null,
      selfTradePreventionMode: 'EXPIRE_MAKER',
      workingType: algo.workingType,
      priceMatch: 'NONE',
      closePosition: algo.closePosition,
      priceProtect: algo.priceProtect,
      reduceOnly: algo.reduceOnly,
      createTime: algo.createTime,
      updateTime: algo.updateTime,
      triggerTime: algo.triggerTime,
      goodTillDate: 0,
    };
  }

  private listTrades(venue: Venue, account: Account, params: URLSearchParams) {
    const market = this.requireMarket(params.get('symbol'));
    const startTime = Number(params.get('startTime') ?? 0);
    const orderId = params.get('orderId');
    const limit = Number(params.get('limit') ?? 500);
    return this.trades
      .filter(
        (trade) =>
          trade.venue === venue &&
          trade.apiKey === account.apiKey &&
          trade.symbol === market.id &&
          trade.time >= startTime &&
          (orderId === null || String(trade.orderId) === orderId),
      )
      .slice(0, limit)
      .map((trade) =>
        venue === 'spot'
          ? {
              symbol: trade.symbol,
              id: trade.id,
              orderId: trade.orderId,
              orderListId: -1,
              price: dp(trade.price),
              qty: dp(trade.qty),
              quoteQty: dp(trade.quoteQty),
              commission: dp(trade.commission),
              commissionAsset: trade.commissionAsset,
              time: trade.time,
              isBuyer: trade.side === 'BUY',
              isMaker: trade.maker,
              isBestMatch: true,
            }
          : {
              symbol: trade.symbol,
              id: trade.id,
              orderId: trade.orderId,
              side: trade.side,
              price: trade.price.toFixed(),
              qty: trade.qty.toFixed(),
              realizedPnl: trade.realizedPnl.toFixed(),
              marginAsset: 'USDT',
              quoteQty: trade.quoteQty.toFixed(),
              commission: trade.commission.toFixed(),
              commissionAsset: trade.commissionAsset,
              time: trade.time,
              positionSide: 'BOTH',
              maker: trade.maker,
              buyer: trade.side === 'BUY',
            },
      );
  }

  // ---- USDⓈ-M funding and income ---------------------------------------------------------------------------

  private recordIncome(
    apiKey: string,
    symbol: string,
    incomeType: IncomeState['incomeType'],
    income: Decimal,
    time: number,
    tradeId: string,
  ): void {
    this.incomes.push({ tranId: this.nextTranId++, apiKey, symbol, incomeType, income, time, tradeId });
  }

  /** GET /fapi/v1/premiumIndex: one symbol's object, or every symbol's in an array. */
  private premiumIndex(symbol: string | null) {
    const view = (market: MarketState) => {
      const now = Date.now();
      return {
        symbol: market.id,
        markPrice: dp(market.price),
        indexPrice: dp(market.price),
        estimatedSettlePrice: dp(market.price),
        lastFundingRate: dp(this.fundingRates.get(market.id) ?? DEFAULT_FUNDING_RATE),
        interestRate: '0.00010000',
        nextFundingTime: (Math.floor(now / FUNDING_INTERVAL_MS) + 1) * FUNDING_INTERVAL_MS,
        time: now,
      };
    };
    return symbol ? view(this.requireMarket(symbol)) : [...this.markets.values()].map(view);
  }

  /**
   * GET /fapi/v1/income: the account's rows by symbol and incomeType (every type when absent), oldest first.
   * startTime and endTime are inclusive; with neither, the last 7 days. `limit` (default 100, at most 1000)
   * rows counted from startTime when it is sent, else the latest ones; `page` (from 1) the next ones.
   */
  private incomeHistory(account: Account, params: URLSearchParams) {
    const symbol = params.get('symbol');
    if (symbol) this.requireMarket(symbol);
    const incomeType = params.get('incomeType');
    const start = params.get('startTime') ? Number(params.get('startTime')) : null;
    const end = params.get('endTime') ? Number(params.get('endTime')) : null;
    const from = start ?? (end === null ? Date.now() - 7 * 86_400_000 : 0);
    const to = end ?? Number.MAX_SAFE_INTEGER;
    const limit = Math.min(Number(params.get('limit') ?? 100), 1000);
    const page = Math.max(Math.floor(Number(params.get('page') ?? 1)) || 1, 1);
    if (!Number.isInteger(limit) || limit < 1) {
      throw new BinanceApiError(400, -1130, "Data sent for parameter 'limit' is not valid.");
    }
    const rows = this.incomes
      .filter(
        (row) =>
          row.apiKey === account.apiKey &&
          (symbol === null || row.symbol === symbol) &&
          (incomeType === null || row.incomeType === incomeType) &&
          row.time >= from &&
          row.time <= to,
      )
      .sort((a, b) => a.time - b.time || a.tranId - b.tranId);
    const chosen =
      start !== null
        ? rows.slice((page - 1) * limit, page * limit)
        : rows.slice(Math.max(0, rows.length - page * limit), Math.max(0, rows.length - (page - 1) * limit));
    return chosen.map((row) => ({
      symbol: row.symbol,
      incomeType: row.incomeType,
      income: dp(row.income),
      asset: 'USDT',
      info: row.incomeType,
      time: row.time,
      tranId: row.tranId,
      tradeId: row.tradeId,
    }));
  }
}
