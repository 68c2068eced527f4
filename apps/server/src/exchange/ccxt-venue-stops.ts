import type { Exchange, MarketInterface as CcxtMarket, Order as CcxtOrder } from 'ccxt';
import type { VenueStopsCapability } from './capabilities';
import { kairosSymbol } from './ccxt-normalize';
import { Decimal, dec, decimalString, decimalStringOrZero } from './decimal';
import { ExchangeGatewayError, InvalidOrderError, OrderNotFoundError } from './errors';
import type { StopOrder, StopOrderRequest, StopOrderStatus, VenueStops } from './gateway';

/**
 * What the stops borrow from their `CcxtGateway`: the same ccxt instance, markets, error translation, retry and
 * client id rules as every other order (see `CcxtGateway.stops`).
 */
export interface CcxtStopsHost {
  readonly exchange: Exchange;
  market(symbol: string): Promise<CcxtMarket>;
  /** Contracts × this = base units; null on spot. */
  contractSize(market: CcxtMarket): string | null;
  /** An idempotent call: translated, retried when transient. */
  read<T>(fn: () => Promise<T>): Promise<T>;
  /** A state-changing call: translated (a lost answer is `UnknownOutcomeError`), retried only when refused. */
  mutate<T>(fn: () => Promise<T>): Promise<T>;
  /** Throws `InvalidOrderError` when the id does not fit the venue's rule. */
  checkClientOrderId(id: string): void;
  venueClientOrderId(id: string): string;
  ourClientOrderId(venueId: string): string;
  isDuplicateClientOrderId(error: InvalidOrderError): boolean;
  /**
   * The margin mode an order on this market carries, as createOrder sends it (`marginMode: 'perOrder'` in the
   * capability table: OKX `tdMode`); {} where the venue holds the mode itself.
   */
  marginModeParams(market: CcxtMarket): Promise<Record<string, unknown>>;
}

const CCXT_STATUS: Record<string, StopOrderStatus> = {
  open: 'open',
  closed: 'triggered',
  canceled: 'cancelled',
  expired: 'expired',
  rejected: 'rejected',
};

/**
 * `VenueStops` over ccxt, for venues whose capability row has `venueStops` for the account's market type
 * (Binance USDⓈ-M: conditional orders in the Algo Service). A futures stop is a reduce-only market order with a
 * trigger price, a spot stop (`stopLimit`) a limit order at the request's limit price with a trigger price;
 * reads and cancels go to the venue's stop endpoints (`lookupParams`).
 */
export class CcxtVenueStops implements VenueStops {
  constructor(
    private readonly host: CcxtStopsHost,
    private readonly capability: VenueStopsCapability,
  ) {}

  async placeStop(request: StopOrderRequest): Promise<StopOrder> {
    const { clientOrderId } = request;
    this.host.checkClientOrderId(clientOrderId);
    const amount = dec(request.amount);
    const trigger = dec(request.triggerPrice);
    if (amount.lte(0)) throw new InvalidOrderError(`A stop needs a positive amount, not ${request.amount}`);
    if (trigger.lte(0)) {
      throw new InvalidOrderError(`A stop needs a positive trigger price, not ${request.triggerPrice}`);
    }
    const limit = this.limitPriceOf(request);
    const market = await this.host.market(request.symbol);
    if (limit && this.capability.stopLimit?.checkTriggerSide)
      await this.refuseThrough(market, request.side, trigger);
    const size = this.host.contractSize(market);
    // Contracts, as createOrder sends them; the trigger price goes as its string (ccxt rounds it to the tick).
    const contracts = size ? amount.div(size) : amount;
    const params: Record<string, unknown> = {
      ...this.capability.params,
      [this.capability.triggerPriceParam ?? 'triggerPrice']: trigger.toFixed(),
      // Nothing is reduce-only on spot (Binance refuses the parameter there).
      ...(limit ? {} : { reduceOnly: true }),
      [this.capability.placeClientIdParam ?? 'clientOrderId']: this.host.venueClientOrderId(clientOrderId),
      ...(await this.host.marginModeParams(market)),
    };
    if (this.capability.triggerDirection) {
      params['triggerDirection'] = this.capability.triggerDirection[request.side];
    }
    let placed: CcxtOrder;
    try {
      placed = await this.host.mutate(() =>
        this.host.exchange.createOrder(
          market.symbol,
          limit ? 'limit' : 'market',
          request.side,
          contracts.toNumber(),
          limit?.toNumber(),
          params,
        ),
      );
    } catch (error) {
      if (error instanceof InvalidOrderError && this.host.isDuplicateClientOrderId(error)) {
        // Already placed (an earlier attempt got through): answer with that stop, as the port promises.
        return this.fetchStopByClientId(clientOrderId, request.symbol);
      }
      throw error;
    }
    if (this.unread(placed) || (this.rawStatus(placed) === undefined && placed.status === undefined)) {
      // Acknowledged with its ids only: the stop as the venue shows it, else as sent.
      try {
        return await this.fetchStop(String(placed.id), request.symbol);
      } catch (error) {
        if (!(error instanceof ExchangeGatewayError)) throw error;
        return {
          venueOrderId: String(placed.id),
          clientOrderId,
          symbol: request.symbol,
          side: request.side,
          amount: request.amount,
          triggerPrice: request.triggerPrice,
          limitPrice: request.limitPrice ?? null,
          status: 'open',
          triggeredOrderId: null,
          timestamp: Date.now(),
        };
      }
    }
    return this.toStop(placed, market, clientOrderId);
  }

  async cancelStop(venueOrderId: string, symbol: string): Promise<StopOrder> {
    if (this.capability.stopLimit) {
      // Read first: a triggered stop-limit's limit order is the exit, and where stop and order are one order
      // (Binance spot, Bybit spot) a cancel would cancel it.
      const current = await this.fetchStop(venueOrderId, symbol);
      if (current.status !== 'open') return current;
    }
    const market = await this.host.market(symbol);
    let cancelled: CcxtOrder;
    try {
      cancelled = await this.host.mutate(() =>
        this.host.exchange.cancelOrder(venueOrderId, market.symbol, {
          ...(this.capability.cancelParams ?? this.capability.lookupParams),
        }),
      );
    } catch (error) {
      // Binance refuses to cancel a stop that is no longer waiting (-2011): triggered or gone, say which.
      if (error instanceof OrderNotFoundError || error instanceof InvalidOrderError) {
        const stop = await this.fetchStop(venueOrderId, symbol).catch(() => null);
        if (stop && stop.status !== 'open') return stop;
      }
      throw error;
    }
    // Binance answers a cancel with the ids and "success" only (a spot cancel without `isWorking`).
    if (this.rawStatus(cancelled) === undefined || this.unread(cancelled)) {
      return this.fetchStop(venueOrderId, symbol);
    }
    return this.toStop(cancelled, market);
  }

  async fetchStop(venueOrderId: string, symbol: string): Promise<StopOrder> {
    const market = await this.host.market(symbol);
    let order: CcxtOrder;
    try {
      order = await this.host.read(() =>
        this.host.exchange.fetchOrder(venueOrderId, market.symbol, { ...this.capability.lookupParams }),
      );
    } catch (error) {
      const ended = this.capability.endedStops;
      if (!(error instanceof OrderNotFoundError) || !ended) throw error;
      const found = await this.findEnded(
        market,
        { [ended.idParam]: venueOrderId },
        (o) => o.id === venueOrderId,
      );
      if (!found) throw error;
      order = found;
    }
    return this.toStop(order, market);
  }

  /** An ended stop in the venue's order history (`endedStops`), where the lookup forgets them. */
  private async findEnded(
    market: CcxtMarket,
    filter: Record<string, unknown>,
    matches: (order: CcxtOrder) => boolean,
  ): Promise<CcxtOrder | undefined> {
    const ended = this.capability.endedStops!;
    const orders = await this.host.read(() =>
      this.host.exchange[ended.method](market.symbol, undefined, undefined, { ...ended.params, ...filter }),
    );
    return orders.find(matches);
  }

  async fetchStopByClientId(clientOrderId: string, symbol: string): Promise<StopOrder> {
    const market = await this.host.market(symbol);
    const venueId = this.host.venueClientOrderId(clientOrderId);
    let order: CcxtOrder;
    try {
      order = await this.host.read(() =>
        this.host.exchange.fetchOrder('', market.symbol, {
          ...this.capability.lookupParams,
          [this.capability.clientIdParam]: venueId,
        }),
      );
    } catch (error) {
      if (!(error instanceof OrderNotFoundError) || !this.capability.endedStops) throw error;
      const found = await this.findEnded(
        market,
        { [this.capability.clientIdParam]: venueId },
        (o) => o.clientOrderId === venueId,
      );
      if (!found) throw error;
      order = found;
    }
    return this.toStop(order, market, clientOrderId);
  }

  /**
   * The request's limit price: required by a stop-limit (spot), refused by a stop-market (futures stops send
   * a reduce-only market order).
   */
  private limitPriceOf(request: StopOrderRequest): Decimal | null {
    if (!this.capability.stopLimit) {
      if (request.limitPrice !== undefined) {
        throw new InvalidOrderError('Futures stops are stop-markets: no limit price');
      }
      return null;
    }
    if (request.limitPrice === undefined) {
      throw new InvalidOrderError('A spot stop is a stop-limit: it needs a limit price');
    }
    const limit = dec(request.limitPrice);
    if (limit.lte(0))
      throw new InvalidOrderError(`A stop needs a positive limit price, not ${request.limitPrice}`);
    return limit;
  }

  /** Refuses a stop the last price is already through (`checkTriggerSide`), as Binance's -2021 does. */
  private async refuseThrough(market: CcxtMarket, side: StopOrderRequest['side'], trigger: Decimal) {
    const ticker = await this.host.read(() => this.host.exchange.fetchTicker(market.symbol));
    const last = decimalString(ticker.last);
    if (last === null) return;
    if (side === 'sell' ? trigger.gte(last) : trigger.lte(last)) {
      throw new InvalidOrderError(
        `Order would immediately trigger: ${side} stop at ${trigger.toFixed()} with the price at ${last}`,
      );
    }
  }

  /** The raw field telling whether a stop-limit works (Binance `isWorking`), when the venue has one. */
  private working(order: CcxtOrder): boolean | undefined {
    const field = this.capability.stopLimit?.workingField;
    const value = field ? (order.info as Record<string, unknown> | undefined)?.[field] : undefined;
    return typeof value === 'boolean' ? value : undefined;
  }

  /** An answer that cannot tell a stop-limit waiting from one working (no `workingField`): read it again. */
  private unread(order: CcxtOrder): boolean {
    return this.capability.stopLimit?.workingField !== undefined && this.working(order) === undefined;
  }

  /** The stop's own status as the venue wrote it (Binance algoStatus); undefined when the answer has none. */
  private rawStatus(order: CcxtOrder): string | undefined {
    const value = (order.info as Record<string, unknown> | undefined)?.[this.capability.statusField];
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  /** A stop-limit's limit price as the venue shows it; null for a stop-market. */
  private limitPriceRead(order: CcxtOrder, info: Record<string, unknown>): string | null {
    const stopLimit = this.capability.stopLimit;
    if (!stopLimit) return null;
    return (
      (stopLimit.limitPriceField ? decimalString(info[stopLimit.limitPriceField]) : null) ??
      decimalString(order.price)
    );
  }

  private toStop(order: CcxtOrder, market: CcxtMarket, knownClientOrderId?: string): StopOrder {
    const info = (order.info ?? {}) as Record<string, unknown>;
    const rawTriggered = info[this.capability.triggeredOrderIdField];
    const triggeredOrderId =
      (typeof rawTriggered === 'string' || typeof rawTriggered === 'number') && String(rawTriggered) !== ''
        ? String(rawTriggered)
        : null;
    const raw = this.rawStatus(order);
    let status: StopOrderStatus =
      (raw !== undefined ? this.capability.statuses[raw] : undefined) ??
      CCXT_STATUS[order.status ?? ''] ??
      'open';
    // A stop-limit working as its limit order (Binance spot): whatever became of that order, the stop triggered.
    if (this.working(order) === true && status !== 'rejected') status = 'triggered';
    // Triggered, but the order it sent is not known yet: still open for whoever asks (ask again).
    if (status === 'triggered' && triggeredOrderId === null) status = 'open';
    const size = this.host.contractSize(market);
    const amount = decimalStringOrZero(order.amount);
    const rawClientId = this.capability.clientIdField
      ? info[this.capability.clientIdField]
      : order.clientOrderId;
    const clientId =
      typeof rawClientId === 'string' && rawClientId !== '' ? this.host.ourClientOrderId(rawClientId) : null;
    return {
      venueOrderId: String(order.id),
      clientOrderId: clientId ?? knownClientOrderId ?? null,
      symbol: kairosSymbol(market),
      side: order.side === 'sell' ? 'sell' : 'buy',
      amount: size ? new Decimal(amount).times(size).toFixed() : amount,
      triggerPrice:
        (this.capability.triggerPriceField ? decimalString(info[this.capability.triggerPriceField]) : null) ??
        decimalString(order.triggerPrice) ??
        decimalStringOrZero(info['triggerPrice']),
      limitPrice: this.limitPriceRead(order, info),
      status,
      triggeredOrderId: status === 'triggered' ? triggeredOrderId : null,
      timestamp: order.timestamp ?? order.lastUpdateTimestamp ?? Date.now(),
    };
  }
}
