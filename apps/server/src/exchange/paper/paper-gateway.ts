import { UnsupportedOperationError } from '../errors';
import type {
  AccountMarketType,
  FundingPayment,
  Balances,
  Candle,
  CreateOrderRequest,
  ExchangeGateway,
  Fill,
  Market,
  MarginMode,
  Order,
  OrderBook,
  Position,
  StopOrder,
  StopOrderRequest,
  Ticker,
  Timeframe,
  VenueStops,
} from '../gateway';
import type { PaperVenue } from './paper-venue';

/**
 * One paper account's stops on the venue: stop-markets on futures, stop-limits on spot (their limit order
 * reserving what it sells from the placement on).
 */
export function paperVenueStops(
  venue: PaperVenue,
  accountId: string,
  marketType: AccountMarketType,
): VenueStops {
  return {
    placeStop: async (request: StopOrderRequest): Promise<StopOrder> =>
      venue.placeStop(accountId, marketType, { ...request, symbol: venue.spec(request.symbol).symbol }),
    cancelStop: async (venueOrderId: string): Promise<StopOrder> => venue.cancelStop(accountId, venueOrderId),
    fetchStop: async (venueOrderId: string): Promise<StopOrder> => venue.fetchStop(accountId, venueOrderId),
    fetchStopByClientId: async (clientOrderId: string): Promise<StopOrder> =>
      venue.fetchStopByClientId(accountId, clientOrderId),
  };
}

/** One paper account's door to the simulated venue. Needs no keys; works offline. */
export class PaperGateway implements ExchangeGateway {
  readonly exchangeId = 'paper';
  readonly sharesDatabase = true;

  /**
   * Stop orders resting on the venue (issue 18): reduce-only stop-markets on futures, stop-limits on spot, the
   * paper venue triggers on its own price path, even while nobody asks (the matching tick) and for the path it
   * missed while Kairos was stopped.
   */
  readonly stops: VenueStops | null;

  constructor(
    private readonly venue: PaperVenue,
    readonly accountId: string,
    readonly marketType: AccountMarketType = 'spot',
  ) {
    this.stops = paperVenueStops(venue, accountId, marketType);
  }

  async loadMarkets(): Promise<Market[]> {
    return this.venue.listMarkets(this.marketType);
  }

  listMarkets(): Promise<Market[]> {
    return this.loadMarkets();
  }

  /** Accepts 'BTC/USDT' and the futures form 'BTC/USDT:USDT'. */
  private symbol(symbol: string): string {
    return this.venue.spec(symbol).symbol;
  }

  async fetchTicker(symbol: string): Promise<Ticker> {
    return this.venue.market.ticker(this.symbol(symbol), this.venue.now());
  }

  async fetchOrderBook(symbol: string, limit?: number): Promise<OrderBook> {
    const now = this.venue.now();
    const resolved = this.symbol(symbol);
    const book = this.venue.market.orderBook(resolved, now, limit);
    return {
      symbol: resolved,
      bids: book.bids.map(([price, amount]) => [price.toFixed(), amount.toFixed()]),
      asks: book.asks.map(([price, amount]) => [price.toFixed(), amount.toFixed()]),
      timestamp: now,
    };
  }

  async fetchCandles(symbol: string, timeframe: Timeframe, since?: number, limit = 500): Promise<Candle[]> {
    return this.venue.market.candles(this.symbol(symbol), timeframe, since, limit, this.venue.now());
  }

  fetchBalances(): Promise<Balances> {
    return this.venue.balances(this.accountId);
  }

  createOrder(request: CreateOrderRequest): Promise<Order> {
    return this.venue.createOrder(this.accountId, this.marketType, {
      ...request,
      symbol: this.symbol(request.symbol),
    });
  }

  cancelOrder(venueOrderId: string, _symbol: string): Promise<Order> {
    return this.venue.cancelOrder(this.accountId, venueOrderId);
  }

  fetchOrder(venueOrderId: string, _symbol: string): Promise<Order> {
    return this.venue.fetchOrder(this.accountId, venueOrderId);
  }

  fetchOrderByClientId(clientOrderId: string, _symbol: string): Promise<Order> {
    return this.venue.fetchOrderByClientId(this.accountId, clientOrderId);
  }

  fetchOpenOrders(symbol?: string): Promise<Order[]> {
    return this.venue.openOrders(
      this.accountId,
      this.marketType,
      symbol === undefined ? undefined : this.symbol(symbol),
    );
  }

  fetchMyTrades(symbol: string, since?: number): Promise<Fill[]> {
    return this.venue.fills(this.accountId, this.marketType, this.symbol(symbol), since);
  }

  async fetchOrderFills(venueOrderId: string, symbol: string, since?: number): Promise<Fill[]> {
    return (await this.fetchMyTrades(symbol, since)).filter((f) => f.venueOrderId === venueOrderId);
  }

  async fetchPositions(): Promise<Position[]> {
    if (this.marketType !== 'future') return [];
    return this.venue.positions(this.accountId);
  }

  /** The funding the paper venue settled on the account's position (every 8 h, see paper-funding.ts). */
  async fetchFundingHistory(symbol: string, since?: number): Promise<FundingPayment[]> {
    if (this.marketType !== 'future') return [];
    return this.venue.funding(this.accountId, this.symbol(symbol), since);
  }

  async configureMargin(symbol: string, settings: { leverage: number; mode: MarginMode }): Promise<void> {
    if (this.marketType !== 'future') {
      throw new UnsupportedOperationError('Margin mode applies to futures accounts only');
    }
    await this.venue.setMarginMode(this.accountId, this.symbol(symbol), settings.mode);
    await this.venue.setLeverage(this.accountId, this.symbol(symbol), settings.leverage);
  }

  async setLeverage(symbol: string, leverage: number): Promise<void> {
    if (this.marketType !== 'future') {
      throw new UnsupportedOperationError('Leverage applies to futures accounts only');
    }
    await this.venue.setLeverage(this.accountId, this.symbol(symbol), leverage);
  }
}
