import type { AccountMarketType } from './gateway';

/**
 * Per-venue differences, in one table. Code elsewhere asks the capability ("does this venue take reduceOnly
 * on spot?"), never the venue's name.
 */

/** How to learn whether an API key may withdraw, where the venue reports it. */
export interface WithdrawPermissionProbe {
  /** ccxt implicit API method to call. */
  method: string;
  /** Human-readable source, for the refusal message. */
  source: string;
  /** true/false when the response says, null when it does not. */
  canWithdraw: (response: unknown) => boolean | null;
}

export interface ExchangeCapabilities {
  id: string;
  displayName: string;
  marketTypes: readonly AccountMarketType[];
  /** ccxt `options.fetchMarkets.types` per account market type, so start-up loads only what we trade. */
  fetchMarketsTypes: Partial<Record<AccountMarketType, string[]>>;
  /** ccxt `options.defaultType` per account market type (balances, positions, open orders without symbol). */
  defaultType: Record<AccountMarketType, string>;
  /** Name of the createOrder param carrying our client order id. */
  clientOrderIdParam: string;
  clientOrderIdMaxLength: number;
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
   * Where a futures margin mode lives: set once per symbol (`symbol`: Binance, Bybit), or given with every
   * leverage call and order (`perOrder`: OKX's mgnMode and tdMode).
   */
  marginMode?: 'symbol' | 'perOrder';
  /**
   * How the venue says "slow down" besides HTTP 429/418 with Retry-After: an error answer with a 200 status
   * (`body`), and the response header holding when its limit resets, in epoch ms.
   */
  rateLimitSignal?: { body: RegExp; resetTimestampHeader: string };
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
  withdrawPermission: WithdrawPermissionProbe | null;
  /** Extra ccxt options merged into the instance. */
  options: Record<string, unknown>;
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

const binanceApiRestrictions: WithdrawPermissionProbe = {
  method: 'sapiGetAccountApiRestrictions',
  source: 'binance apiRestrictions',
  canWithdraw: (response) => {
    const value = record(response)?.enableWithdrawals;
    return typeof value === 'boolean' ? value : null;
  },
};

const binanceShared = {
  clientOrderIdParam: 'clientOrderId',
  clientOrderIdMaxLength: 36,
  fetchOrderByClientIdParam: 'clientOrderId',
  // Spot myTrades and USD-M userTrades both take orderId (and then no time window applies).
  orderTradesParam: 'orderId',
  originalClientOrderIdField: 'origClientOrderId',
  duplicateClientOrderId: /Duplicate order sent/i,
  reduceOnlyOnSpot: false,
  watchOrders: true,
  requiresPassword: false,
  withdrawPermission: binanceApiRestrictions,
  options: {
    warnOnFetchOpenOrdersWithoutSymbol: false,
    fetchOpenOrders: { warnWithoutSymbol: false },
  },
} as const;

const CAPABILITIES: Record<string, ExchangeCapabilities> = {
  binance: {
    ...binanceShared,
    id: 'binance',
    displayName: 'Binance',
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
    marketTypes: ['future'],
    fetchMarketsTypes: { future: ['linear'] },
    defaultType: { spot: 'swap', future: 'swap' },
    sandbox: { future: 'demo' },
    egressApi: { future: 'fapiPublic' },
  },
  bybit: {
    id: 'bybit',
    displayName: 'Bybit',
    marketTypes: ['spot', 'future'],
    fetchMarketsTypes: { spot: ['spot'], future: ['linear'] },
    defaultType: { spot: 'spot', future: 'swap' },
    clientOrderIdParam: 'clientOrderId',
    clientOrderIdMaxLength: 36,
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
    leverageUnchanged: /"retCode"\s*:\s*110043\b/,
    originalClientOrderIdField: null,
    duplicateClientOrderId:
      /"retCode"\s*:\s*(110072|170141)\b|OrderLinkedID is duplicate|Duplicate clientOrderId/i,
    reduceOnlyOnSpot: false,
    watchOrders: true,
    requiresPassword: false,
    sandbox: { spot: 'sandbox', future: 'sandbox' },
    egressApi: { spot: 'public', future: 'public' },
    withdrawPermission: {
      method: 'privateGetV5UserQueryApi',
      source: 'bybit query-api',
      canWithdraw: (response) => {
        const wallet = record(record(record(response)?.result)?.permissions)?.Wallet;
        return Array.isArray(wallet) ? wallet.includes('Withdraw') : null;
      },
    },
    options: {},
  },
  okx: {
    id: 'okx',
    displayName: 'OKX',
    marketTypes: ['spot', 'future'],
    fetchMarketsTypes: { spot: ['spot'], future: ['swap'] },
    defaultType: { spot: 'spot', future: 'swap' },
    clientOrderIdParam: 'clientOrderId',
    clientOrderIdMaxLength: 32,
    fetchOrderByClientIdParam: 'clientOrderId',
    // fills-history by ordId (3 months): 100 a page, newest first, older pages `after` the oldest billId.
    orderTradesParam: 'ordId',
    tradesCursor: { request: 'after', response: 'billId', pageSize: 100 },
    marginMode: 'perOrder',
    originalClientOrderIdField: null,
    // sCode 51016 (among the account's live orders), whatever words come with it.
    duplicateClientOrderId: /"sCode"\s*:\s*"51016"|Duplicated (clOrdId|client order ID)/i,
    reduceOnlyOnSpot: false,
    watchOrders: true,
    requiresPassword: true,
    sandbox: { spot: 'sandbox', future: 'sandbox' },
    egressApi: { spot: 'rest', future: 'rest' },
    withdrawPermission: {
      method: 'privateGetAccountConfig',
      source: 'okx account config',
      canWithdraw: (response) => {
        const data = record(response)?.data;
        const perm = Array.isArray(data) ? record(data[0])?.perm : undefined;
        return typeof perm === 'string' ? perm.split(',').includes('withdraw') : null;
      },
    },
    options: {},
  },
  kraken: {
    id: 'kraken',
    displayName: 'Kraken',
    marketTypes: ['spot'],
    fetchMarketsTypes: {},
    defaultType: { spot: 'spot', future: 'spot' },
    clientOrderIdParam: 'clientOrderId',
    clientOrderIdMaxLength: 36,
    fetchOrderByClientIdParam: null,
    orderTradesParam: null,
    originalClientOrderIdField: null,
    duplicateClientOrderId: null,
    reduceOnlyOnSpot: false,
    watchOrders: true,
    requiresPassword: false,
    sandbox: {},
    egressApi: { spot: 'public' },
    withdrawPermission: null,
    options: {},
  },
  kucoin: {
    id: 'kucoin',
    displayName: 'KuCoin',
    marketTypes: ['spot'],
    fetchMarketsTypes: { spot: ['spot'] },
    defaultType: { spot: 'spot', future: 'spot' },
    clientOrderIdParam: 'clientOrderId',
    clientOrderIdMaxLength: 40,
    fetchOrderByClientIdParam: 'clientOrderId',
    orderTradesParam: null,
    originalClientOrderIdField: null,
    duplicateClientOrderId: null,
    reduceOnlyOnSpot: false,
    watchOrders: true,
    requiresPassword: true,
    sandbox: {},
    egressApi: { spot: 'public' },
    withdrawPermission: null,
    options: {},
  },
  bitget: {
    id: 'bitget',
    displayName: 'Bitget',
    marketTypes: ['spot', 'future'],
    fetchMarketsTypes: { spot: ['spot'], future: ['swap'] },
    defaultType: { spot: 'spot', future: 'swap' },
    clientOrderIdParam: 'clientOrderId',
    clientOrderIdMaxLength: 50,
    fetchOrderByClientIdParam: null,
    orderTradesParam: null,
    originalClientOrderIdField: null,
    duplicateClientOrderId: /Duplicate clientOid/i,
    reduceOnlyOnSpot: false,
    watchOrders: true,
    requiresPassword: true,
    sandbox: {},
    egressApi: { spot: 'spot', future: 'mix' },
    withdrawPermission: null,
    options: {},
  },
};

/** Conservative defaults for a ccxt id we have no entry for: spot only, lookups emulated. */
function defaultCapabilities(id: string): ExchangeCapabilities {
  return {
    id,
    displayName: id,
    marketTypes: ['spot'],
    fetchMarketsTypes: {},
    defaultType: { spot: 'spot', future: 'swap' },
    clientOrderIdParam: 'clientOrderId',
    clientOrderIdMaxLength: 32,
    fetchOrderByClientIdParam: null,
    orderTradesParam: null,
    originalClientOrderIdField: null,
    duplicateClientOrderId: null,
    reduceOnlyOnSpot: false,
    watchOrders: false,
    requiresPassword: false,
    sandbox: { spot: 'sandbox' },
    egressApi: {},
    withdrawPermission: null,
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
