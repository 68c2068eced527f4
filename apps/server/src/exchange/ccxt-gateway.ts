import { clientOrderIdFromHex, clientOrderIdToHex } from '@kairos/core';
import ccxt from 'ccxt';
import type { Exchange, MarketInterface as CcxtMarket, Order as CcxtOrder, Trade as CcxtTrade } from 'ccxt';
import { capabilitiesFor, type ExchangeCapabilities, type VenueStopsCapability } from './capabilities';
import { CcxtVenueStops } from './ccxt-venue-stops';
import {
  kairosSymbol,
  toBalances,
  toCandle,
  toFill,
  toFundingPayment,
  toMarket,
  toOrder,
  toOrderBook,
  toPosition,
  toTicker,
} from './ccxt-normalize';
import { Decimal, dec } from './decimal';
import {
  ClockSkewError,
  DEFAULT_READ_RETRY,
  ExchangeGatewayError,
  InvalidOrderError,
  OrderNotFoundError,
  UnknownSymbolError,
  UnsupportedOperationError,
  translateCcxtError,
  venueWords,
  withRetry,
  type RetryOptions,
} from './errors';
import type {
  AccountMarketType,
  ApiKeyPermissions,
  Balances,
  Candle,
  CreateOrderRequest,
  ExchangeGateway,
  Fill,
  FundingPayment,
  Market,
  MarginMode,
  Order,
  OrderBook,
  Position,
  Ticker,
  Timeframe,
  VenueStops,
} from './gateway';
import type { VenueUrl } from '../config';
import { sharedMarketCache, type MarketCache } from './market-cache';
import { isUrgent } from './urgency';
import { parseRetryAfter, venueKey, type VenueThrottle, type VenueThrottleRegistry } from './venue-throttle';

/** A venue's answer that the margin mode is already the one asked for. */
const MARGIN_MODE_ALREADY_SET = /-4046|No need to change margin type|110026|margin mode is not modified/i;

/** At most this many pages of the trade list are read for one order's fills (venues without an order filter). */
const ORDER_FILL_PAGES = 5;

export interface CcxtGatewayOptions {
  /** Any ccxt exchange id ('binance', 'bybit', …). */
  exchangeId: string;
  apiKey: string;
  secret: string;
  password?: string;
  sandbox?: boolean;
  marketType: AccountMarketType;
  /**
   * Where ccxt reaches this venue instead of its own hosts (KAIROS_VENUE_URLS' entry for it): an origin for
   * every `urls.api` entry, or an origin per ccxt API family (`public`, `fapiPrivate`, …; `*` for the rest).
   * Paths are kept: only the scheme and host change.
   */
  apiUrls?: VenueUrl;
  /** The shared registry: every gateway on a venue draws from the same throttle. */
  throttle: VenueThrottleRegistry;
  marketCache?: MarketCache;
  /** Per-request timeout (ms); ccxt's default is 10 s. */
  timeoutMs?: number;
  /** Retry policy for reads and for rate-limited writes; `retries: 0` disables retrying. */
  retry?: RetryOptions;
  /** Venue stops for this market type in place of the capability row's (a row not wired yet, in tests). */
  venueStops?: VenueStopsCapability;
}

type MarketsByKairosSymbol = Map<string, CcxtMarket>;

/** Calls the dynamically generated ccxt API method `name` (implicit API, e.g. sapiGetAccountApiRestrictions). */
function callImplicit(
  exchange: Exchange,
  name: string,
  params: Record<string, unknown> = {},
): Promise<unknown> {
  const method = (exchange as unknown as Record<string, unknown>)[name];
  if (typeof method !== 'function') {
    return Promise.reject(new UnsupportedOperationError(`${exchange.id} has no API method ${name}`));
  }
  return (method as (p: Record<string, unknown>) => Promise<unknown>).call(exchange, params);
}

function replaceOrigin(url: string, origin: string): string {
  const match = /^[a-z]+:\/\/[^/]+/i.exec(url);
  return match ? origin.replace(/\/$/, '') + url.slice(match[0].length) : url;
}

/** Walks `urls.api` (flat or nested) and moves every entry listed (or covered by `*`) to its new origin. */
function relocateApiUrls(
  api: Record<string, unknown>,
  origins: Record<string, string>,
  path: string[] = [],
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(api)) {
    const dotted = [...path, key].join('.');
    const target = origins[dotted] ?? origins[key] ?? origins['*'];
    if (typeof value === 'string') {
      result[key] = target === undefined ? value : replaceOrigin(value, target);
    } else if (value && typeof value === 'object') {
      const inner =
        target === undefined || origins[dotted] === undefined ? origins : { ...origins, '*': target };
      result[key] = relocateApiUrls(value as Record<string, unknown>, inner, [...path, key]);
    } else {
      result[key] = value;
    }
  }
  return result;
}

function firstUrl(api: unknown): string | null {
  if (typeof api === 'string') return api;
  if (api && typeof api === 'object') {
    for (const value of Object.values(api)) {
      const url = firstUrl(value);
      if (url) return url;
    }
  }
  return null;
}

function origin(url: string): string {
  const match = /^[a-z]+:\/\/[^/]+/i.exec(url);
  return match ? match[0] : url;
}

function headerValue(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== 'object') return undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return Array.isArray(value) ? String(value[0]) : String(value);
  }
  return undefined;
}

/**
 * `ExchangeGateway` over any ccxt exchange. Per-venue quirks come from the capability map; requests are
 * paced by the venue's shared throttle; markets come from the venue-wide cache; errors leave as domain errors.
 */
export class CcxtGateway implements ExchangeGateway {
  readonly exchangeId: string;
  readonly marketType: AccountMarketType;
  /**
   * Stop orders resting on the venue (issue 18), where the capability row has `venueStops` for this market
   * type (Binance USDⓈ-M: the Algo Service); null elsewhere.
   */
  readonly stops: VenueStops | null;
  readonly capabilities: ExchangeCapabilities;
  /** Identifies the egress: exchange id + sandbox flag + base URL. */
  readonly venueKey: string;
  private readonly exchange: Exchange;
  private readonly throttle: VenueThrottle;
  private readonly marketCache: MarketCache;
  private readonly retry: RetryOptions;
  private readonly marketsKey: string;
  private markets: MarketsByKairosSymbol | null = null;
  private clockResync: Promise<void> | null = null;
  /** Margin modes set per venue symbol (venues that take the mode with every order: OKX). */
  private readonly marginModes = new Map<string, MarginMode>();

  constructor(options: CcxtGatewayOptions) {
    const ExchangeClass = (ccxt as unknown as Record<string, unknown>)[options.exchangeId];
    if (typeof ExchangeClass !== 'function' || !ccxt.exchanges.includes(options.exchangeId)) {
      throw new UnsupportedOperationError(
        ...venueWords('UNSUPPORTED', { variant: 'unknownExchange', exchange: options.exchangeId }),
      );
    }
    const capabilities = capabilitiesFor(options.exchangeId);
    if (!capabilities.marketTypes.includes(options.marketType)) {
      throw new UnsupportedOperationError(
        ...venueWords('UNSUPPORTED', {
          variant: 'marketType',
          exchange: options.exchangeId,
          marketType: options.marketType,
        }),
      );
    }
    const sandboxMode = capabilities.sandbox[options.marketType];
    if (options.sandbox && !sandboxMode) {
      throw new UnsupportedOperationError(
        ...venueWords('UNSUPPORTED', {
          variant: 'noSandbox',
          exchange: options.exchangeId,
          marketType: options.marketType,
        }),
      );
    }
    this.exchangeId = options.exchangeId;
    this.marketType = options.marketType;
    this.capabilities = capabilities;
    this.marketCache = options.marketCache ?? sharedMarketCache;
    this.retry = options.retry ?? DEFAULT_READ_RETRY;

    const fetchMarketsTypes = capabilities.fetchMarketsTypes[options.marketType];
    const exchange = new (ExchangeClass as new (config: Record<string, unknown>) => Exchange)({
      apiKey: options.apiKey,
      secret: options.secret,
      password: options.password,
      enableRateLimit: true,
      timeout: options.timeoutMs ?? 10_000,
      options: {
        ...capabilities.options,
        // Signed calls carry the venue's time (host clock + the offset read at a clock-skew refusal).
        adjustForTimeDifference: true,
        // Start-up calls: no currencies, no margin pairs, only the market type this account trades.
        fetchCurrencies: false,
        fetchMargins: false,
        ...(fetchMarketsTypes ? { fetchMarkets: { types: fetchMarketsTypes } } : {}),
        defaultType: capabilities.defaultType[options.marketType],
      },
    });
    if (options.sandbox) {
      if (sandboxMode === 'demo') exchange.enableDemoTrading(true);
      else exchange.setSandboxMode(true);
    }
    if (options.apiUrls !== undefined) {
      exchange.urls['api'] = relocateApiUrls(
        exchange.urls['api'] as Record<string, unknown>,
        typeof options.apiUrls === 'string' ? { '*': options.apiUrls } : options.apiUrls,
      ) as typeof exchange.urls.api;
    }
    this.exchange = exchange;

    const api = exchange.urls['api'] as Record<string, unknown>;
    const egressEntry = capabilities.egressApi[options.marketType];
    const egressUrl =
      (egressEntry && typeof api[egressEntry] === 'string' ? (api[egressEntry] as string) : null) ??
      firstUrl(api) ??
      options.exchangeId;
    this.venueKey = venueKey({
      exchangeId: options.exchangeId,
      sandbox: options.sandbox === true,
      baseUrl: origin(exchange.implodeHostname(egressUrl)),
    });
    this.marketsKey = `${this.venueKey}|${options.marketType}`;

    // ccxt costs are in units of `rateLimit` ms; the venue's budget is shared through one throttle.
    const rateLimit = exchange.rateLimit ?? 0;
    const unitsPerSecond = rateLimit > 0 ? 1000 / rateLimit : 10;
    this.throttle = options.throttle.forVenue(this.venueKey, {
      capacity: Math.max(1, unitsPerSecond),
      refillPerSecond: unitsPerSecond,
    });
    const throttle = this.throttle;
    const signal = capabilities.rateLimitSignal;
    exchange.throttle = (cost?: number) => throttle.acquire(cost ?? 1, isUrgent());
    const onRestResponse = exchange.onRestResponse.bind(exchange);
    exchange.onRestResponse = (
      statusCode,
      statusText,
      url,
      method,
      responseHeaders,
      responseBody,
      ...rest
    ) => {
      const limitedInBody =
        signal !== undefined && typeof responseBody === 'string' && signal.body.test(responseBody);
      if (statusCode === 429 || statusCode === 418 || limitedInBody) {
        const resetAt = signal && Number(headerValue(responseHeaders, signal.resetTimestampHeader));
        throttle.reportRateLimited(
          parseRetryAfter(headerValue(responseHeaders, 'retry-after')) ??
            (resetAt && Number.isFinite(resetAt) ? Math.max(0, resetAt - Date.now()) : null),
        );
      } else if (statusCode < 400) {
        throttle.reportSuccess();
      }
      return onRestResponse(statusCode, statusText, url, method, responseHeaders, responseBody, ...rest);
    };

    const stopsCapability = options.venueStops ?? capabilities.venueStops?.[options.marketType];
    this.stops = stopsCapability
      ? new CcxtVenueStops(
          {
            exchange,
            market: (symbol) => this.market(symbol),
            contractSize: (market) => this.contractSize(market),
            read: (fn) => this.read(fn),
            mutate: (fn) => this.mutate(fn),
            checkClientOrderId: (id) => this.checkClientOrderId(id),
            venueClientOrderId: (id) => this.venueClientOrderId(id),
            ourClientOrderId: (id) => this.ourClientOrderId(id),
            isDuplicateClientOrderId: (error) => this.isDuplicateClientOrderId(error),
            marginModeParams: (market) => this.orderMarginModeParams(market),
          },
          stopsCapability,
        )
      : null;
  }

  // ---- markets -------------------------------------------------------------------------------------------

  async loadMarkets(): Promise<Market[]> {
    const markets = await this.ensureMarkets();
    return [...markets.values()].map((market) => toMarket(market, this.exchange.precisionMode ?? 0));
  }

  listMarkets(): Promise<Market[]> {
    return this.loadMarkets();
  }

  private async ensureMarkets(): Promise<MarketsByKairosSymbol> {
    if (this.markets) return this.markets;
    const raw = await this.read(() =>
      this.marketCache.getOrLoad(this.marketsKey, async () => {
        try {
          return await this.exchange.fetchMarkets();
        } catch (error) {
          throw translateCcxtError(error);
        }
      }),
    );
    this.exchange.setMarkets(raw as CcxtMarket[]);
    const bySymbol: MarketsByKairosSymbol = new Map();
    for (const market of raw as CcxtMarket[]) {
      if (!this.tradesOn(market)) continue;
      const symbol = kairosSymbol(market);
      // Spot listings come first in ccxt; keep the first match for a symbol.
      if (!bySymbol.has(symbol)) bySymbol.set(symbol, market);
    }
    this.markets = bySymbol;
    return bySymbol;
  }

  /** Spot accounts trade spot markets; futures accounts trade linear perpetuals settled in the quote. */
  private tradesOn(market: CcxtMarket): boolean {
    if (this.marketType === 'spot') return market.spot === true;
    return market.swap === true && market.linear === true && market.settle === market.quote;
  }

  private async market(symbol: string): Promise<CcxtMarket> {
    const markets = await this.ensureMarkets();
    const direct = markets.get(symbol);
    if (direct) return direct;
    for (const market of markets.values()) if (market.symbol === symbol) return market;
    throw new UnknownSymbolError(
      ...venueWords('UNKNOWN_SYMBOL', {
        variant: 'noMarket',
        exchange: this.exchangeId,
        marketType: this.marketType,
        symbol,
      }),
    );
  }

  private contractSize(market: CcxtMarket): string | null {
    return market.contract && market.contractSize ? new Decimal(market.contractSize).toFixed() : null;
  }

  // ---- market data ---------------------------------------------------------------------------------------

  async fetchTicker(symbol: string): Promise<Ticker> {
    const market = await this.market(symbol);
    const ticker = await this.read(() => this.exchange.fetchTicker(market.symbol));
    return toTicker(ticker, kairosSymbol(market));
  }

  async fetchOrderBook(symbol: string, limit?: number): Promise<OrderBook> {
    const market = await this.market(symbol);
    const book = await this.read(() => this.exchange.fetchOrderBook(market.symbol, limit));
    return toOrderBook(book, kairosSymbol(market), this.contractSize(market));
  }

  async fetchCandles(
    symbol: string,
    timeframe: Timeframe,
    since?: number,
    limit?: number,
  ): Promise<Candle[]> {
    const market = await this.market(symbol);
    if (this.exchange.timeframes && !(timeframe in this.exchange.timeframes)) {
      throw new UnsupportedOperationError(`${this.exchangeId} has no ${timeframe} candles`);
    }
    const rows = await this.read(() => this.exchange.fetchOHLCV(market.symbol, timeframe, since, limit));
    return rows.map(toCandle).filter((candle): candle is Candle => candle !== null);
  }

  // ---- account -------------------------------------------------------------------------------------------

  async fetchBalances(): Promise<Balances> {
    await this.ensureMarkets();
    const balances = await this.read(() => this.exchange.fetchBalance());
    return toBalances(balances);
  }

  /** What the key may do, where the venue reports it (Binance apiRestrictions, Bybit query-api, OKX perm). */
  async checkApiKeyPermissions(): Promise<ApiKeyPermissions> {
    const probe = this.capabilities.keyPermissions;
    if (!probe) return { canWithdraw: null, canTrade: null, source: 'not reported by venue' };
    try {
      const response = await this.read(() => callImplicit(this.exchange, probe.method));
      return {
        canWithdraw: probe.canWithdraw(response),
        canTrade: probe.canTrade(response, this.marketType),
        source: probe.source,
      };
    } catch (error) {
      // Sandboxes often lack the endpoint (Binance's testnet has no sapi); their keys cannot withdraw anyway.
      if (error instanceof UnsupportedOperationError) {
        return { canWithdraw: null, canTrade: null, source: `${probe.source} unavailable here` };
      }
      throw error;
    }
  }

  /**
   * The futures account's position mode: 'hedge' (separate long and short positions per symbol) or 'oneWay';
   * null where the venue does not say. Kairos trades one-way positions only.
   */
  async fetchPositionMode(): Promise<'oneWay' | 'hedge' | null> {
    if (this.marketType !== 'future') return null;
    const how = this.capabilities.positionMode;
    if (how === 'fetchPositionMode') {
      const mode = await this.read(() => this.exchange.fetchPositionMode());
      return typeof mode.hedged === 'boolean' ? (mode.hedged ? 'hedge' : 'oneWay') : null;
    }
    if (how === 'positions') {
      // The mode is per settle coin: the records of one listed symbol say it (Bybit: positionIdx 1/2 in hedge).
      const markets = await this.ensureMarkets();
      const market = markets.get('BTC/USDT') ?? markets.values().next().value;
      if (!market) return null;
      const positions = await this.read(() => this.exchange.fetchPositions([market.symbol]));
      if (positions.length === 0) return null;
      return positions.some((p) => p.hedged === true) ? 'hedge' : 'oneWay';
    }
    return null;
  }

  // ---- orders --------------------------------------------------------------------------------------------

  async createOrder(request: CreateOrderRequest): Promise<Order> {
    const { clientOrderId } = request;
    this.checkClientOrderId(clientOrderId);
    if (request.type === 'limit' && request.price === undefined) {
      throw new InvalidOrderError('A limit order needs a price');
    }
    const market = await this.market(request.symbol);
    const params: Record<string, unknown> = {
      [this.capabilities.clientOrderIdParam]: this.venueClientOrderId(clientOrderId),
    };
    if (request.reduceOnly && (market.contract || this.capabilities.reduceOnlyOnSpot)) {
      params['reduceOnly'] = true;
    }
    Object.assign(params, await this.orderMarginModeParams(market));
    // Kairos sizes in base units; contract venues want contracts. ccxt takes JS numbers: these are exact
    // conversions of short decimal strings, and ccxt turns them back into strings for the request.
    const size = this.contractSize(market);
    const amount = size ? dec(request.amount).div(size) : dec(request.amount);
    const price =
      request.type === 'limit' && request.price !== undefined ? dec(request.price).toNumber() : undefined;

    let placed: CcxtOrder;
    try {
      placed = await this.mutate(() =>
        this.exchange.createOrder(
          market.symbol,
          request.type,
          request.side,
          amount.toNumber(),
          price,
          params,
        ),
      );
    } catch (error) {
      if (error instanceof InvalidOrderError && this.isDuplicateClientOrderId(error)) {
        // Already placed (an earlier attempt got through): answer with that order, as the port promises.
        return this.fetchOrderByClientId(clientOrderId, request.symbol);
      }
      throw error;
    }
    if (placed.status === undefined) return this.orderAfterAcknowledgement(String(placed.id), request);
    return this.normalizeOrder(placed, market, clientOrderId);
  }

  /**
   * A venue that acknowledges an order with its ids only (Bybit v5; it executes asynchronously): the order as
   * the venue shows it next, or — when it does not list it yet or the lookup fails — as sent and not filled,
   * so its id is kept and reconciliation follows it from there.
   */
  private async orderAfterAcknowledgement(venueOrderId: string, request: CreateOrderRequest): Promise<Order> {
    try {
      const order = await this.fetchOrder(venueOrderId, request.symbol);
      return { ...order, clientOrderId: order.clientOrderId ?? request.clientOrderId };
    } catch (error) {
      // Placed whatever the lookup says: never reported as refused.
      if (!(error instanceof ExchangeGatewayError)) throw error;
      return {
        venueOrderId,
        clientOrderId: request.clientOrderId,
        symbol: request.symbol,
        side: request.side,
        type: request.type,
        status: 'open',
        price: request.type === 'limit' ? (request.price ?? null) : null,
        amount: request.amount,
        filled: '0',
        average: null,
        fee: null,
        reduceOnly: request.reduceOnly === true,
        timestamp: Date.now(),
      };
    }
  }

  async cancelOrder(venueOrderId: string, symbol: string): Promise<Order> {
    const market = await this.market(symbol);
    const cancelled = await this.mutate(() => this.exchange.cancelOrder(venueOrderId, market.symbol));
    if (cancelled.status === undefined || cancelled.amount === undefined) {
      // Some venues acknowledge a cancel with the id only.
      return this.fetchOrder(venueOrderId, symbol);
    }
    return this.normalizeOrder(cancelled, market);
  }

  async fetchOrder(venueOrderId: string, symbol: string): Promise<Order> {
    const market = await this.market(symbol);
    const lookup = this.capabilities.orderListLookup;
    if (lookup) {
      const order = await this.findInOrderLists(
        market,
        lookup.endedOrdersMethod,
        { [lookup.idParam]: venueOrderId },
        (o) => o.id === venueOrderId,
      );
      if (order) return this.normalizeOrder(order, market);
      throw new OrderNotFoundError(`${this.exchangeId} has no order ${venueOrderId} on ${symbol}`);
    }
    const order = await this.read(() => this.exchange.fetchOrder(venueOrderId, market.symbol));
    return this.normalizeOrder(order, market);
  }

  /** The open-orders list, then the ended orders, filtered by an id param (`orderListLookup`). */
  private async findInOrderLists(
    market: CcxtMarket,
    endedOrdersMethod: NonNullable<ExchangeCapabilities['orderListLookup']>['endedOrdersMethod'],
    filter: Record<string, string>,
    matches: (order: CcxtOrder) => boolean,
  ): Promise<CcxtOrder | undefined> {
    const open = await this.read(() =>
      this.exchange.fetchOpenOrders(market.symbol, undefined, undefined, filter),
    );
    const listed = open.find(matches);
    if (listed) return listed;
    const ended = await this.read(() =>
      this.exchange[endedOrdersMethod](market.symbol, undefined, undefined, filter),
    );
    return ended.find(matches);
  }

  async fetchOrderByClientId(clientOrderId: string, symbol: string): Promise<Order> {
    const market = await this.market(symbol);
    const lookup = this.capabilities.orderListLookup;
    if (lookup) {
      const venueId = this.venueClientOrderId(clientOrderId);
      const order = await this.findInOrderLists(
        market,
        lookup.endedOrdersMethod,
        { [lookup.clientIdParam]: venueId },
        (o) => o.clientOrderId === venueId,
      );
      if (order) return this.normalizeOrder(order, market, clientOrderId);
      throw new OrderNotFoundError(`${this.exchangeId} has no order ${clientOrderId} on ${symbol}`);
    }
    const param = this.capabilities.fetchOrderByClientIdParam;
    if (param) {
      const order = await this.read(() =>
        this.exchange.fetchOrder('', market.symbol, { [param]: this.venueClientOrderId(clientOrderId) }),
      );
      return this.normalizeOrder(order, market, clientOrderId);
    }
    // No direct lookup on this venue: search the open orders, then the recent closed ones.
    const venueId = this.venueClientOrderId(clientOrderId);
    const open = await this.read(() => this.exchange.fetchOpenOrders(market.symbol));
    const inOpen = open.find((order) => order.clientOrderId === venueId);
    if (inOpen) return this.normalizeOrder(inOpen, market, clientOrderId);
    if (this.exchange.has['fetchClosedOrders']) {
      const closed = await this.read(() => this.exchange.fetchClosedOrders(market.symbol));
      const inClosed = closed.find((order) => order.clientOrderId === venueId);
      if (inClosed) return this.normalizeOrder(inClosed, market, clientOrderId);
    }
    throw new OrderNotFoundError(`${this.exchangeId} has no order ${clientOrderId} on ${symbol}`);
  }

  async fetchOpenOrders(symbol?: string): Promise<Order[]> {
    const market = symbol === undefined ? undefined : await this.market(symbol);
    if (!market) await this.ensureMarkets();
    const orders = await this.read(() => this.exchange.fetchOpenOrders(market?.symbol));
    const result: Order[] = [];
    for (const order of orders) {
      // Bybit's open orders hold its conditional orders too: stops resting there are `stops`' own.
      if (this.stops && order.triggerPrice !== undefined && order.triggerPrice !== null) continue;
      const own = market ?? this.knownMarket(order.symbol);
      if (own) result.push(this.normalizeOrder(order, own));
    }
    return result;
  }

  async fetchFundingHistory(symbol: string, since?: number): Promise<FundingPayment[]> {
    if (this.marketType !== 'future') return [];
    const market = await this.market(symbol);
    const history = await this.read(() => this.exchange.fetchFundingHistory(market.symbol, since));
    return history
      .flatMap((entry) => toFundingPayment(entry, kairosSymbol(market), market.settle ?? market.quote) ?? [])
      .sort((a, b) => a.timestamp - b.timestamp);
  }

  async fetchMyTrades(symbol: string, since?: number): Promise<Fill[]> {
    const market = await this.market(symbol);
    const trades = await this.read(() => this.exchange.fetchMyTrades(market.symbol, since));
    return trades.map((trade) => toFill(trade, kairosSymbol(market), this.contractSize(market)));
  }

  async fetchOrderFills(venueOrderId: string, symbol: string, since?: number): Promise<Fill[]> {
    const market = await this.market(symbol);
    const param = this.capabilities.orderTradesParam;
    let trades: CcxtTrade[];
    if (param) {
      trades = await this.tradesOfOrder(market, { [param]: venueOrderId });
    } else if (this.exchange.has['fetchOrderTrades']) {
      trades = await this.read(() => this.exchange.fetchOrderTrades(venueOrderId, market.symbol, since));
    } else {
      // Every page from the order's creation: a busy account's first page may end before its fills.
      trades = [];
      let from = since;
      for (let page = 0; page < ORDER_FILL_PAGES; page++) {
        const batch = await this.read(() => this.exchange.fetchMyTrades(market.symbol, from));
        trades.push(...batch);
        const last = batch.at(-1)?.timestamp;
        if (batch.length === 0 || last === undefined || last === from) break;
        from = last;
      }
    }
    const contractSize = this.contractSize(market);
    const seen = new Set<string>();
    return trades
      .map((trade) => toFill(trade, kairosSymbol(market), contractSize))
      .filter(
        (f) => f.venueOrderId === venueOrderId && !seen.has(f.venueTradeId) && seen.add(f.venueTradeId),
      );
  }

  /** The trade list filtered to one order: every page where the venue pages by cursor (`tradesCursor`). */
  private async tradesOfOrder(market: CcxtMarket, filter: Record<string, string>): Promise<CcxtTrade[]> {
    const cursor = this.capabilities.tradesCursor;
    const trades: CcxtTrade[] = [];
    let next: string | undefined;
    for (let page = 0; page < ORDER_FILL_PAGES; page++) {
      const params = cursor && next ? { ...filter, [cursor.request]: next } : filter;
      const batch = await this.read(() =>
        this.exchange.fetchMyTrades(market.symbol, undefined, undefined, params),
      );
      trades.push(...batch);
      next = cursor ? this.pageCursor(batch, cursor) : undefined;
      if (!next || batch.length === 0) break;
    }
    return trades;
  }

  private pageCursor(
    batch: CcxtTrade[],
    cursor: NonNullable<ExchangeCapabilities['tradesCursor']>,
  ): string | undefined {
    const values: string[] = [];
    for (const trade of batch) {
      const value = (trade.info as Record<string, unknown> | undefined)?.[cursor.response];
      if (typeof value === 'string' && value !== '') values.push(value);
    }
    if (cursor.pageSize === undefined) return values[0];
    // Newest first (OKX): after a full page, the next one is older than its oldest row.
    if (batch.length < cursor.pageSize) return undefined;
    const older = (a: string, b: string) => a.length < b.length || (a.length === b.length && a < b);
    return values.reduce<string | undefined>(
      (oldest, v) => (oldest && older(oldest, v) ? oldest : v),
      undefined,
    );
  }

  // ---- futures -------------------------------------------------------------------------------------------

  async fetchPositions(): Promise<Position[]> {
    if (this.marketType !== 'future') return [];
    await this.ensureMarkets();
    const positions = await this.read(() => this.exchange.fetchPositions());
    const result: Position[] = [];
    for (const position of positions) {
      const market = this.knownMarket(position.symbol);
      if (!market) continue;
      const normalized = toPosition(position, kairosSymbol(market));
      if (normalized) result.push(normalized);
    }
    return result;
  }

  async setLeverage(symbol: string, leverage: number): Promise<void> {
    if (this.marketType !== 'future') {
      throw new UnsupportedOperationError('Leverage applies to futures accounts only');
    }
    const market = await this.market(symbol);
    await this.setLeverageWith(market, leverage, this.marginModeParams(market.symbol));
  }

  private async setLeverageWith(market: CcxtMarket, leverage: number, params: Record<string, unknown> = {}) {
    if (!Number.isInteger(leverage) || leverage < 1)
      throw new InvalidOrderError(`Invalid leverage ${leverage}`);
    const unchanged = this.capabilities.leverageUnchanged;
    // Idempotent: a read's translation and retries.
    await this.read(async () => {
      try {
        await this.exchange.setLeverage(leverage, market.symbol, params);
      } catch (error) {
        if (unchanged && error instanceof Error && unchanged.test(error.message)) return;
        throw error;
      }
    });
  }

  private async learnMarginMode(market: CcxtMarket) {
    const positions = await this.read(() => this.exchange.fetchPositions([market.symbol]));
    const open = positions.find((p) => p.symbol === market.symbol && Number(p.contracts ?? 0) !== 0);
    if (open?.marginMode === 'isolated' || open?.marginMode === 'cross')
      this.marginModes.set(market.symbol, open.marginMode);
  }

  /**
   * The margin mode an order (or a stop) on this market carries, where the venue takes it with every order
   * (OKX tdMode); {} elsewhere. After a restart the mode is not known yet: the open position's own (an exit
   * must name it).
   */
  private async orderMarginModeParams(market: CcxtMarket): Promise<Record<string, unknown>> {
    if (!market.contract || this.capabilities.marginMode !== 'perOrder') return {};
    if (!this.marginModes.has(market.symbol)) await this.learnMarginMode(market);
    return this.marginModeParams(market.symbol);
  }

  /** The margin mode set for a symbol, for venues that take it with every order and leverage call (OKX). */
  private marginModeParams(venueSymbol: string): Record<string, unknown> {
    const mode = this.capabilities.marginMode === 'perOrder' ? this.marginModes.get(venueSymbol) : undefined;
    return mode ? { marginMode: mode } : {};
  }

  async configureMargin(symbol: string, settings: { leverage: number; mode: MarginMode }): Promise<void> {
    if (this.marketType !== 'future') {
      throw new UnsupportedOperationError('Margin mode applies to futures accounts only');
    }
    const market = await this.market(symbol);
    if (this.capabilities.marginMode === 'perOrder') {
      // OKX: the mode goes with the leverage call (mgnMode) and with every order (tdMode, see createOrder).
      await this.setLeverageWith(market, settings.leverage, { marginMode: settings.mode });
      this.marginModes.set(market.symbol, settings.mode);
      return;
    }
    await this.read(async () => {
      try {
        await this.exchange.setMarginMode(settings.mode, market.symbol);
      } catch (error) {
        // "Already so" is what we wanted. ccxt maps it to MarginModeAlreadySet only on the venue's real
        // host, so the venue's own code is read too (Binance -4046, Bybit 110026).
        if (error instanceof ccxt.MarginModeAlreadySet || MARGIN_MODE_ALREADY_SET.test(String(error))) return;
        throw error;
      }
    });
    await this.setLeverageWith(market, settings.leverage);
  }

  // ---- helpers -------------------------------------------------------------------------------------------

  /** Idempotent calls: translated, and retried when the error is transient. */
  private read<T>(fn: () => Promise<T>): Promise<T> {
    return withRetry(() => this.venue(fn), this.retry);
  }

  /**
   * State-changing calls: translated as mutations, so a lost answer is `UnknownOutcomeError` (never retried:
   * looked up by client id instead) and only refusals before execution (rate limit, clock skew) go again.
   */
  private mutate<T>(fn: () => Promise<T>): Promise<T> {
    return withRetry(() => this.venue(fn, { mutation: true }), this.retry);
  }

  /**
   * One call to the venue, its error translated. A refusal for the request's timestamp (the host clock is off
   * by more than the receive window) resyncs the clock with the venue's and sends the call once more — it was
   * refused before execution, so even an order may go again; sent with the same clock it would only fail again.
   */
  private async venue<T>(fn: () => Promise<T>, options: { mutation?: boolean } = {}): Promise<T> {
    for (let resynced = false; ; resynced = true) {
      try {
        return await fn();
      } catch (error) {
        const translated = translateCcxtError(error, {
          ...options,
          retryAfterMs: this.throttle.pausedForMs() || null,
          clockSkew: this.capabilities.clockSkew,
        });
        if (!(translated instanceof ClockSkewError) || resynced) throw translated;
        await this.resyncClock();
      }
    }
  }

  /** The offset between this host's clock and the venue's, read again (one read for concurrent callers). */
  private resyncClock(): Promise<void> {
    this.clockResync ??= (async () => {
      try {
        await this.exchange.loadTimeDifference();
      } catch (error) {
        throw translateCcxtError(error);
      } finally {
        this.clockResync = null;
      }
    })();
    return this.clockResync;
  }

  private knownMarket(venueSymbol: string | undefined): CcxtMarket | undefined {
    if (!venueSymbol || !this.markets) return undefined;
    for (const market of this.markets.values()) if (market.symbol === venueSymbol) return market;
    return undefined;
  }

  private normalizeOrder(order: CcxtOrder, market: CcxtMarket, knownClientOrderId?: string): Order {
    const normalized = toOrder(order, kairosSymbol(market), {
      originalClientOrderIdField: this.capabilities.originalClientOrderIdField,
      contractSize: this.contractSize(market),
    });
    if (normalized.clientOrderId) normalized.clientOrderId = this.ourClientOrderId(normalized.clientOrderId);
    if (knownClientOrderId && !normalized.clientOrderId) normalized.clientOrderId = knownClientOrderId;
    return normalized;
  }

  /** Our client order id as this venue takes it (`clientOrderIdEncoding`). */
  venueClientOrderId(id: string): string {
    return this.capabilities.clientOrderIdEncoding === 'hex32' ? (clientOrderIdToHex(id) ?? id) : id;
  }

  /** The client order id the venue shows, as ours. */
  private ourClientOrderId(venueId: string): string {
    return this.capabilities.clientOrderIdEncoding === 'hex32'
      ? (clientOrderIdFromHex(venueId.replaceAll('-', '').toLowerCase()) ?? venueId)
      : venueId;
  }

  /** Our client order id must be there and fit the venue's rule as it travels (`clientOrderIdRule`). */
  private checkClientOrderId(clientOrderId: string): void {
    const rule = this.capabilities.clientOrderIdRule;
    if (!clientOrderId || !rule.pattern.test(this.venueClientOrderId(clientOrderId))) {
      throw new InvalidOrderError(`clientOrderId is required (${this.exchangeId} takes ${rule.description})`);
    }
  }

  private isDuplicateClientOrderId(error: InvalidOrderError): boolean {
    const pattern = this.capabilities.duplicateClientOrderId;
    return pattern !== null && pattern.test(error.message);
  }
}
