import {
  InsufficientFundsError,
  InvalidOrderError,
  OrderNotFoundError,
  RateLimitedError,
  RetryableExchangeError,
  UnknownOutcomeError,
} from '../../src/exchange/errors';
import type {
  CreateOrderRequest,
  ExchangeGateway,
  StopOrderRequest,
  VenueStops,
} from '../../src/exchange/gateway';

/**
 * The faults a venue shows the engine, one at a time, on the gateway instance the engine itself uses (the
 * gateway provider hands out one instance per account): every engine path meets them, not only the call a
 * test makes.
 *
 * - `refused`: the venue refuses the order (a filter, reduce-only, a balance) and keeps nothing.
 * - `insufficient`: refused for the balance.
 * - `timeout`: the request left and no answer came back; the venue did NOT get it (a lookup finds nothing).
 * - `timeoutAfterAccept`: the venue executed it, the answer was lost (a lookup finds it).
 * - `notFound`: the venue says it has no such order.
 * - `rateLimited`: 429 with a Retry-After.
 * - `laggingTrades`: the trade list does not show the order's fills yet (and answers carry none).
 * - `killed`: the venue executed the order and the process died before it wrote the answer down: after
 *   `restartAfterKill` the database holds the row as it was before the call.
 */
export type VenueFault =
  | 'killed'
  | 'refused'
  | 'insufficient'
  | 'timeout'
  | 'timeoutAfterAccept'
  | 'notFound'
  | 'rateLimited'
  | 'laggingTrades';

export type FaultMethod = Method;
type Method =
  | 'fetchTicker'
  | 'createOrder'
  | 'cancelOrder'
  | 'fetchOrder'
  | 'fetchOrderByClientId'
  | 'fetchMyTrades'
  | 'fetchOrderFills'
  | StopMethod;
type StopMethod = 'placeStop' | 'cancelStop' | 'fetchStop' | 'fetchStopByClientId';
const STOP_METHODS: StopMethod[] = ['placeStop', 'cancelStop', 'fetchStop', 'fetchStopByClientId'];

type Rule = {
  method: Method;
  fault: VenueFault;
  /** How many matching calls fail; Infinity until `clear`. */
  remaining: number;
  match?: (args: unknown[]) => boolean;
};

/** Client order ids the engine sent, in order (create calls that reached the venue, and those lost in flight). */
export type SentOrder = {
  clientOrderId: string;
  request: CreateOrderRequest | StopOrderRequest;
  reached: boolean;
  /** A stop order (`placeStop`) rather than an order. */
  stop?: boolean;
};

/** The process died during the call: nothing after it ran. */
export class ProcessKilled extends Error {
  constructor() {
    super('process killed');
  }
}

export class VenueFaults {
  private rules: Rule[] = [];
  private hits = 0;
  private readonly killed: string[] = [];
  readonly sent: SentOrder[] = [];
  private readonly original: Pick<ExchangeGateway, Exclude<Method, StopMethod>> & Partial<VenueStops>;

  constructor(private readonly gateway: ExchangeGateway) {
    this.original = {
      fetchTicker: gateway.fetchTicker.bind(gateway),
      createOrder: gateway.createOrder.bind(gateway),
      cancelOrder: gateway.cancelOrder.bind(gateway),
      fetchOrder: gateway.fetchOrder.bind(gateway),
      fetchOrderByClientId: gateway.fetchOrderByClientId.bind(gateway),
      fetchMyTrades: gateway.fetchMyTrades.bind(gateway),
      fetchOrderFills: gateway.fetchOrderFills.bind(gateway),
    };
    const g = gateway as unknown as Record<Method, (...args: unknown[]) => Promise<unknown>>;
    for (const method of Object.keys(this.original) as Method[])
      g[method] = (...args: unknown[]) => this.call(method, args);
    // Stop orders resting on the venue meet the same faults.
    const stops = gateway.stops;
    if (stops) {
      const wrapped = {} as Record<StopMethod, (...args: unknown[]) => Promise<unknown>>;
      for (const method of STOP_METHODS) {
        (this.original as Record<string, unknown>)[method] = (
          stops[method] as (...a: unknown[]) => unknown
        ).bind(stops);
        wrapped[method] = (...args: unknown[]) => this.call(method, args);
      }
      Object.defineProperty(gateway, 'stops', { value: wrapped });
    }
    // A venue behind a network from now on: an order it does not show may still be in flight.
    Object.defineProperty(gateway, 'sharesDatabase', { value: false });
  }

  /** The next `count` matching calls of `method` meet `fault`. */
  inject(method: Method, fault: VenueFault, options: { count?: number; match?: Rule['match'] } = {}) {
    this.rules.push({ method, fault, remaining: options.count ?? 1, match: options.match });
    return this;
  }

  /** The venue's trade list lags: no fills in answers or trade lists until `clear`. */
  lagTrades() {
    this.rules.push({ method: 'fetchMyTrades', fault: 'laggingTrades', remaining: Infinity });
    this.rules.push({ method: 'fetchOrderFills', fault: 'laggingTrades', remaining: Infinity });
    this.rules.push({ method: 'createOrder', fault: 'laggingTrades', remaining: Infinity });
    return this;
  }

  clear() {
    this.rules = [];
  }

  /** Whether any injected fault met a call. */
  fired() {
    return this.hits > 0;
  }

  /**
   * The restart after a `killed` fault: each killed order's row back to what was committed before its call
   * (sent, no answer), its fills gone — what a process that died mid-call leaves behind.
   */
  async restartAfterKill(pool: { query(sql: string, params: unknown[]): Promise<unknown> }) {
    for (const clientOrderId of this.killed.splice(0)) {
      await pool.query(
        `DELETE FROM fills WHERE order_id IN (SELECT id FROM orders WHERE client_order_id = $1)`,
        [clientOrderId],
      );
      await pool.query(
        `UPDATE orders SET status = 'submitted', venue_order_id = NULL, filled = 0, average = NULL,
           last_error = NULL WHERE client_order_id = $1`,
        [clientOrderId],
      );
      await pool.query(
        `UPDATE venue_stops SET status = 'submitted', venue_order_id = NULL, triggered_order_id = NULL,
           last_error = NULL WHERE client_order_id = $1`,
        [clientOrderId],
      );
    }
  }

  /** What the venue does with an order whose create call was lost in flight: it arrives late. */
  async deliverLate(clientOrderId: string) {
    const lost = this.sent.find((s) => s.clientOrderId === clientOrderId && !s.reached);
    if (!lost) throw new Error(`no lost order ${clientOrderId}`);
    lost.reached = true;
    return lost.stop
      ? this.original.placeStop!(lost.request as StopOrderRequest)
      : this.original.createOrder(lost.request as CreateOrderRequest);
  }

  /** Orders that reached the venue, by client order id. */
  reachedIds() {
    return this.sent.filter((s) => s.reached).map((s) => s.clientOrderId);
  }

  private take(method: Method, args: unknown[]): Rule | undefined {
    const rule = this.rules.find(
      (r) => r.method === method && r.remaining > 0 && (!r.match || r.match(args)),
    );
    if (rule && rule.fault !== 'laggingTrades') rule.remaining -= 1;
    if (rule) this.hits += 1;
    return rule;
  }

  private async call(method: Method, args: unknown[]): Promise<unknown> {
    const rule = this.take(method, args);
    const real = () => (this.original[method] as (...a: unknown[]) => Promise<unknown>)(...args);
    if (method === 'createOrder' || method === 'placeStop') {
      const request = args[0] as CreateOrderRequest | StopOrderRequest;
      const sent: SentOrder = {
        clientOrderId: request.clientOrderId,
        request,
        reached: false,
        ...(method === 'placeStop' ? { stop: true } : {}),
      };
      this.sent.push(sent);
      switch (rule?.fault) {
        case 'refused':
          throw new InvalidOrderError('Filter failure: NOTIONAL');
        case 'insufficient':
          throw new InsufficientFundsError('Account has insufficient balance for requested action.');
        case 'rateLimited':
          throw new RateLimitedError('Too many requests', 50);
        case 'timeout':
          throw new UnknownOutcomeError('Request timed out');
        case 'timeoutAfterAccept':
          sent.reached = true;
          await real();
          throw new UnknownOutcomeError('Request timed out');
        case 'killed':
          sent.reached = true;
          await real();
          this.killed.push(request.clientOrderId);
          throw new ProcessKilled();
        case 'laggingTrades': {
          sent.reached = true;
          const order = (await real()) as { fills?: unknown };
          return { ...order, fills: undefined };
        }
        default:
          sent.reached = true;
          return real();
      }
    }
    switch (rule?.fault) {
      case undefined:
        return real();
      case 'laggingTrades':
        return [];
      case 'notFound':
        throw new OrderNotFoundError('Unknown order sent.');
      case 'rateLimited':
        throw new RateLimitedError('Too many requests', 50);
      case 'timeout':
        // A cancel is a mutation: without an answer its outcome is unknown; a read is just retried.
        throw method === 'cancelOrder' || method === 'cancelStop'
          ? new UnknownOutcomeError('Request timed out')
          : new RetryableExchangeError('Request timed out');
      case 'timeoutAfterAccept':
        await real();
        throw method === 'cancelOrder' || method === 'cancelStop'
          ? new UnknownOutcomeError('Request timed out')
          : new RetryableExchangeError('Request timed out');
      case 'refused':
        throw new InvalidOrderError('Refused');
      case 'insufficient':
        throw new InsufficientFundsError('Insufficient balance');
      case 'killed':
        // Only an order placement can be cut by a kill in a way that matters; elsewhere the call just fails.
        throw new ProcessKilled();
    }
  }
}
