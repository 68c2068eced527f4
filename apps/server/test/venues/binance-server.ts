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
 * `setPrice`). Test hooks also inject 429/418 answers with Retry-After and delay responses after the request
 * was processed (a timeout after the venue accepted an order).
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
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
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
}

interface OrderState {
  venue: Venue;
  orderId: number;
  clientOrderId: string;
  apiKey: string;
  symbol: string;
  side: Side;
  type: 'LIMIT' | 'MARKET';
  timeInForce: 'GTC' | 'IOC' | 'FOK';
  price: Decimal; // 0 for market
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
const FUTURES_TAKER_FEE = new Decimal('0.0004');
const FUTURES_MAKER_FEE = new Decimal('0.0002');
const SYNTHETIC_LEVELS = 20;
const DEFAULT_LEVERAGE = 20;

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
  readonly requests: RecordedRequest[] = [];
  private server: Server | null = null;
  private originUrl = '';
  private readonly markets = new Map<string, MarketState>();
  private readonly accounts = new Map<string, Account>();
  private readonly orders = new Map<number, OrderState>();
  private readonly trades: TradeState[] = [];
  private nextOrderId = 100_000;
  private nextTradeId = 500_000;
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

  /** For `CcxtGateway`'s `urlsOverride`: every ccxt api entry keeps its path, on this server's origin. */
  urlsOverride(): Record<string, string> {
    return { '*': this.originUrl };
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

  futuresWallet(apiKey: string): string {
    return (this.accounts.get(apiKey)?.futuresWallet ?? new Decimal(0)).toFixed();
  }

  /** Moves the last price; resting limit orders the price went through fill (as makers) at their price. */
  setPrice(symbol: string, price: string): void {
    const market = this.requireMarket(symbol);
    market.price = new Decimal(price);
    market.history.push({ time: Date.now(), price: market.price });
    for (const order of [...this.orders.values()]) {
      if (order.symbol !== symbol || (order.status !== 'NEW' && order.status !== 'PARTIALLY_FILLED'))
        continue;
      const crossed = order.side === 'BUY' ? market.price.lte(order.price) : market.price.gte(order.price);
      if (crossed) this.fill(order, order.price, order.origQty.minus(order.executedQty), true);
    }
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
    this.requests.push({ method, path, query: rawQuery, status, apiKey, receivedAt });
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
          return { serverTime: Date.now() };
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
          return { serverTime: Date.now() };
        case 'GET exchangeInfo':
          return this.futuresExchangeInfo();
        case 'GET ticker/24hr':
          return this.ticker24hr(this.requireMarket(params.get('symbol')), 2);
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
    const now = Date.now();
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
      enableFutures: true,
      permitsUniversalTransfer: false,
      enableVanillaOptions: false,
      enableFixApiTrade: false,
      enableFixReadOnly: false,
      enableSpotAndMarginTrading: true,
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
    if (type !== 'LIMIT' && type !== 'MARKET') throw new BinanceApiError(400, -1116, 'Invalid orderType.');
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

    const tick = new Decimal(market.spec.tickSize);
    const step = new Decimal(market.spec.stepSize);
    const quoteOrderQty = params.get('quoteOrderQty');
    let qty: Decimal | null = params.get('quantity') ? new Decimal(params.get('quantity')!) : null;
    let price = new Decimal(0);
    if (type === 'LIMIT') {
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
    const referencePrice = type === 'LIMIT' ? price : market.price;
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
      origQty: qty,
      executedQty: new Decimal(0),
      cumQuote: new Decimal(0),
      status: 'NEW',
      reduceOnly,
      time: now,
      updateTime: now,
      locked: new Decimal(0),
    };

    // The walk this taker would do, to check funds before anything changes.
    const plan = this.planTake(order, market);
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
      workingTime: now,
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
      if (order.type === 'LIMIT') {
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
        order.type === 'LIMIT'
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

  private execute(order: OrderState, price: Decimal, qty: Decimal, isMaker: boolean): TradeState {
    const account = this.accounts.get(order.apiKey)!;
    const market = this.markets.get(order.symbol)!;
    const quoteQty = price.times(qty);
    const now = Date.now();
    let commission: Decimal;
    let commissionAsset: string;
    let realizedPnl = new Decimal(0);

    if (order.venue === 'spot') {
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
      stopPrice: '0.00000000',
      icebergQty: '0.00000000',
      time: order.time,
      updateTime: order.updateTime,
      isWorking: true,
      workingTime: order.time,
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
}
