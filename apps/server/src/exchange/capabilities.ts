import type { AccountMarketType, StopOrderStatus } from './gateway';

/**
 * Per-venue differences, in one table. Code elsewhere asks the capability ("does this venue take reduceOnly
 * on spot?"), never the venue's name.
 */

/** How to learn what an API key may do (withdraw; trade the account's market type), where the venue says. */
export interface KeyPermissionProbe {
  /** ccxt implicit API method to call. */
  method: string;
  /** Human-readable source, for the refusal message. */
  source: string;
  /** true/false when the response says, null when it does not. */
  canWithdraw: (response: unknown) => boolean | null;
  /** Whether the key may place orders on the market type; null when the response does not say. */
  canTrade: (response: unknown, marketType: AccountMarketType) => boolean | null;
}

export interface ExchangeCapabilities {
  id: string;
  displayName: string;
  /**
   * Offered to users: the venue has a protocol test server and its column of the scenario suite and the fault
   * matrix passes (docs/venues.md). A venue without one is kept here, not offered.
   */
  proven: boolean;
  marketTypes: readonly AccountMarketType[];
  /** ccxt `options.fetchMarkets.types` per account market type, so start-up loads only what we trade. */
  fetchMarketsTypes: Partial<Record<AccountMarketType, string[]>>;
  /** ccxt `options.defaultType` per account market type (balances, positions, open orders without symbol). */
  defaultType: Record<AccountMarketType, string>;
  /** Name of the createOrder param carrying our client order id. */
  clientOrderIdParam: string;
  /** What the venue takes as a client order id (its documented length and characters). */
  clientOrderIdRule: { pattern: RegExp; description: string };
  /**
   * How our ids travel where they do not fit the rule as they are: `hex32` — the same 128 bits as 32 hex
   * digits, a "short UUID" (Kraken: a UUID, or at most 18 characters of text). Orders read back carry ours.
   */
  clientOrderIdEncoding?: 'hex32';
  /** fetchOrder param to look an order up by client id; null: search open then closed orders instead. */
  fetchOrderByClientIdParam: string | null;
  /**
   * Param of the trade list (ccxt `fetchMyTrades`) that restricts it to one order, where the venue has one;
   * null: ccxt's `fetchOrderTrades` where it exists, else the trade list paged from the order's creation.
   */
  orderTradesParam: string | null;
  /**
   * Where ccxt's fetchOrder cannot read one order back (Bybit v5: it refuses to run without `acknowledged`,
   * since the open-orders list it asks answers for the last 500 ended orders only): the open-orders list
   * filtered by the order's id (`idParam`) or client id (`clientIdParam`), then the ended orders the same way
   * (`endedOrdersMethod`, the venue's order history). Absent: ccxt's fetchOrder.
   */
  orderListLookup?: {
    idParam: string;
    clientIdParam: string;
    endedOrdersMethod: 'fetchCanceledAndClosedOrders';
  };
  /**
   * The trade list's page cursor: request param and the raw field ccxt leaves in `info` (Bybit). With
   * `pageSize` (OKX): the list comes newest first, the cursor is the oldest row's (numeric) field, and only
   * a full page has another after it.
   */
  tradesCursor?: { request: string; response: string; pageSize?: number };
  /**
   * Where a futures margin mode lives: set once per symbol (`symbol`: Binance), for the whole account
   * (`account`: a Bybit unified account — its bots must share one mode), or given with every leverage call and
   * order (`perOrder`: OKX's mgnMode and tdMode).
   */
  marginMode?: 'symbol' | 'perOrder' | 'account';
  /**
   * How the venue says "slow down" besides HTTP 429/418 with Retry-After: an error answer with a 200 status
   * (`body`), and the response header holding when its limit resets, in epoch ms.
   */
  rateLimitSignal?: { body: RegExp; resetTimestampHeader: string };
  /** The venue's refusal of a request whose timestamp is outside its receive window (clock skew). */
  clockSkew?: RegExp;
  /** The venue's refusal of a leverage the symbol already has: setLeverage then succeeds. */
  leverageUnchanged?: RegExp;
  /** Raw response field holding the original client id when the venue echoes a new id (Binance cancels). */
  originalClientOrderIdField: string | null;
  /** The venue's refusal of a reused client order id: the gateway then returns the existing order. */
  duplicateClientOrderId: RegExp | null;
  reduceOnlyOnSpot: boolean;
  watchOrders: boolean;
  /** Needs a passphrase besides key and secret. */
  requiresPassword: boolean;
  /** How sandbox mode is switched on per market type; absent: the venue has no sandbox for it. */
  sandbox: Partial<Record<AccountMarketType, 'sandbox' | 'demo'>>;
  /** `urls.api` entry whose origin identifies the egress (throttle key), per market type. */
  egressApi: Partial<Record<AccountMarketType, string>>;
  keyPermissions: KeyPermissionProbe | null;
  /**
   * How to read the futures position mode (Kairos trades one-way positions): ccxt's fetchPositionMode, or the
   * position list of a symbol, whose records say their side (`positions`: Bybit, positionIdx 1/2 in hedge
   * mode). Absent: the venue is not asked.
   */
  positionMode?: 'fetchPositionMode' | 'positions';
  /**
   * Stop orders resting on the venue (`ExchangeGateway.stops`), per account market type; absent: Kairos
   * watches the stop itself.
   */
  venueStops?: Partial<Record<AccountMarketType, VenueStopsCapability>>;
  /** Extra ccxt options merged into the instance. */
  options: Record<string, unknown>;
}

/**
 * How a venue's resting stop travels through ccxt: placed with `createOrder(symbol, 'market', side, amount,
 * undefined, { triggerPrice, reduceOnly: true, clientOrderId, ...params })` — a stop-limit (`stopLimit`, spot)
 * with `createOrder(symbol, 'limit', side, amount, limitPrice, { triggerPrice, clientOrderId, ...params })`,
 * nothing being reduce-only on spot —, looked up and cancelled with `lookupParams`, and read back from the raw
 * answer (`info`).
 */
export interface VenueStopsCapability {
  /**
   * The stop is a stop-limit (spot): it needs the request's `limitPrice`, and once triggered the venue works a
   * limit order at it. Absent: a reduce-only stop-market (futures).
   */
  stopLimit?: {
    /** Raw field holding the limit price, read before ccxt's `price` (OKX `slOrdPx`). */
    limitPriceField?: string;
    /**
     * Raw boolean field saying the stop works as its limit order (Binance spot `isWorking`, one order from
     * placement to fill): while true the order's own status (NEW, CANCELED…) reads as triggered. An answer
     * without it (Binance's cancel) is read again.
     */
    workingField?: string;
    /**
     * The venue reads the trigger's direction from where the last price is (Bybit spot: no triggerDirection),
     * so a stop the price is already through would rest as one waiting for the price to come back: refused
     * here instead, from the ticker, as the other venues refuse it.
     */
    checkTriggerSide?: boolean;
  };
  /** createOrder params besides trigger price, reduce-only and client id (Binance: workingType MARK_PRICE). */
  params: Record<string, unknown>;
  /** fetchOrder/cancelOrder params that address stops (Binance `trigger`: the Algo Service endpoints). */
  lookupParams: Record<string, unknown>;
  /** fetchOrder param carrying the client id of a stop (Binance `clientAlgoId`). */
  clientIdParam: string;
  /** Raw field holding the stop's own status (Binance `algoStatus`), and what each value means. */
  statusField: string;
  /**
   * 'triggered' stands only with the order it sent named (`triggeredOrderIdField`); without it the stop reads
   * as still open (triggering: the order is not known yet — ask again).
   */
  statuses: Record<string, StopOrderStatus>;
  /** Raw field naming the order a triggered stop sent (Binance `actualOrderId`, '' before). */
  triggeredOrderIdField: string;
  /** createOrder param carrying our client id, when not ccxt's `clientOrderId` (OKX `algoClOrdId`). */
  placeClientIdParam?: string;
  /** createOrder param carrying the trigger price, when not ccxt's `triggerPrice` (OKX `stopLossPrice`). */
  triggerPriceParam?: string;
  /** Raw field holding the stop's client id, when ccxt's `clientOrderId` is another (OKX `algoClOrdId`). */
  clientIdField?: string;
  /** Raw field holding the trigger price, read before ccxt's `triggerPrice` (OKX `slTriggerPx`). */
  triggerPriceField?: string;
  /** cancelOrder params, where they differ from `lookupParams` (Bybit: ccxt sends `trigger` on as is). */
  cancelParams?: Record<string, unknown>;
  /**
   * createOrder param `triggerDirection` per stop side, where ccxt needs it (Bybit): a buy stop (closing a
   * short) triggers on a rise, a sell stop on a fall.
   */
  triggerDirection?: { buy: string; sell: string };
  /**
   * Where the lookup answers for recent stops only (Bybit: the last 500 ended orders, forgotten on a service
   * restart): the venue's order history, filtered by the stop's id (`idParam`) or client id (`clientIdParam`).
   */
  endedStops?: {
    method: 'fetchCanceledAndClosedOrders';
    params: Record<string, unknown>;
    idParam: string;
  };
}

/**
 * Binance USDⓈ-M conditional orders, in the Algo Service since Dec 2025 (ccxt 4.5 routes a linear createOrder
 * with a trigger price to POST /fapi/v1/algoOrder, algoType=CONDITIONAL, type STOP_MARKET, our id as
 * clientAlgoId). Statuses: the ALGO_UPDATE "Algo Status" list in Binance's user-data-stream docs.
 */
const binanceAlgoStops: VenueStopsCapability = {
  params: { workingType: 'MARK_PRICE' },
  lookupParams: { trigger: true },
  clientIdParam: 'clientAlgoId',
  statusField: 'algoStatus',
  statuses: {
    NEW: 'open',
    TRIGGERING: 'open',
    TRIGGERED: 'triggered',
    FINISHED: 'triggered',
    CANCELED: 'cancelled',
    EXPIRED: 'expired',
    REJECTED: 'rejected',
  },
  triggeredOrderIdField: 'actualOrderId',
};

/**
 * OKX swaps: a stop-loss algo order (ccxt 4.5 sends `stopLossPrice` as POST /api/v5/trade/order-algo, ordType
 * conditional, slTriggerPx, slOrdPx -1 = market; our id as algoClOrdId, tdMode the account's margin mode),
 * triggered on the mark price, reduce-only. Reads and cancels go to trade/order-algo and trade/cancel-algos
 * (`trigger`). Algo states (OKX's "Get algo order details"): live, pause, partially_effective, effective
 * (its order placed: `ordId`), canceled, order_failed (the order it placed was refused: the position was gone).
 */
const okxAlgoStops: VenueStopsCapability = {
  params: { slTriggerPxType: 'mark' },
  lookupParams: { trigger: true },
  clientIdParam: 'clientOrderId',
  statusField: 'state',
  statuses: {
    live: 'open',
    pause: 'open',
    partially_effective: 'open',
    effective: 'triggered',
    canceled: 'cancelled',
    order_failed: 'expired',
  },
  triggeredOrderIdField: 'ordId',
  placeClientIdParam: 'algoClOrdId',
  triggerPriceParam: 'stopLossPrice',
  clientIdField: 'algoClOrdId',
  triggerPriceField: 'slTriggerPx',
};

/**
 * Bybit v5 linear conditional orders (ccxt 4.5: a linear createOrder with `triggerPrice` and
 * `triggerDirection` sends /v5/order/create with them; `trigger` reads /v5/order/realtime with
 * `orderFilter=StopOrder`, `acknowledged` lets fetchOrder ask it). A triggered conditional order keeps its
 * orderId and becomes the market order (Untriggered → Triggered → Filled), so the stop names itself as the
 * order it sent; one cancelled before its trigger is Deactivated, so a Cancelled one had triggered (its
 * reduce-only market order ended short: fills, if any, are the exit).
 */
const bybitConditionalStops: VenueStopsCapability = {
  params: { triggerBy: 'MarkPrice' },
  lookupParams: { trigger: true, acknowledged: true },
  cancelParams: {},
  clientIdParam: 'orderLinkId',
  statusField: 'orderStatus',
  statuses: {
    Untriggered: 'open',
    Triggered: 'open',
    New: 'open',
    PartiallyFilled: 'open',
    Filled: 'triggered',
    Cancelled: 'triggered',
    PartiallyFilledCanceled: 'triggered',
    Deactivated: 'cancelled',
    Rejected: 'rejected',
  },
  triggeredOrderIdField: 'orderId',
  triggerDirection: { buy: 'ascending', sell: 'descending' },
  endedStops: { method: 'fetchCanceledAndClosedOrders', params: { trigger: true }, idParam: 'orderId' },
};

/**
 * Binance spot stop-limits: one order from placement to fill (ccxt 4.5 sends a spot limit createOrder with a
 * trigger price as POST /api/v3/order type STOP_LOSS_LIMIT, stopPrice, price, timeInForce GTC; our id as
 * newClientOrderId). It locks what it sells at once and works as a LIMIT order, same orderId, once the last
 * price reaches its stop (`isWorking`); read and cancelled as any order.
 */
const binanceSpotStopLimits: VenueStopsCapability = {
  stopLimit: { workingField: 'isWorking' },
  params: { timeInForce: 'GTC' },
  lookupParams: {},
  clientIdParam: 'clientOrderId',
  statusField: 'status',
  statuses: {
    NEW: 'open',
    PENDING_NEW: 'open',
    PARTIALLY_FILLED: 'triggered',
    FILLED: 'triggered',
    PENDING_CANCEL: 'open',
    CANCELED: 'cancelled',
    EXPIRED: 'expired',
    EXPIRED_IN_MATCH: 'expired',
    REJECTED: 'rejected',
  },
  triggeredOrderIdField: 'orderId',
  triggerPriceField: 'stopPrice',
};

/**
 * OKX spot stop-limits: a stop-loss algo order (ccxt 4.5 sends `stopLossPrice` with a limit price as POST
 * /api/v5/trade/order-algo, ordType conditional, slTriggerPx, slOrdPx = the limit; tdMode cash, which ccxt would
 * otherwise turn into the default margin mode for algo orders — on spot that would trade on margin),
 * triggered on the last price; OKX freezes what it sells from its placement on. Once triggered (`effective`) its
 * `ordId` is the limit order OKX placed, read as any order.
 */
const okxSpotStopLimits: VenueStopsCapability = {
  ...okxAlgoStops,
  stopLimit: { limitPriceField: 'slOrdPx' },
  params: { slTriggerPxType: 'last', tdMode: 'cash' },
};

/**
 * Bybit v5 spot stop-limits: a spot TP/SL order (orderFilter=tpslOrder, which holds what it sells from its
 * placement on; a spot conditional order, orderFilter=StopOrder, would take the coins only at its trigger, when
 * they may be gone). ccxt 4.5 sends a spot limit createOrder with `triggerPrice` as /v5/order/create with
 * orderFilter StopOrder and no triggerDirection (Bybit reads the direction from the last price, so the gateway
 * refuses a stop the price is already through); `orderFilter` in the params replaces it, on reads and cancels
 * too. Triggered, it keeps its orderId and becomes the limit order (Untriggered → Triggered → New → Filled); one
 * cancelled before its trigger is Deactivated.
 */
const bybitSpotStopLimits: VenueStopsCapability = {
  ...bybitConditionalStops,
  stopLimit: { checkTriggerSide: true },
  params: { orderFilter: 'tpslOrder' },
  lookupParams: { orderFilter: 'tpslOrder', acknowledged: true },
  cancelParams: { orderFilter: 'tpslOrder' },
  // Working once New: the limit order the stop became may rest.
  statuses: { ...bybitConditionalStops.statuses, New: 'triggered', PartiallyFilled: 'triggered' },
  // Spot trigger orders take no direction (ccxt refuses it there).
  triggerDirection: undefined,
  endedStops: {
    method: 'fetchCanceledAndClosedOrders',
    params: { orderFilter: 'tpslOrder' },
    idParam: 'orderId',
  },
};

/**
 * Spot stop-limits per venue (issue 18), ready for the capability rows' `venueStops.spot` once the engine sends
 * a limit price for spot stops; until then reached through `CcxtGatewayOptions.venueStops` (tests).
 */
export const SPOT_VENUE_STOPS: Readonly<Record<'binance' | 'okx' | 'bybit', VenueStopsCapability>> = {
  binance: binanceSpotStopLimits,
  okx: okxSpotStopLimits,
  bybit: bybitSpotStopLimits,
};

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

const flag = (response: unknown, field: string) => {
  const value = record(response)?.[field];
  return typeof value === 'boolean' ? value : null;
};

const binanceApiRestrictions: KeyPermissionProbe = {
  method: 'sapiGetAccountApiRestrictions',
  source: 'binance apiRestrictions',
  canWithdraw: (response) => flag(response, 'enableWithdrawals'),
  canTrade: (response, marketType) =>
    flag(response, marketType === 'future' ? 'enableFutures' : 'enableSpotAndMarginTrading'),
};

const binanceShared = {
  clientOrderIdParam: 'clientOrderId',
  // newClientOrderId: ^[\.A-Z\:/a-z0-9_-]{1,36}$
  clientOrderIdRule: {
    pattern: /^[.A-Z:/a-z0-9_-]{1,36}$/,
    description: 'up to 36 of A-Z a-z 0-9 . : / _ -',
  },
  fetchOrderByClientIdParam: 'clientOrderId',
  // Spot myTrades and USD-M userTrades both take orderId (and then no time window applies).
  orderTradesParam: 'orderId',
  originalClientOrderIdField: 'origClientOrderId',
  // Spot -2010 "Duplicate order sent."; USDⓈ-M -4116 "ClientOrderId is duplicated." (a reused clientAlgoId
  // is taken to answer the same: not documented).
  duplicateClientOrderId: /Duplicate order sent|"code"\s*:\s*-4116\b|ClientOrderId is duplicated/i,
  clockSkew: /"code"\s*:\s*-1021\b/,
  reduceOnlyOnSpot: false,
  watchOrders: true,
  requiresPassword: false,
  keyPermissions: binanceApiRestrictions,
  positionMode: 'fetchPositionMode',
  venueStops: { future: binanceAlgoStops },
  options: {
    warnOnFetchOpenOrdersWithoutSymbol: false,
    fetchOpenOrders: { warnWithoutSymbol: false },
  },
} as const;

/** OKX account config: `perm` lists what the key may do ('read_only,trade,withdraw'). */
function okxPermission(response: unknown, permission: string): boolean | null {
  const data = record(response)?.data;
  const perm = Array.isArray(data) ? record(data[0])?.perm : undefined;
  return typeof perm === 'string' ? perm.split(',').includes(permission) : null;
}

const CAPABILITIES: Record<string, ExchangeCapabilities> = {
  binance: {
    ...binanceShared,
    id: 'binance',
    displayName: 'Binance',
    proven: true,
    venueStops: { future: binanceAlgoStops, spot: SPOT_VENUE_STOPS.binance },
    marketTypes: ['spot', 'future'],
    fetchMarketsTypes: { spot: ['spot'], future: ['linear'] },
    defaultType: { spot: 'spot', future: 'swap' },
    // Binance retired the futures testnet for ccxt: futures "sandbox" is its demo trading environment.
    sandbox: { spot: 'sandbox', future: 'demo' },
    egressApi: { spot: 'public', future: 'fapiPublic' },
  },
  binanceusdm: {
    ...binanceShared,
    id: 'binanceusdm',
    displayName: 'Binance USDⓈ-M Futures',
    proven: true,
    marketTypes: ['future'],
    fetchMarketsTypes: { future: ['linear'] },
    defaultType: { spot: 'swap', future: 'swap' },
    sandbox: { future: 'demo' },
    egressApi: { future: 'fapiPublic' },
  },
  bybit: {
    id: 'bybit',
    displayName: 'Bybit',
    proven: true,
    marketTypes: ['spot', 'future'],
    fetchMarketsTypes: { spot: ['spot'], future: ['linear'] },
    defaultType: { spot: 'spot', future: 'swap' },
    clientOrderIdParam: 'clientOrderId',
    // orderLinkId: up to 36 letters, digits, dashes and underscores.
    clientOrderIdRule: { pattern: /^[A-Za-z0-9_-]{1,36}$/, description: 'up to 36 of A-Z a-z 0-9 _ -' },
    fetchOrderByClientIdParam: null,
    orderListLookup: {
      idParam: 'orderId',
      clientIdParam: 'orderLinkId',
      endedOrdersMethod: 'fetchCanceledAndClosedOrders',
    },
    // The execution list by orderId ignores the 7-day window; 50 a page, paged by cursor.
    orderTradesParam: 'orderId',
    tradesCursor: { request: 'cursor', response: 'nextPageCursor' },
    // retCode 10006 "Too many visits!" comes in a 200; every answer says when the limit resets.
    rateLimitSignal: {
      body: /"retCode"\s*:\s*10006\b/,
      resetTimestampHeader: 'x-bapi-limit-reset-timestamp',
    },
    // A unified account's margin mode (isolated / regular) is the whole account's, not a symbol's.
    marginMode: 'account',
    leverageUnchanged: /"retCode"\s*:\s*110043\b/,
    clockSkew: /"retCode"\s*:\s*10002\b/,
    originalClientOrderIdField: null,
    duplicateClientOrderId:
      /"retCode"\s*:\s*(110072|170141)\b|OrderLinkedID is duplicate|Duplicate clientOrderId/i,
    reduceOnlyOnSpot: false,
    watchOrders: true,
    requiresPassword: false,
    sandbox: { spot: 'sandbox', future: 'sandbox' },
    egressApi: { spot: 'public', future: 'public' },
    keyPermissions: {
      method: 'privateGetV5UserQueryApi',
      source: 'bybit query-api',
      canWithdraw: (response) => {
        const wallet = record(record(record(response)?.result)?.permissions)?.Wallet;
        return Array.isArray(wallet) ? wallet.includes('Withdraw') : null;
      },
      canTrade: (response, marketType) => {
        const result = record(record(response)?.result);
        if (result?.readOnly === 1 || result?.readOnly === '1') return false;
        const granted = record(result?.permissions)?.[marketType === 'future' ? 'ContractTrade' : 'Spot'];
        if (!Array.isArray(granted)) return null;
        return granted.includes(marketType === 'future' ? 'Order' : 'SpotTrade');
      },
    },
    positionMode: 'positions',
    venueStops: { future: bybitConditionalStops, spot: SPOT_VENUE_STOPS.bybit },
    options: {},
  },
  okx: {
    id: 'okx',
    displayName: 'OKX',
    proven: true,
    marketTypes: ['spot', 'future'],
    fetchMarketsTypes: { spot: ['spot'], future: ['swap'] },
    defaultType: { spot: 'spot', future: 'swap' },
    clientOrderIdParam: 'clientOrderId',
    // clOrdId: up to 32 case-sensitive letters and digits.
    clientOrderIdRule: { pattern: /^[A-Za-z0-9]{1,32}$/, description: 'up to 32 of A-Z a-z 0-9' },
    fetchOrderByClientIdParam: 'clientOrderId',
    // fills-history by ordId (3 months): 100 a page, newest first, older pages `after` the oldest billId.
    orderTradesParam: 'ordId',
    tradesCursor: { request: 'after', response: 'billId', pageSize: 100 },
    marginMode: 'perOrder',
    // 50102 "Timestamp request expired", 50112 "Invalid OK-ACCESS-TIMESTAMP".
    clockSkew: /"code"\s*:\s*"(50102|50112)"/,
    originalClientOrderIdField: null,
    // sCode 51016 (among the account's live orders; 51065 algoClOrdId of a live algo order), whatever words come
    // with it.
    duplicateClientOrderId:
      /"sCode"\s*:\s*"(51016|51065)"|Duplicated (clOrdId|client order ID)|algoClOrdId already exists/i,
    reduceOnlyOnSpot: false,
    watchOrders: true,
    requiresPassword: true,
    sandbox: { spot: 'sandbox', future: 'sandbox' },
    egressApi: { spot: 'rest', future: 'rest' },
    keyPermissions: {
      method: 'privateGetAccountConfig',
      source: 'okx account config',
      canWithdraw: (response) => okxPermission(response, 'withdraw'),
      canTrade: (response) => okxPermission(response, 'trade'),
    },
    positionMode: 'fetchPositionMode',
    venueStops: { future: okxAlgoStops, spot: SPOT_VENUE_STOPS.okx },
    options: {},
  },
  kraken: {
    id: 'kraken',
    displayName: 'Kraken',
    proven: false,
    marketTypes: ['spot'],
    fetchMarketsTypes: {},
    defaultType: { spot: 'spot', future: 'spot' },
    clientOrderIdParam: 'clientOrderId',
    // cl_ord_id: a UUID (with or without dashes), or free text of at most 18 characters.
    clientOrderIdRule: {
      pattern: /^([0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}|[\x20-\x7e]{1,18})$/i,
      description: 'a UUID, or up to 18 characters',
    },
    clientOrderIdEncoding: 'hex32',
    fetchOrderByClientIdParam: null,
    orderTradesParam: null,
    originalClientOrderIdField: null,
    duplicateClientOrderId: null,
    reduceOnlyOnSpot: false,
    watchOrders: true,
    requiresPassword: false,
    sandbox: {},
    egressApi: { spot: 'public' },
    keyPermissions: null,
    options: {},
  },
  kucoin: {
    id: 'kucoin',
    displayName: 'KuCoin',
    proven: false,
    marketTypes: ['spot'],
    fetchMarketsTypes: { spot: ['spot'] },
    defaultType: { spot: 'spot', future: 'spot' },
    clientOrderIdParam: 'clientOrderId',
    // clientOid: up to 40 letters, digits, underscores and dashes.
    clientOrderIdRule: { pattern: /^[A-Za-z0-9_-]{1,40}$/, description: 'up to 40 of A-Z a-z 0-9 _ -' },
    fetchOrderByClientIdParam: 'clientOrderId',
    orderTradesParam: null,
    originalClientOrderIdField: null,
    duplicateClientOrderId: null,
    reduceOnlyOnSpot: false,
    watchOrders: true,
    requiresPassword: true,
    sandbox: {},
    egressApi: { spot: 'public' },
    keyPermissions: null,
    options: {},
  },
  bitget: {
    id: 'bitget',
    displayName: 'Bitget',
    proven: false,
    marketTypes: ['spot', 'future'],
    fetchMarketsTypes: { spot: ['spot'], future: ['swap'] },
    defaultType: { spot: 'spot', future: 'swap' },
    clientOrderIdParam: 'clientOrderId',
    // clientOid: up to 50 letters, digits, underscores and dashes.
    clientOrderIdRule: { pattern: /^[A-Za-z0-9_-]{1,50}$/, description: 'up to 50 of A-Z a-z 0-9 _ -' },
    fetchOrderByClientIdParam: null,
    orderTradesParam: null,
    originalClientOrderIdField: null,
    duplicateClientOrderId: /Duplicate clientOid/i,
    reduceOnlyOnSpot: false,
    watchOrders: true,
    requiresPassword: true,
    sandbox: {},
    egressApi: { spot: 'spot', future: 'mix' },
    keyPermissions: null,
    options: {},
  },
};

/** Conservative defaults for a ccxt id we have no entry for: spot only, lookups emulated. */
function defaultCapabilities(id: string): ExchangeCapabilities {
  return {
    id,
    displayName: id,
    proven: false,
    marketTypes: ['spot'],
    fetchMarketsTypes: {},
    defaultType: { spot: 'spot', future: 'swap' },
    clientOrderIdParam: 'clientOrderId',
    clientOrderIdRule: { pattern: /^[A-Za-z0-9]{1,32}$/, description: 'up to 32 of A-Z a-z 0-9' },
    fetchOrderByClientIdParam: null,
    orderTradesParam: null,
    originalClientOrderIdField: null,
    duplicateClientOrderId: null,
    reduceOnlyOnSpot: false,
    watchOrders: false,
    requiresPassword: false,
    sandbox: { spot: 'sandbox' },
    egressApi: {},
    keyPermissions: null,
    options: {},
  };
}

export function capabilitiesFor(exchangeId: string): ExchangeCapabilities {
  return CAPABILITIES[exchangeId] ?? defaultCapabilities(exchangeId);
}

/** Venues with a curated entry, in display order (the paper venue is offered separately, first). */
export function knownVenues(): ExchangeCapabilities[] {
  return Object.values(CAPABILITIES);
}

/** The venues users may connect: those the test suites prove (see `proven`). */
export function offeredVenues(): ExchangeCapabilities[] {
  return knownVenues().filter((v) => v.proven);
}
