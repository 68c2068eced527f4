/**
 * A local server speaking the subset of OKX's v5 REST protocol (trading account in "Spot and futures" mode:
 * spot, and linear USDT perpetual swaps) that ccxt's okx uses for Kairos' operations — TEST CODE ONLY.
 *
 * Written from OKX's v5 API documentation (REST authentication, public-data instruments and time, market
 * ticker/books/candles, account balance/config/positions/set-leverage/set-position-mode, trade
 * order/batch-orders/cancel-order/orders-pending/orders-history/fills/fills-history, the error-code table)
 * and the requests ccxt sends. Private endpoints check `OK-ACCESS-KEY`, `OK-ACCESS-PASSPHRASE`,
 * `OK-ACCESS-TIMESTAMP` (ISO 8601 with milliseconds, at most 30 s off) and `OK-ACCESS-SIGN` (base64
 * HMAC-SHA256 of timestamp + method + request path with its query + body) as OKX does, and answer with OKX's
 * envelope (`{"code":"0","msg":"","data":[…]}`): order operations with a per-order `sCode`/`sMsg` under
 * `code` "1", everything else with the error code itself — so ccxt maps them as in production.
 *
 * What the documentation says and this server does:
 * - one trading account per key for spot and swaps (`account/balance`: `cashBal`, `eq`, `availEq`,
 *   `frozenBal`); spot orders (`tdMode` cash) lock what they may spend, swap positions and orders hold
 *   initial margin at the instrument's leverage (`tdMode` cross or isolated, `mgnMode` for set-leverage);
 * - swap sizes are contracts of `ctVal` base each; `lotSz`, `minSz` and `tickSz` are enforced (51121,
 *   51020, 51000 px), a spot market buy takes `tgtCcy` base_ccy or quote_ccy;
 * - `trade/order` and `trade/batch-orders` acknowledge with the ids only (`ordId`, `clOrdId`, `sCode` 0);
 *   `clOrdId` is up to 32 letters and digits, unique among the account's live orders (51016);
 * - position mode: in `net_mode` a `posSide` other than net is refused (51000 posSide), in
 *   `long_short_mode` a swap order without long/short is refused the same way (`setPositionMode`);
 * - reduce-only: refused on spot in cash mode (51205), refused when there is no position to reduce in that
 *   direction (51169) or the order would add to it (51170); it fills at most the position, the rest is
 *   cancelled (it never opens the other side);
 * - `trade/order` (GET) finds one order by `ordId` or `clOrdId` (51603 when unknown); `orders-history`
 *   lists the ended orders of the last 7 days, and like `trade/order` forgets cancelled orders without
 *   fills after 2 hours; `fills` covers 3 days and `fills-history` 3 months, newest first, 100 a page at
 *   most, paged by `billId` with `after` (older) and `before` (newer), filtered by `ordId`;
 * - funding (hook `chargeFunding`): every swap holder pays (long, positive rate) or receives contracts ×
 *   ctVal × mark price × rate in its USDT cash balance, as a bill of type 8 (subType 173 expense, 174 income;
 *   `balChg` and `pnl` the signed amount, `sz` the contracts, `px` the mark price) and in the position's
 *   `fundingFee` (part of its `realizedPnl`); `account/bills` (7 days) and `account/bills-archive` (3 months,
 *   what ccxt's fetchFundingHistory reads) also list every swap fill (type 2; spot bills are not modelled),
 *   newest first, paged by `billId`; `public/funding-rate` answers the rate last charged.
 * - algo orders (swaps; issue 18): `trade/order-algo` takes `conditional` (stop loss: `slTriggerPx`,
 *   `slOrdPx` -1 for market, `slTriggerPxType` last/mark/index) and `trigger` (`triggerPx`, `orderPx`,
 *   `triggerPxType`) with `sz`, `tdMode`, `posSide`, `reduceOnly` and `algoClOrdId` (up to 32 letters and
 *   digits, unique among the account's live algos: 51065), acknowledged with `algoId`/`algoClOrdId`; a stop
 *   loss its price already passed is refused (sell: 51280, buy: 51278), a reduce-only one with no position
 *   to reduce 51169, one adding to the position 51170. The mark price is the last price here, so every
 *   trigger type reads the same price. When `setPrice` reaches the trigger the algo becomes `effective` and
 *   places its order (market at -1) as `trade/order` would (reduce-only: at most the position, fees and PnL as
 *   any fill), named by the algo's `ordId`/`ordIdList`, `actualSz`, `actualPx`, `actualSide` sl and
 *   `triggerTime`; an order the venue refuses then (the position is gone: 51169) leaves it `order_failed`
 *   with that `failCode`. `trade/cancel-algos` (a list; 51400 for an algo no longer live), `trade/order-algo`
 *   (GET, by `algoId` or `algoClOrdId`, 51603 unknown), `orders-algo-pending` and `orders-algo-history`
 *   (`ordType` required, comma-separated; history also `state` or `algoId`), newest first, paged by `algoId`.
 *
 * Orders are matched for real against synthetic liquidity around the current price plus other accounts'
 * resting orders; resting orders fill when the price moves through them (`setPrice`). Test hooks answer the
 * next calls with a rate-limit refusal (HTTP 429, code 50011), delay answers after the request was
 * processed, switch an account's position mode, cancel an order as a user would on the website and age
 * the records.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Decimal } from '../../src/exchange/decimal';
import {
  closeServer,
  listenOnLoopback,
  priceAt,
  takeInjection,
  type Injection,
  type PricePoint,
} from './venue-kit';

type InstType = 'SPOT' | 'SWAP';
type Side = 'buy' | 'sell';
type OrdType = 'market' | 'limit' | 'post_only' | 'ioc' | 'fok';
type OkxOrderState = 'live' | 'partially_filled' | 'filled' | 'canceled';
export type OkxPositionMode = 'net_mode' | 'long_short_mode';
type PosSide = 'net' | 'long' | 'short';

export interface OkxTestMarket {
  base: string;
  quote: string;
  /** Initial last price (spot and swap share it). */
  price: string;
  spot: { tickSz: string; lotSz: string; minSz: string };
  swap: { tickSz: string; lotSz: string; minSz: string; ctVal: string; maxLever: number };
  /** Base quantity offered at each synthetic level. */
  levelQty: string;
  /** Distance between synthetic levels, in quote. */
  levelStep: string;
}

export interface OkxTestAccountSpec {
  apiKey: string;
  secret: string;
  passphrase: string;
  /** Trading account: currency → cash balance. */
  balances?: Record<string, string>;
  canWithdraw?: boolean;
  /** A read-only key (`perm` without `trade`). */
  readOnly?: boolean;
  posMode?: OkxPositionMode;
  /** A demo-trading key: answers only requests with `x-simulated-trading: 1` (ccxt's sandbox mode). */
  demo?: boolean;
}

export interface OkxRecordedRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: string;
  body: string;
  status: number;
  /** The envelope's `code`, and the per-order `sCode`s of an order operation. */
  code: string;
  sCodes: string[];
  apiKey: string | undefined;
  receivedAt: number;
}

/** A bill of the trading account (`account/bills`, `bills-archive`): swap fills (type 2) and funding (8). */
interface BillState {
  billId: string;
  apiKey: string;
  inst: Instrument;
  type: '2' | '8';
  subType: string;
  ts: number;
  /** Signed change of the cash balance, and the balance after it. */
  balChg: Decimal;
  bal: Decimal;
  /** Contracts (fill size, or the position for funding). */
  sz: Decimal;
  /** Fill price, or the mark price for funding. */
  px: Decimal;
  pnl: Decimal;
  fee: Decimal;
  mgnMode: string;
  fill: FillState | null;
}

interface PairState {
  id: string;
  spec: OkxTestMarket;
  price: Decimal;
  history: PricePoint[];
}

interface Instrument {
  instId: string;
  instType: InstType;
  pair: PairState;
  tickSz: Decimal;
  lotSz: Decimal;
  minSz: Decimal;
  /** Base per contract; 1 on spot (sizes are base there). */
  ctVal: Decimal;
  maxLever: number;
}

interface Position {
  /** Contracts, signed: > 0 long, < 0 short (a `short` leg of long/short mode is ≤ 0). */
  pos: Decimal;
  avgPx: Decimal;
  posId: string;
  cTime: number;
  uTime: number;
  realizedPnl: Decimal;
  fee: Decimal;
  /** Accumulated funding, signed (< 0: paid). */
  fundingFee: Decimal;
}

interface Account {
  apiKey: string;
  secret: string;
  passphrase: string;
  uid: string;
  canWithdraw: boolean;
  readOnly: boolean;
  demo: boolean;
  posMode: OkxPositionMode;
  cash: Map<string, Decimal>;
  /** instId|posSide → position. */
  positions: Map<string, Position>;
  /** instId → leverage of cross (and isolated) positions. */
  leverage: Map<string, number>;
}

interface OrderState {
  ordId: string;
  clOrdId: string;
  tag: string;
  apiKey: string;
  inst: Instrument;
  side: Side;
  posSide: PosSide;
  ordType: OrdType;
  tdMode: string;
  tgtCcy: string;
  /** Limit price; null for market orders. */
  px: Decimal | null;
  /** In instrument units (contracts on swaps, base on spot; quote for a spot market buy in quote_ccy). */
  sz: Decimal;
  /** Base size a quote_ccy market buy became; else `sz`. */
  execSz: Decimal;
  accFillSz: Decimal;
  fillNotional: Decimal;
  state: OkxOrderState;
  reduceOnly: boolean;
  /** Negative: what was charged. */
  fee: Decimal;
  feeCcy: string;
  pnl: Decimal;
  lever: number;
  last: FillState | null;
  cancelSource: string;
  cTime: number;
  uTime: number;
  /** Spot: what the unfilled part still locks, in `lockCcy`. */
  locked: Decimal;
  lockCcy: string;
}

interface FillState {
  billId: string;
  tradeId: string;
  order: OrderState;
  px: Decimal;
  sz: Decimal;
  fee: Decimal;
  feeCcy: string;
  execType: 'T' | 'M';
  fillPnl: Decimal;
  ts: number;
}

type AlgoOrdType = 'conditional' | 'trigger';
type OkxAlgoState = 'live' | 'effective' | 'canceled' | 'order_failed';

interface AlgoState {
  algoId: string;
  algoClOrdId: string;
  tag: string;
  apiKey: string;
  inst: Instrument;
  side: Side;
  posSide: PosSide;
  ordType: AlgoOrdType;
  tdMode: string;
  sz: Decimal;
  reduceOnly: boolean;
  triggerPx: Decimal;
  triggerPxType: string;
  /** Order price once triggered; null: market (-1). */
  orderPx: Decimal | null;
  /** Which way the price must go to reach the trigger. */
  direction: 'down' | 'up';
  state: OkxAlgoState;
  /** The order it placed when triggered; '' before. */
  ordId: string;
  /** A spot algo's frozen amount until it triggers or is cancelled (base for a sell, quote for a buy). */
  locked: Decimal;
  lockCcy: string;
  failCode: string;
  triggerTime: number | null;
  cTime: number;
  uTime: number;
}

class OkxApiError extends Error {
  constructor(
    readonly status: number,
    readonly okxCode: string,
    message: string,
  ) {
    super(message);
  }
}

/** A refusal of one order in an order operation (answered under code "1" with its sCode). */
class OrderRefusal extends Error {
  constructor(
    readonly sCode: string,
    message: string,
  ) {
    super(message);
  }
}

const FEES = {
  SPOT: { maker: new Decimal('0.0008'), taker: new Decimal('0.001') },
  SWAP: { maker: new Decimal('0.0002'), taker: new Decimal('0.0005') },
} as const;
const SYNTHETIC_LEVELS = 20;
const DEFAULT_LEVERAGE = 10;
const MAX_CLOCK_SKEW_MS = 30_000;
const PAGE_LIMIT = 100;
const DAY_MS = 86_400_000;
/** Cancelled orders without fills are kept this long (order details and history). */
const UNFILLED_CANCEL_RETENTION_MS = 2 * 3_600_000;
const CLORDID = /^[A-Za-z0-9]{1,32}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const HK_OFFSET_MS = 8 * 3_600_000;
/** Swaps settle funding every 8 hours (OKX may shorten it for some contracts). */
const FUNDING_INTERVAL_MS = 8 * 3_600_000;
/** The rate public/funding-rate shows before any `chargeFunding`. */
const DEFAULT_FUNDING_RATE = new Decimal('0.0001');

export const DEFAULT_OKX_MARKETS: Record<string, OkxTestMarket> = {
  'BTC-USDT': {
    base: 'BTC',
    quote: 'USDT',
    price: '65000',
    spot: { tickSz: '0.1', lotSz: '0.00000001', minSz: '0.00001' },
    swap: { tickSz: '0.1', lotSz: '0.01', minSz: '0.01', ctVal: '0.01', maxLever: 100 },
    levelQty: '0.5',
    levelStep: '1',
  },
  'ETH-USDT': {
    base: 'ETH',
    quote: 'USDT',
    price: '3200',
    spot: { tickSz: '0.01', lotSz: '0.000001', minSz: '0.0001' },
    swap: { tickSz: '0.01', lotSz: '0.01', minSz: '0.01', ctVal: '0.1', maxLever: 100 },
    levelQty: '5',
    levelStep: '0.1',
  },
  'SOL-USDT': {
    base: 'SOL',
    quote: 'USDT',
    price: '150',
    spot: { tickSz: '0.01', lotSz: '0.000001', minSz: '0.001' },
    swap: { tickSz: '0.01', lotSz: '0.01', minSz: '0.01', ctVal: '1', maxLever: 50 },
    levelQty: '50',
    levelStep: '0.02',
  },
};

/** OKX's signature: base64 HMAC-SHA256 of timestamp + method + request path (with query) + body. */
export function okxSignature(
  secret: string,
  timestamp: string,
  method: string,
  requestPath: string,
  body = '',
): string {
  return createHmac('sha256', secret)
    .update(timestamp + method + requestPath + body)
    .digest('base64');
}

const BARS: Record<string, { ms: number; offsetMs: number }> = {
  '1m': { ms: 60_000, offsetMs: 0 },
  '3m': { ms: 180_000, offsetMs: 0 },
  '5m': { ms: 300_000, offsetMs: 0 },
  '15m': { ms: 900_000, offsetMs: 0 },
  '30m': { ms: 1_800_000, offsetMs: 0 },
  '1H': { ms: 3_600_000, offsetMs: 0 },
  '2H': { ms: 7_200_000, offsetMs: 0 },
  '4H': { ms: 14_400_000, offsetMs: 0 },
  // Without the utc suffix, 6 h and longer bars open on Hong Kong time.
  '6H': { ms: 21_600_000, offsetMs: HK_OFFSET_MS },
  '12H': { ms: 43_200_000, offsetMs: HK_OFFSET_MS },
  '1D': { ms: DAY_MS, offsetMs: HK_OFFSET_MS },
  '1W': { ms: 7 * DAY_MS, offsetMs: HK_OFFSET_MS },
  '6Hutc': { ms: 21_600_000, offsetMs: 0 },
  '12Hutc': { ms: 43_200_000, offsetMs: 0 },
  '1Dutc': { ms: DAY_MS, offsetMs: 0 },
  '1Wutc': { ms: 7 * DAY_MS, offsetMs: 0 },
};

/** Open time of the bar holding `time` (weeks open on Monday; 1970-01-05 was one). */
function barOpen(time: number, bar: { ms: number; offsetMs: number }): number {
  const anchor = bar.ms === 7 * DAY_MS ? 4 * DAY_MS : 0;
  const local = time + bar.offsetMs - anchor;
  return Math.floor(local / bar.ms) * bar.ms + anchor - bar.offsetMs;
}

const s = (value: Decimal) => value.toFixed();
const isMultiple = (value: Decimal, step: Decimal) => step.isZero() || value.mod(step).isZero();
const feeOf = (notional: Decimal, rate: Decimal) => notional.times(rate).toDecimalPlaces(8, Decimal.ROUND_UP);

/** Private endpoints this server answers (anything else is 404 before authentication). */
const PRIVATE_ENDPOINTS = new Set([
  'GET /api/v5/account/balance',
  'GET /api/v5/account/config',
  'POST /api/v5/account/set-position-mode',
  'POST /api/v5/account/set-leverage',
  'GET /api/v5/account/positions',
  'POST /api/v5/trade/order',
  'POST /api/v5/trade/batch-orders',
  'POST /api/v5/trade/cancel-order',
  'GET /api/v5/trade/order',
  'GET /api/v5/trade/orders-pending',
  'GET /api/v5/trade/orders-history',
  'GET /api/v5/trade/fills',
  'GET /api/v5/trade/fills-history',
  'GET /api/v5/account/bills',
  'GET /api/v5/account/bills-archive',
  'POST /api/v5/trade/order-algo',
  'POST /api/v5/trade/cancel-algos',
  'GET /api/v5/trade/order-algo',
  'GET /api/v5/trade/orders-algo-pending',
  'GET /api/v5/trade/orders-algo-history',
]);

export class OkxTestServer {
  /** How far the venue's clock runs ahead of this host's (ms; negative: behind) — a host clock that drifted. */
  clockOffsetMs = 0;
  readonly requests: OkxRecordedRequest[] = [];
  private server: Server | null = null;
  private originUrl = '';
  private readonly pairs = new Map<string, PairState>();
  private readonly instruments = new Map<string, Instrument>();
  private readonly accounts = new Map<string, Account>();
  private readonly orders: OrderState[] = [];
  private readonly fills: FillState[] = [];
  private readonly algos: AlgoState[] = [];
  private readonly bills: BillState[] = [];
  /** The funding rate last charged per swap (public/funding-rate). */
  private readonly fundingRates = new Map<string, Decimal>();
  private nextId = 700_000_000_000_000_000n;
  private readonly failures: Array<
    Injection & { status: number; code: string; retryAfterSeconds: number | null }
  > = [];
  private readonly delays: Array<Injection & { ms: number }> = [];

  private constructor(markets: Record<string, OkxTestMarket>) {
    for (const [id, spec] of Object.entries(markets)) {
      const price = new Decimal(spec.price);
      const pair: PairState = { id, spec, price, history: [{ time: 0, price }] };
      this.pairs.set(id, pair);
      this.instruments.set(id, {
        instId: id,
        instType: 'SPOT',
        pair,
        tickSz: new Decimal(spec.spot.tickSz),
        lotSz: new Decimal(spec.spot.lotSz),
        minSz: new Decimal(spec.spot.minSz),
        ctVal: new Decimal(1),
        maxLever: 1,
      });
      this.instruments.set(`${id}-SWAP`, {
        instId: `${id}-SWAP`,
        instType: 'SWAP',
        pair,
        tickSz: new Decimal(spec.swap.tickSz),
        lotSz: new Decimal(spec.swap.lotSz),
        minSz: new Decimal(spec.swap.minSz),
        ctVal: new Decimal(spec.swap.ctVal),
        maxLever: spec.swap.maxLever,
      });
    }
  }

  static async start(
    options: { markets?: Record<string, OkxTestMarket>; accounts?: OkxTestAccountSpec[] } = {},
  ): Promise<OkxTestServer> {
    const venue = new OkxTestServer(options.markets ?? DEFAULT_OKX_MARKETS);
    for (const account of options.accounts ?? []) venue.addAccount(account);
    await venue.listen();
    return venue;
  }

  /** http://127.0.0.1:<port> */
  get origin(): string {
    return this.originUrl;
  }

  /** KAIROS_VENUE_URLS' entries sending ccxt's every API URL of okx here. */
  venueUrls(): Record<string, string> {
    return { okx: this.originUrl };
  }

  // ---- test hooks ----------------------------------------------------------------------------------------

  addAccount(spec: OkxTestAccountSpec): void {
    const cash = new Map<string, Decimal>();
    for (const [ccy, amount] of Object.entries(spec.balances ?? {})) cash.set(ccy, new Decimal(amount));
    this.accounts.set(spec.apiKey, {
      apiKey: spec.apiKey,
      secret: spec.secret,
      passphrase: spec.passphrase,
      uid: String(400_000_000 + this.accounts.size),
      canWithdraw: spec.canWithdraw ?? false,
      readOnly: spec.readOnly ?? false,
      demo: spec.demo ?? false,
      posMode: spec.posMode ?? 'net_mode',
      cash,
      positions: new Map(),
      leverage: new Map(),
    });
  }

  /** Switches an account's position mode, as the user would on OKX's website (no check of open positions). */
  setPositionMode(apiKey: string, posMode: OkxPositionMode): void {
    this.requireAccount(apiKey).posMode = posMode;
  }

  /** Cash balance of a currency in the trading account. */
  cashBalance(apiKey: string, ccy: string): string {
    return s(this.requireAccount(apiKey).cash.get(ccy) ?? new Decimal(0));
  }

  /** Net position in contracts (signed), for `instId` ('BTC-USDT-SWAP'), '0' when flat. */
  positionContracts(apiKey: string, instId: string): string {
    let total = new Decimal(0);
    for (const [key, position] of this.requireAccount(apiKey).positions) {
      if (key.startsWith(`${instId}|`)) total = total.plus(position.pos);
    }
    return s(total);
  }

  /** The realised PnL (before fees) the venue booked on an order's fills: their fillPnl. */
  closedPnl(ordId: string): string {
    return s(
      this.fills
        .filter((fill) => fill.order.ordId === ordId)
        .reduce((sum, fill) => sum.plus(fill.fillPnl), new Decimal(0)),
    );
  }

  /**
   * A funding settlement of the swap `instId` ('BTC-USDT-SWAP') at `rate`, at `time` (default now): every
   * position receives −contracts × ctVal × mark price × rate (8 decimals; a long pays a positive rate, a short
   * receives it) in its USDT cash balance, billed at that time (type 8, subType 173 or 174) and added to the
   * position's fundingFee. The rate becomes public/funding-rate's. Answers what each account got, by API key.
   */
  chargeFunding(instId: string, rate: string, time = Date.now()): Record<string, string> {
    const inst = this.instruments.get(instId);
    if (!inst || inst.instType !== 'SWAP') throw new Error(`no swap ${instId}`);
    const fundingRate = new Decimal(rate);
    this.fundingRates.set(instId, fundingRate);
    const mark = this.markOf(inst);
    const ccy = inst.pair.spec.quote;
    const charged: Record<string, string> = {};
    for (const account of this.accounts.values()) {
      for (const [key, position] of account.positions) {
        if (!key.startsWith(`${instId}|`) || position.pos.isZero()) continue;
        const amount = position.pos.times(inst.ctVal).times(mark).times(fundingRate).neg().toDecimalPlaces(8);
        if (amount.isZero()) continue;
        this.addCash(account, ccy, amount);
        position.fundingFee = position.fundingFee.plus(amount);
        this.bills.push({
          billId: this.newId(),
          apiKey: account.apiKey,
          inst,
          type: '8',
          subType: amount.isNeg() ? '173' : '174',
          ts: time,
          balChg: amount,
          bal: this.cashOf(account, ccy),
          sz: position.pos.abs(),
          px: mark,
          pnl: amount,
          fee: new Decimal(0),
          mgnMode: 'cross',
          fill: null,
        });
        charged[account.apiKey] = s(amount.plus(charged[account.apiKey] ?? 0));
      }
    }
    return charged;
  }

  /** Moves the last price of a pair ('BTC-USDT', or either of its instruments); resting orders it went through fill. */
  setPrice(instIdOrPair: string, price: string): void {
    const pair = this.pairs.get(instIdOrPair.replace(/-SWAP$/, ''));
    if (!pair) throw new Error(`no pair ${instIdOrPair}`);
    pair.price = new Decimal(price);
    pair.history.push({ time: Date.now(), price: pair.price });
    for (const order of [...this.orders]) {
      if (order.inst.pair !== pair || !this.isLive(order) || order.px === null) continue;
      const crossed = order.side === 'buy' ? pair.price.lte(order.px) : pair.price.gte(order.px);
      if (crossed) this.fill(order, order.px, order.execSz.minus(order.accFillSz), 'M');
    }
    this.triggerAlgos(pair);
  }

  /** The account's live algo orders on `instId`, as placed (oldest first). */
  liveAlgoOrders(apiKey: string, instId: string): Array<Record<string, string | boolean>> {
    return this.algos
      .filter((a) => a.apiKey === apiKey && a.inst.instId === instId && a.state === 'live')
      .map((a) => ({
        algoId: a.algoId,
        algoClOrdId: a.algoClOrdId,
        ordType: a.ordType,
        side: a.side,
        posSide: a.posSide,
        tdMode: a.tdMode,
        sz: s(a.sz),
        triggerPx: s(a.triggerPx),
        triggerPxType: a.triggerPxType,
        orderPx: a.orderPx === null ? '-1' : s(a.orderPx),
        reduceOnly: a.reduceOnly,
      }));
  }

  /** The algo order last placed with `algoClOrdId`, as the venue holds it. */
  algoByClientId(algoClOrdId: string): { algoId: string; state: OkxAlgoState; ordId: string } | undefined {
    const algo = this.algos.findLast((a) => a.algoClOrdId === algoClOrdId);
    return algo && { algoId: algo.algoId, state: algo.state, ordId: algo.ordId };
  }

  /**
   * From now on each synthetic level of a pair ('ETH-USDT', both its instruments) offers `levelQty` base: a
   * thin book, where a market order fills level by level and, past the last one, is cancelled short of its
   * size (a partial fill).
   */
  setLevelQty(pairId: string, levelQty: string): void {
    const pair = this.pairs.get(pairId.replace(/-SWAP$/, ''));
    if (!pair) throw new Error(`no pair ${pairId}`);
    pair.spec = { ...pair.spec, levelQty };
  }

  /** The next `count` matching requests are refused as rate limited (HTTP 429, code 50011 by default). */
  failNext(options: {
    count: number;
    status?: number;
    code?: string;
    /** OKX sends no Retry-After; set one to see it honoured. */
    retryAfterSeconds?: number | null;
    match?: (method: string, path: string) => boolean;
  }): void {
    this.failures.push({
      remaining: options.count,
      status: options.status ?? 429,
      code: options.code ?? '50011',
      retryAfterSeconds: options.retryAfterSeconds ?? null,
      match: options.match ?? (() => true),
    });
  }

  /** The next `count` matching requests are processed at once but answered `ms` later. */
  delayNext(options: { count: number; ms: number; match?: (method: string, path: string) => boolean }): void {
    this.delays.push({ remaining: options.count, ms: options.ms, match: options.match ?? (() => true) });
  }

  /** The latest order with this client id, as the venue holds it. */
  orderByClientId(clOrdId: string): { ordId: string; state: OkxOrderState; accFillSz: string } | undefined {
    const order = [...this.orders].reverse().find((o) => o.clOrdId === clOrdId);
    return order ? { ordId: order.ordId, state: order.state, accFillSz: s(order.accFillSz) } : undefined;
  }

  /** Places an order as the user would on the website (same rules as `trade/order`); its ordId or sCode. */
  placeAtVenue(apiKey: string, order: Record<string, unknown>): { ordId: string; sCode: string } {
    try {
      return { ordId: this.placeOrder(this.requireAccount(apiKey), order).ordId!, sCode: '0' };
    } catch (error) {
      if (error instanceof OrderRefusal) return { ordId: '', sCode: error.sCode };
      throw error;
    }
  }

  /** Cancels a live order as the user would on the website. */
  cancelAtVenue(clOrdId: string): void {
    const order = [...this.orders].reverse().find((o) => o.clOrdId === clOrdId && this.isLive(o));
    if (!order) throw new Error(`no live order ${clOrdId}`);
    this.finish(order, 'canceled', '1');
  }

  /** Moves every order and fill `ms` into the past (retention windows, `begin` filters). */
  ageRecords(ms: number): void {
    for (const order of this.orders) {
      order.cTime -= ms;
      order.uTime -= ms;
    }
    for (const fill of this.fills) fill.ts -= ms;
    for (const bill of this.bills) bill.ts -= ms;
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
      (error) => ({ code: '50026', msg: `System error: ${String(error)}`, data: [] }),
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
    const query = questionMark === -1 ? '' : rawUrl.slice(questionMark + 1);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const apiKey = header(request, 'ok-access-key');

    let status = 200;
    let body: { code: string; msg: string; data: unknown[] };
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const failure = takeInjection(this.failures, method, path);
    if (failure) {
      status = failure.status;
      if (failure.retryAfterSeconds !== null) headers['retry-after'] = String(failure.retryAfterSeconds);
      body = {
        code: failure.code,
        msg: 'Rate limit reached. Please refer to API documentation and throttle requests accordingly',
        data: [],
      };
    } else {
      try {
        body = this.route(request, method, path, query, rawUrl, rawBody);
      } catch (error) {
        if (!(error instanceof OkxApiError)) throw error;
        status = error.status;
        body = { code: error.okxCode, msg: error.message, data: [] };
      }
    }
    const sCodes = body.data
      .map((entry) => (entry as { sCode?: unknown }).sCode)
      .filter((code): code is string => typeof code === 'string');
    this.requests.push({
      method,
      path,
      query,
      body: rawBody,
      status,
      code: body.code,
      sCodes,
      apiKey,
      receivedAt,
    });
    const delay = takeInjection(this.delays, method, path);
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay.ms));
    if (response.destroyed) return;
    response.writeHead(status, headers);
    response.end(JSON.stringify(body));
  }

  private route(
    request: IncomingMessage,
    method: string,
    path: string,
    query: string,
    rawUrl: string,
    rawBody: string,
  ): { code: string; msg: string; data: unknown[] } {
    const ok = (data: unknown[]) => ({ code: '0', msg: '', data });
    const params = new URLSearchParams(query);
    const endpoint = `${method} ${path}`;
    switch (endpoint) {
      case 'GET /api/v5/public/time':
        return ok([{ ts: String(Date.now() + this.clockOffsetMs) }]);
      case 'GET /api/v5/public/instruments':
        return ok(this.listInstruments(params));
      case 'GET /api/v5/market/ticker':
        return ok([this.ticker(this.requireInstrument(params.get('instId')))]);
      case 'GET /api/v5/market/books':
        return ok([this.book(this.requireInstrument(params.get('instId')), Number(params.get('sz') ?? 1))]);
      case 'GET /api/v5/market/candles':
      case 'GET /api/v5/market/history-candles':
        return ok(this.candles(this.requireInstrument(params.get('instId')), params));
      case 'GET /api/v5/public/funding-rate':
        return ok([this.fundingRate(this.requireInstrument(params.get('instId')))]);
    }
    if (!PRIVATE_ENDPOINTS.has(endpoint)) {
      throw new OkxApiError(404, '50115', `Invalid request method or path ${endpoint}`);
    }
    const account = this.authenticate(request, method, rawUrl, rawBody);
    let body: unknown = {};
    if (method === 'POST') {
      if (!/application\/json/i.test(header(request, 'content-type') ?? '')) {
        throw new OkxApiError(400, '50006', 'Invalid Content_Type, please use "application/json" format');
      }
      if (rawBody === '') throw new OkxApiError(400, '50000', 'Body can not be empty');
      try {
        body = JSON.parse(rawBody);
      } catch {
        throw new OkxApiError(400, '50002', 'Json data format error');
      }
    }
    switch (endpoint) {
      case 'GET /api/v5/account/balance':
        return ok([this.balance(account, params.get('ccy'))]);
      case 'GET /api/v5/account/config':
        return ok([this.config(account)]);
      case 'POST /api/v5/account/set-position-mode':
        return ok([this.changePositionMode(account, record(body))]);
      case 'POST /api/v5/account/set-leverage':
        return ok([this.setLeverage(account, record(body))]);
      case 'GET /api/v5/account/positions':
        return ok(this.positions(account, params));
      case 'POST /api/v5/trade/order':
        return this.orderOperation([record(body)], (e) => this.placeOrder(account, e), 'Order placed');
      case 'POST /api/v5/trade/batch-orders': {
        if (!Array.isArray(body) || body.length === 0 || body.length > 20) {
          throw new OkxApiError(400, '51000', 'Parameter body error');
        }
        return this.orderOperation(body.map(record), (e) => this.placeOrder(account, e), 'Order placed');
      }
      case 'POST /api/v5/trade/cancel-order':
        return this.orderOperation([record(body)], (entry) => this.cancelOrder(account, entry));
      case 'GET /api/v5/trade/order':
        return ok([this.orderView(this.findOrder(account, params))]);
      case 'GET /api/v5/trade/orders-pending':
        return ok(this.listOrders(account, params, 'pending'));
      case 'GET /api/v5/trade/orders-history':
        return ok(this.listOrders(account, params, 'history'));
      case 'GET /api/v5/account/bills':
        return ok(this.listBills(account, params, 7 * DAY_MS));
      case 'GET /api/v5/account/bills-archive':
        return ok(this.listBills(account, params, 90 * DAY_MS));
      case 'GET /api/v5/trade/fills':
        return ok(this.listFills(account, params, 3 * DAY_MS, false));
      case 'POST /api/v5/trade/order-algo':
        return this.orderOperation([record(body)], (e) => this.placeAlgo(account, e), 'Order placed');
      case 'POST /api/v5/trade/cancel-algos': {
        if (!Array.isArray(body) || body.length === 0 || body.length > 10) {
          throw new OkxApiError(400, '51000', 'Parameter body error');
        }
        return this.orderOperation(body.map(record), (e) => this.cancelAlgo(account, e));
      }
      case 'GET /api/v5/trade/order-algo':
        return ok([this.algoView(this.findAlgo(account, params))]);
      case 'GET /api/v5/trade/orders-algo-pending':
        return ok(this.listAlgos(account, params, 'pending'));
      case 'GET /api/v5/trade/orders-algo-history':
        return ok(this.listAlgos(account, params, 'history'));
      default: // GET /api/v5/trade/fills-history
        return ok(this.listFills(account, params, 90 * DAY_MS, true));
    }
  }

  /** Order operations answer each order with its sCode; the envelope says whether all, some or none worked. */
  private orderOperation(
    entries: Record<string, unknown>[],
    operate: (entry: Record<string, unknown>) => Record<string, string>,
    done = '',
  ) {
    const ts = String(Date.now());
    const data = entries.map((entry) => {
      try {
        return { ...operate(entry), ts, sCode: '0', sMsg: done };
      } catch (error) {
        if (!(error instanceof OrderRefusal)) throw error;
        return {
          clOrdId: str(entry['clOrdId']),
          ordId: str(entry['ordId']),
          tag: str(entry['tag']),
          ts,
          sCode: error.sCode,
          sMsg: error.message,
        };
      }
    });
    const failed = data.filter((entry) => entry.sCode !== '0').length;
    if (failed === 0) return { code: '0', msg: '', data };
    return failed === data.length
      ? { code: '1', msg: 'All operations failed', data }
      : { code: '2', msg: 'Bulk operation partially succeeded', data };
  }

  /** Headers first (each may be missing), then the timestamp window, the key, the environment, the passphrase, the signature. */
  private authenticate(request: IncomingMessage, method: string, rawUrl: string, rawBody: string): Account {
    const key = header(request, 'ok-access-key');
    const sign = header(request, 'ok-access-sign');
    const timestamp = header(request, 'ok-access-timestamp');
    const passphrase = header(request, 'ok-access-passphrase');
    if (!key) throw new OkxApiError(401, '50103', 'Request header "OK-ACCESS-KEY" can not be empty.');
    if (!passphrase)
      throw new OkxApiError(401, '50104', 'Request header "OK-ACCESS-PASSPHRASE" can not be empty.');
    if (!sign) throw new OkxApiError(401, '50106', 'Request header "OK-ACCESS-SIGN" can not be empty.');
    if (!timestamp)
      throw new OkxApiError(401, '50107', 'Request header "OK-ACCESS-TIMESTAMP" can not be empty.');
    const time = Date.parse(timestamp);
    if (!ISO_MS.test(timestamp) || !Number.isFinite(time)) {
      throw new OkxApiError(401, '50112', 'Invalid OK-ACCESS-TIMESTAMP');
    }
    if (Math.abs(Date.now() + this.clockOffsetMs - time) > MAX_CLOCK_SKEW_MS) {
      throw new OkxApiError(401, '50102', 'Timestamp request expired');
    }
    const account = this.accounts.get(key);
    if (!account) throw new OkxApiError(401, '50111', 'Invalid OK-ACCESS-KEY');
    if (account.demo !== (header(request, 'x-simulated-trading') === '1')) {
      throw new OkxApiError(401, '50101', 'APIKey does not match current environment.');
    }
    if (passphrase !== account.passphrase) {
      throw new OkxApiError(401, '50105', 'Request header "OK-ACCESS-PASSPHRASE" incorrect.');
    }
    const expected = Buffer.from(okxSignature(account.secret, timestamp, method, rawUrl, rawBody));
    const given = Buffer.from(sign);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new OkxApiError(401, '50113', 'Invalid Sign');
    }
    return account;
  }

  // ---- public data ---------------------------------------------------------------------------------------

  private requireInstrument(instId: string | null): Instrument {
    if (!instId) throw new OkxApiError(400, '50014', 'Parameter instId can not be empty');
    const instrument = this.instruments.get(instId);
    if (!instrument) throw new OkxApiError(200, '51001', "Instrument ID doesn't exist.");
    return instrument;
  }

  private requireAccount(apiKey: string): Account {
    const account = this.accounts.get(apiKey);
    if (!account) throw new Error(`no account ${apiKey}`);
    return account;
  }

  private instType(params: URLSearchParams, required: boolean): InstType | null {
    const value = params.get('instType');
    if (!value) {
      if (required) throw new OkxApiError(400, '50014', 'Parameter instType can not be empty');
      return null;
    }
    if (
      value !== 'SPOT' &&
      value !== 'SWAP' &&
      value !== 'MARGIN' &&
      value !== 'FUTURES' &&
      value !== 'OPTION'
    )
      throw new OkxApiError(400, '51000', 'Parameter instType error');
    return value as InstType;
  }

  private listInstruments(params: URLSearchParams) {
    const instType = this.instType(params, true);
    const instId = params.get('instId');
    return [...this.instruments.values()]
      .filter((inst) => inst.instType === instType && (!instId || inst.instId === instId))
      .map((inst) => {
        const { spec } = inst.pair;
        const swap = inst.instType === 'SWAP';
        return {
          instType: inst.instType,
          instId: inst.instId,
          instIdCode: 10_000 + [...this.instruments.keys()].indexOf(inst.instId),
          uly: swap ? inst.pair.id : '',
          instFamily: swap ? inst.pair.id : '',
          baseCcy: swap ? '' : spec.base,
          quoteCcy: swap ? '' : spec.quote,
          settleCcy: swap ? spec.quote : '',
          ctVal: swap ? s(inst.ctVal) : '',
          ctMult: swap ? '1' : '',
          ctValCcy: swap ? spec.base : '',
          ctType: swap ? 'linear' : '',
          optType: '',
          stk: '',
          listTime: '1606468572000',
          contTdSwTime: '1606468572000',
          expTime: '',
          lever: swap ? String(inst.maxLever) : '',
          tickSz: s(inst.tickSz),
          lotSz: s(inst.lotSz),
          minSz: s(inst.minSz),
          maxLmtSz: swap ? '100000' : '9999999999',
          maxMktSz: swap ? '3000' : '1000000',
          maxLmtAmt: '20000000',
          maxMktAmt: '1000000',
          maxTwapSz: '',
          maxIcebergSz: '',
          maxTriggerSz: '',
          maxStopSz: '',
          alias: '',
          state: 'live',
          ruleType: 'normal',
          category: '1',
        };
      });
  }

  /** Liquidity a taker on `side` meets: synthetic levels plus other accounts' resting orders, best first. */
  private liquidity(inst: Instrument, side: Side, excludeApiKey?: string) {
    const { pair } = inst;
    const step = new Decimal(pair.spec.levelStep);
    const levelSz = new Decimal(pair.spec.levelQty).div(inst.ctVal);
    const levels: Array<{ px: Decimal; sz: Decimal; maker: OrderState | null }> = [];
    for (let i = 1; i <= SYNTHETIC_LEVELS; i++) {
      const px = side === 'buy' ? pair.price.plus(step.times(i)) : pair.price.minus(step.times(i));
      if (px.gt(0)) levels.push({ px, sz: levelSz, maker: null });
    }
    for (const order of this.orders) {
      if (order.inst !== inst || order.side === side || order.px === null || !this.isLive(order)) continue;
      if (order.apiKey === excludeApiKey) continue;
      const room = this.reducible(order);
      const open = order.execSz.minus(order.accFillSz);
      const sz = room === null ? open : Decimal.min(open, room);
      if (sz.gt(0)) levels.push({ px: order.px, sz, maker: order });
    }
    return levels.sort((a, b) => (side === 'buy' ? a.px.comparedTo(b.px) : b.px.comparedTo(a.px)));
  }

  private ticker(inst: Instrument) {
    const { pair } = inst;
    const now = Date.now();
    const open = priceAt(pair.history, now - DAY_MS);
    const window = pair.history.filter((entry) => entry.time >= now - DAY_MS).map((entry) => entry.price);
    const prices = [open, ...window, pair.price];
    const [ask] = this.liquidity(inst, 'buy');
    const [bid] = this.liquidity(inst, 'sell');
    const volume = new Decimal(1000);
    return {
      instType: inst.instType,
      instId: inst.instId,
      last: s(pair.price),
      lastSz: s(inst.lotSz),
      askPx: ask ? s(ask.px) : '',
      askSz: ask ? s(ask.sz) : '',
      bidPx: bid ? s(bid.px) : '',
      bidSz: bid ? s(bid.sz) : '',
      open24h: s(open),
      high24h: s(Decimal.max(...prices)),
      low24h: s(Decimal.min(...prices)),
      // Spot: vol24h in base, volCcy24h in quote; swaps: vol24h in contracts, volCcy24h in base.
      volCcy24h: inst.instType === 'SPOT' ? s(volume.times(pair.price)) : s(volume),
      vol24h: inst.instType === 'SPOT' ? s(volume) : s(volume.div(inst.ctVal)),
      sodUtc0: s(open),
      sodUtc8: s(open),
      ts: String(now),
    };
  }

  private book(inst: Instrument, depth: number) {
    const size = Math.min(Math.max(Number.isFinite(depth) ? depth : 1, 1), 400);
    const side = (taker: Side) => {
      const levels = new Map<string, { sz: Decimal; orders: number }>();
      for (const level of this.liquidity(inst, taker)) {
        const key = s(level.px);
        const known = levels.get(key) ?? { sz: new Decimal(0), orders: 0 };
        levels.set(key, { sz: known.sz.plus(level.sz), orders: known.orders + 1 });
      }
      return [...levels.entries()].slice(0, size).map(([px, l]) => [px, s(l.sz), '0', String(l.orders)]);
    };
    return { asks: side('buy'), bids: side('sell'), ts: String(Date.now()) };
  }

  /** Newest first; `after`: opened before that time, `before`: opened after it. */
  private candles(inst: Instrument, params: URLSearchParams) {
    const bar = BARS[params.get('bar') ?? '1m'];
    if (!bar) throw new OkxApiError(400, '51000', 'Parameter bar error');
    const limit = Math.min(Number(params.get('limit') ?? 100), 300);
    const after = params.get('after') ? Number(params.get('after')) : null;
    const before = params.get('before') ? Number(params.get('before')) : null;
    const now = Date.now();
    const rows: string[][] = [];
    let open = barOpen(after === null ? now : Math.min(now, after - 1), bar);
    while (rows.length < limit && open >= 0 && (before === null || open > before)) {
      const close = open + bar.ms - 1;
      const first = priceAt(inst.pair.history, open);
      const last = priceAt(inst.pair.history, close);
      const inside = inst.pair.history.filter((e) => e.time >= open && e.time <= close).map((e) => e.price);
      const prices = [first, last, ...inside];
      const base = new Decimal(10);
      rows.push([
        String(open),
        s(first),
        s(Decimal.max(...prices)),
        s(Decimal.min(...prices)),
        s(last),
        s(inst.instType === 'SPOT' ? base : base.div(inst.ctVal)),
        s(inst.instType === 'SPOT' ? base.times(last) : base),
        s(base.times(last)),
        close < now ? '1' : '0',
      ]);
      open = barOpen(open - 1, bar);
    }
    return rows;
  }

  // ---- account -------------------------------------------------------------------------------------------

  private cashOf(account: Account, ccy: string): Decimal {
    return account.cash.get(ccy) ?? new Decimal(0);
  }

  private addCash(account: Account, ccy: string, amount: Decimal): void {
    account.cash.set(ccy, this.cashOf(account, ccy).plus(amount));
  }

  private leverageOf(account: Account, instId: string): number {
    return account.leverage.get(instId) ?? DEFAULT_LEVERAGE;
  }

  private markOf(instrument: Instrument): Decimal {
    return instrument.pair.price;
  }

  /** Initial margin a live swap order holds for its unfilled part (reduce-only ones hold none). */
  private orderMargin(order: OrderState): Decimal {
    if (order.inst.instType !== 'SWAP' || order.reduceOnly || order.px === null || !this.isLive(order)) {
      return new Decimal(0);
    }
    return order.execSz.minus(order.accFillSz).times(order.inst.ctVal).times(order.px).div(order.lever);
  }

  /** USDT held by swaps: positions' initial margin, orders' margin, and the positions' unrealised PnL. */
  private swapUsage(account: Account) {
    let imr = new Decimal(0);
    let upl = new Decimal(0);
    for (const [key, position] of account.positions) {
      if (position.pos.isZero()) continue;
      const inst = this.instruments.get(key.split('|')[0]!)!;
      const mark = this.markOf(inst);
      imr = imr.plus(
        position.pos.abs().times(inst.ctVal).times(mark).div(this.leverageOf(account, inst.instId)),
      );
      upl = upl.plus(mark.minus(position.avgPx).times(position.pos).times(inst.ctVal));
    }
    let ordFrozen = new Decimal(0);
    for (const order of this.orders) {
      if (order.apiKey === account.apiKey) ordFrozen = ordFrozen.plus(this.orderMargin(order));
    }
    return { imr, upl, ordFrozen };
  }

  /** What a currency's spot orders lock, and its live spot algo orders. */
  private spotLocked(account: Account, ccy: string): Decimal {
    let locked = new Decimal(0);
    for (const order of this.orders) {
      if (order.apiKey === account.apiKey && order.lockCcy === ccy && this.isLive(order)) {
        locked = locked.plus(order.locked);
      }
    }
    for (const algo of this.algos) {
      if (algo.apiKey === account.apiKey && algo.lockCcy === ccy && algo.state === 'live') {
        locked = locked.plus(algo.locked);
      }
    }
    return locked;
  }

  /** Available equity of a currency: cash (plus swap PnL for the settlement currency) less what is held. */
  private available(account: Account, ccy: string) {
    const usage = ccy === 'USDT' ? this.swapUsage(account) : null;
    const cash = this.cashOf(account, ccy);
    const upl = usage?.upl ?? new Decimal(0);
    const spot = this.spotLocked(account, ccy);
    const frozen = spot.plus(usage ? usage.imr.plus(usage.ordFrozen) : 0);
    return {
      cash,
      upl,
      eq: cash.plus(upl),
      frozen,
      ordFrozen: spot.plus(usage?.ordFrozen ?? 0),
      imr: usage?.imr ?? new Decimal(0),
      availBal: cash.minus(frozen),
      availEq: cash.plus(Decimal.min(upl, 0)).minus(frozen),
    };
  }

  private balance(account: Account, ccyFilter: string | null) {
    const wanted = ccyFilter ? new Set(ccyFilter.split(',')) : null;
    const now = String(Date.now());
    const currencies = new Set([...account.cash.keys(), 'USDT']);
    const details = [...currencies]
      .filter((ccy) => !wanted || wanted.has(ccy))
      .map((ccy) => {
        const a = this.available(account, ccy);
        const price = this.pairs.get(`${ccy}-USDT`)?.price ?? new Decimal(ccy === 'USDT' ? 1 : 0);
        return {
          ccy,
          eq: s(a.eq),
          cashBal: s(a.cash),
          uTime: now,
          isoEq: '0',
          availEq: s(a.availEq),
          disEq: s(a.eq.times(price)),
          availBal: s(a.availBal),
          frozenBal: s(a.frozen),
          ordFrozen: s(a.ordFrozen),
          imr: s(a.imr),
          mmr: s(a.imr.times('0.1')),
          liab: '0',
          upl: s(a.upl),
          uplLiab: '0',
          crossLiab: '0',
          isoLiab: '0',
          mgnRatio: '',
          interest: '0',
          twap: '0',
          maxLoan: '',
          eqUsd: s(a.eq.times(price)),
          notionalLever: '',
          stgyEq: '0',
          isoUpl: '0',
          spotInUseAmt: '',
          spotBal: s(a.cash),
          accAvgPx: '',
          totalPnl: '0',
        };
      });
    const totalEq = details.reduce((total, d) => total.plus(d.eqUsd), new Decimal(0));
    const usage = this.swapUsage(account);
    return {
      uTime: now,
      totalEq: s(totalEq),
      isoEq: '0',
      adjEq: '',
      ordFroz: s(usage.ordFrozen),
      imr: s(usage.imr),
      mmr: s(usage.imr.times('0.1')),
      borrowFroz: '',
      mgnRatio: '',
      notionalUsd: '',
      upl: s(usage.upl),
      details,
    };
  }

  private config(account: Account) {
    return {
      uid: account.uid,
      mainUid: account.uid,
      acctLv: '2',
      acctStpMode: 'cancel_maker',
      posMode: account.posMode,
      autoLoan: false,
      greeksType: 'PA',
      level: 'Lv1',
      levelTmp: '',
      ctIsoMode: 'automatic',
      mgnIsoMode: 'automatic',
      spotOffsetType: '',
      roleType: '0',
      traderInsts: [],
      spotRoleType: '0',
      spotTraderInsts: [],
      opAuth: '0',
      kycLv: '2',
      label: 'kairos',
      ip: '',
      perm: [
        'read_only',
        ...(account.readOnly ? [] : ['trade']),
        ...(account.canWithdraw ? ['withdraw'] : []),
      ].join(','),
      liquidationGear: '-1',
      enableSpotBorrow: false,
      spotBorrowAutoRepay: false,
      type: '0',
    };
  }

  /** Refused while the account holds swap positions or live swap orders (59000), as OKX does. */
  private changePositionMode(account: Account, body: Record<string, unknown>) {
    const posMode = body['posMode'];
    if (posMode !== 'net_mode' && posMode !== 'long_short_mode') {
      throw new OkxApiError(400, '51000', 'Parameter posMode error');
    }
    const busy =
      [...account.positions.values()].some((p) => !p.pos.isZero()) ||
      this.orders.some((o) => o.apiKey === account.apiKey && o.inst.instType === 'SWAP' && this.isLive(o));
    if (busy) {
      throw new OkxApiError(
        200,
        '59000',
        'Settings failed. Close any open positions or orders before modifying settings.',
      );
    }
    account.posMode = posMode;
    return { posMode };
  }

  private setLeverage(account: Account, body: Record<string, unknown>) {
    const mgnMode = body['mgnMode'];
    if (mgnMode !== 'cross' && mgnMode !== 'isolated') {
      throw new OkxApiError(400, '51000', 'Parameter mgnMode error');
    }
    const inst = this.requireInstrument(str(body['instId']) || null);
    if (inst.instType !== 'SWAP') throw new OkxApiError(400, '51000', 'Parameter instId error');
    const lever = Number(str(body['lever']));
    if (!Number.isFinite(lever) || lever < 1 || !Number.isInteger(lever)) {
      throw new OkxApiError(400, '51000', 'Parameter lever error');
    }
    if (lever > inst.maxLever) {
      throw new OkxApiError(200, '59102', 'Leverage exceeds the maximum leverage. Adjust leverage.');
    }
    account.leverage.set(inst.instId, lever);
    return { lever: String(lever), mgnMode, instId: inst.instId, posSide: str(body['posSide']) };
  }

  private positions(account: Account, params: URLSearchParams) {
    const instType = this.instType(params, false);
    const instIds = params.get('instId') ? new Set(params.get('instId')!.split(',')) : null;
    const result: unknown[] = [];
    for (const [key, position] of account.positions) {
      const [instId, posSide] = key.split('|') as [string, PosSide];
      const inst = this.instruments.get(instId)!;
      if (position.pos.isZero()) continue;
      if (instType && instType !== inst.instType) continue;
      if (instIds && !instIds.has(instId)) continue;
      const mark = this.markOf(inst);
      const lever = this.leverageOf(account, instId);
      const notional = position.pos.abs().times(inst.ctVal).times(mark);
      const upl = mark.minus(position.avgPx).times(position.pos).times(inst.ctVal);
      const imr = notional.div(lever);
      const direction = position.pos.isNeg() ? -1 : 1;
      // Liquidation where the loss eats the position's margin (cross: a rough reading, good enough here).
      const liqPx = position.avgPx.minus(position.avgPx.div(lever).times(direction));
      result.push({
        instType: inst.instType,
        instId,
        mgnMode: 'cross',
        posId: position.posId,
        posSide,
        // Net mode: signed; long/short mode: the leg's size, positive.
        pos: s(posSide === 'net' ? position.pos : position.pos.abs()),
        availPos: s(position.pos.abs()),
        posCcy: '',
        ccy: inst.pair.spec.quote,
        avgPx: s(position.avgPx),
        markPx: s(mark),
        last: s(inst.pair.price),
        idxPx: s(inst.pair.price),
        upl: s(upl),
        uplRatio: s(imr.isZero() ? new Decimal(0) : upl.div(imr).toDecimalPlaces(8)),
        uplLastPx: s(upl),
        lever: String(lever),
        liqPx: s(liqPx.toDecimalPlaces(inst.tickSz.decimalPlaces())),
        imr: s(imr),
        margin: '',
        mmr: s(imr.times('0.1')),
        mgnRatio: '',
        notionalUsd: s(notional),
        adl: '1',
        interest: '',
        tradeId: this.fills.filter((f) => f.order.inst === inst).at(-1)?.tradeId ?? '',
        optVal: '',
        liab: '',
        liabCcy: '',
        deltaBS: '',
        deltaPA: '',
        gammaBS: '',
        gammaPA: '',
        thetaBS: '',
        thetaPA: '',
        vegaBS: '',
        vegaPA: '',
        realizedPnl: s(position.realizedPnl.plus(position.fee).plus(position.fundingFee)),
        pnl: s(position.realizedPnl),
        fee: s(position.fee),
        fundingFee: s(position.fundingFee),
        liqPenalty: '0',
        bePx: s(position.avgPx),
        closeOrderAlgo: [],
        cTime: String(position.cTime),
        uTime: String(position.uTime),
      });
    }
    return result;
  }

  // ---- orders --------------------------------------------------------------------------------------------

  private isLive(order: OrderState): boolean {
    return order.state === 'live' || order.state === 'partially_filled';
  }

  private newId(): string {
    this.nextId += 1n;
    return String(this.nextId);
  }

  /** POST trade/order (and each entry of batch-orders). */
  private placeOrder(account: Account, body: Record<string, unknown>): Record<string, string> {
    const instId = str(body['instId']);
    if (!instId) throw new OrderRefusal('50014', 'Parameter instId can not be empty');
    const inst = this.instruments.get(instId);
    if (!inst) throw new OrderRefusal('51001', "Instrument ID doesn't exist.");
    const swap = inst.instType === 'SWAP';

    const tdMode = str(body['tdMode']);
    if (swap ? tdMode !== 'cross' && tdMode !== 'isolated' : tdMode !== 'cash') {
      throw new OrderRefusal('51000', 'Parameter tdMode error');
    }
    const side = body['side'];
    if (side !== 'buy' && side !== 'sell') throw new OrderRefusal('51000', 'Parameter side error');
    const ordType = body['ordType'];
    if (!['market', 'limit', 'post_only', 'ioc', 'fok'].includes(ordType as string)) {
      throw new OrderRefusal('51000', 'Parameter ordType error');
    }
    const clOrdId = str(body['clOrdId']);
    if (clOrdId !== '' && !CLORDID.test(clOrdId)) throw new OrderRefusal('51000', 'Parameter clOrdId error');
    if (
      clOrdId !== '' &&
      this.orders.some((o) => o.apiKey === account.apiKey && o.clOrdId === clOrdId && this.isLive(o))
    ) {
      throw new OrderRefusal('51016', 'Duplicated clOrdId');
    }

    const posSide = this.positionSide(account, inst, str(body['posSide']));
    const reduceOnly = body['reduceOnly'] === true || body['reduceOnly'] === 'true';
    if (reduceOnly && !swap) throw new OrderRefusal('51205', 'Reduce Only is not available.');

    const tgtCcy =
      str(body['tgtCcy']) || (!swap && ordType === 'market' && side === 'buy' ? 'quote_ccy' : 'base_ccy');
    const sz = decimal(body['sz']);
    if (sz === null || sz.lte(0)) throw new OrderRefusal('51000', 'Parameter sz error');
    let px: Decimal | null = null;
    if (ordType !== 'market') {
      if (body['px'] === undefined || body['px'] === '') {
        throw new OrderRefusal('51204', 'The price for the limit order can not be empty');
      }
      px = decimal(body['px']);
      if (px === null || px.lte(0) || !isMultiple(px, inst.tickSz)) {
        throw new OrderRefusal('51000', 'Parameter px error');
      }
    }

    // A spot market buy sized in quote takes what that much quote buys, in whole lots.
    const inQuote = !swap && ordType === 'market' && side === 'buy' && tgtCcy === 'quote_ccy';
    const execSz = inQuote ? this.quantityForQuote(inst, sz) : sz;
    if (!inQuote && !isMultiple(sz, inst.lotSz)) {
      throw new OrderRefusal('51121', 'Order quantity must be a multiple of the lot size.');
    }
    if (execSz.lt(inst.minSz)) {
      throw new OrderRefusal('51020', 'Your order should meet or exceed the minimum order amount.');
    }

    const now = Date.now();
    const order: OrderState = {
      ordId: this.newId(),
      clOrdId,
      tag: str(body['tag']),
      apiKey: account.apiKey,
      inst,
      side,
      posSide,
      ordType: ordType as OrdType,
      tdMode,
      tgtCcy: swap ? '' : tgtCcy,
      px,
      sz,
      execSz,
      accFillSz: new Decimal(0),
      fillNotional: new Decimal(0),
      state: 'live',
      reduceOnly,
      fee: new Decimal(0),
      feeCcy: swap ? inst.pair.spec.quote : side === 'buy' ? inst.pair.spec.base : inst.pair.spec.quote,
      pnl: new Decimal(0),
      lever: swap ? this.leverageOf(account, inst.instId) : 1,
      last: null,
      cancelSource: '',
      cTime: now,
      uTime: now,
      locked: new Decimal(0),
      lockCcy: '',
    };

    const plan = this.planTake(order);
    if (order.ordType === 'post_only' && plan.length > 0) {
      // It would take liquidity: OKX cancels it at once (no error).
      this.orders.push(order);
      this.finish(order, 'canceled', '31');
      return { ordId: order.ordId, clOrdId, tag: order.tag };
    }
    if (order.ordType === 'fok' && sumSz(plan).lt(order.execSz)) {
      this.orders.push(order);
      this.finish(order, 'canceled', '14');
      return { ordId: order.ordId, clOrdId, tag: order.tag };
    }
    if (swap) this.checkSwap(account, order, plan);
    else this.reserveSpot(account, order, plan);

    this.orders.push(order);
    for (const step of plan) {
      if (!this.isLive(order)) break;
      this.fill(order, step.px, step.sz, 'T', step.maker);
    }
    if (this.isLive(order) && order.ordType !== 'limit' && order.ordType !== 'post_only') {
      // Market, IOC: what did not fill at once is cancelled.
      this.finish(order, 'canceled', order.ordType === 'market' ? '0' : '13');
    }
    return { ordId: order.ordId, clOrdId, tag: order.tag };
  }

  /**
   * POST trade/order-algo: a conditional (stop loss) or trigger order, resting until its trigger: on a swap, or
   * on spot (tdMode cash), where it freezes what its order would spend from its placement on (51008 without it).
   */
  private placeAlgo(account: Account, body: Record<string, unknown>): Record<string, string> {
    const instId = str(body['instId']);
    if (!instId) throw new OrderRefusal('50014', 'Parameter instId can not be empty');
    const inst = this.instruments.get(instId);
    if (!inst) throw new OrderRefusal('51001', "Instrument ID doesn't exist.");
    const swap = inst.instType === 'SWAP';
    const tdMode = str(body['tdMode']);
    if (swap ? tdMode !== 'cross' && tdMode !== 'isolated' : tdMode !== 'cash')
      throw new OrderRefusal('51000', 'Parameter tdMode error');
    const side = body['side'];
    if (side !== 'buy' && side !== 'sell') throw new OrderRefusal('51000', 'Parameter side error');
    const ordType = str(body['ordType']);
    if (ordType !== 'conditional' && ordType !== 'trigger') {
      throw new OrderRefusal('51000', 'Parameter ordType error');
    }
    const algoClOrdId = str(body['algoClOrdId']);
    if (algoClOrdId !== '' && !CLORDID.test(algoClOrdId)) {
      throw new OrderRefusal('51000', 'Parameter algoClOrdId error');
    }
    if (
      algoClOrdId !== '' &&
      this.algos.some(
        (a) => a.apiKey === account.apiKey && a.algoClOrdId === algoClOrdId && a.state === 'live',
      )
    ) {
      throw new OrderRefusal('51065', 'algoClOrdId already exists.');
    }
    const posSide = this.positionSide(account, inst, str(body['posSide']));
    const reduceOnly = body['reduceOnly'] === true || body['reduceOnly'] === 'true';
    if (reduceOnly && !swap) throw new OrderRefusal('51205', 'Reduce Only is not available.');
    const sz = decimal(body['sz']);
    if (sz === null || sz.lte(0)) throw new OrderRefusal('51000', 'Parameter sz error');
    if (!isMultiple(sz, inst.lotSz)) {
      throw new OrderRefusal('51121', 'Order quantity must be a multiple of the lot size.');
    }
    if (sz.lt(inst.minSz)) {
      throw new OrderRefusal('51020', 'Your order should meet or exceed the minimum order amount.');
    }
    const conditional = ordType === 'conditional';
    if (conditional && str(body['tpTriggerPx']) !== '') {
      // Take-profit legs are not modelled.
      throw new OrderRefusal('51000', 'Parameter tpTriggerPx error');
    }
    const pxField = conditional ? 'slTriggerPx' : 'triggerPx';
    const triggerPx = decimal(body[pxField]);
    if (triggerPx === null || triggerPx.lte(0) || !isMultiple(triggerPx, inst.tickSz)) {
      throw new OrderRefusal('51000', `Parameter ${pxField} error`);
    }
    const ordPxField = conditional ? 'slOrdPx' : 'orderPx';
    const rawOrdPx = str(body[ordPxField]);
    let orderPx: Decimal | null = null;
    if (rawOrdPx !== '-1') {
      orderPx = decimal(rawOrdPx);
      if (orderPx === null || orderPx.lte(0) || !isMultiple(orderPx, inst.tickSz)) {
        throw new OrderRefusal('51000', `Parameter ${ordPxField} error`);
      }
    }
    const triggerPxType = str(body[conditional ? 'slTriggerPxType' : 'triggerPxType']) || 'last';
    if (!['last', 'mark', 'index'].includes(triggerPxType)) {
      throw new OrderRefusal('51000', 'Parameter triggerPxType error');
    }
    const reference = this.markOf(inst);
    let direction: 'down' | 'up';
    if (conditional) {
      // A stop loss sells below the price (buys above it); one the price already passed is refused.
      direction = side === 'sell' ? 'down' : 'up';
      if (side === 'sell' && triggerPx.gte(reference)) {
        throw new OrderRefusal('51280', 'SL trigger price must be lower than the last price.');
      }
      if (side === 'buy' && triggerPx.lte(reference)) {
        throw new OrderRefusal('51278', 'SL trigger price must be higher than the last price.');
      }
    } else {
      direction = triggerPx.lte(reference) ? 'down' : 'up';
    }
    if (reduceOnly) {
      const position = account.positions.get(`${instId}|${posSide}`)?.pos ?? new Decimal(0);
      if (position.isZero()) {
        throw new OrderRefusal(
          '51169',
          "Order failed because you don't have any positions in this direction for this contract to reduce or close.",
        );
      }
      if (position.isNeg() === (side === 'sell')) {
        throw new OrderRefusal(
          '51170',
          "Failed to place order. A reduce-only order can't be the same trading direction as your existing positions.",
        );
      }
    }
    // Spot: frozen at once, a sell's base, a buy's quote at its order price (spot algo orders need one here).
    let locked = new Decimal(0);
    let lockCcy = '';
    if (!swap) {
      if (orderPx === null) throw new OrderRefusal('51000', `Parameter ${ordPxField} error`);
      lockCcy = side === 'sell' ? inst.pair.spec.base : inst.pair.spec.quote;
      locked = side === 'sell' ? sz : sz.times(orderPx);
      if (this.available(account, lockCcy).availBal.lt(locked)) {
        throw new OrderRefusal('51008', `Order failed. Insufficient ${lockCcy} balance in account.`);
      }
    }
    const now = Date.now();
    const algo: AlgoState = {
      algoId: this.newId(),
      algoClOrdId,
      tag: str(body['tag']),
      apiKey: account.apiKey,
      inst,
      side,
      posSide,
      ordType,
      tdMode,
      sz,
      reduceOnly,
      triggerPx,
      triggerPxType,
      orderPx,
      direction,
      state: 'live',
      ordId: '',
      locked,
      lockCcy,
      failCode: '',
      triggerTime: null,
      cTime: now,
      uTime: now,
    };
    this.algos.push(algo);
    return { algoId: algo.algoId, algoClOrdId, clOrdId: '', tag: algo.tag };
  }

  /** Live algo orders of a pair whose trigger the price reached place their order (mark = last here). */
  private triggerAlgos(pair: PairState): void {
    for (const algo of this.algos) {
      if (algo.inst.pair !== pair || algo.state !== 'live') continue;
      const price = this.markOf(algo.inst);
      const reached = algo.direction === 'down' ? price.lte(algo.triggerPx) : price.gte(algo.triggerPx);
      if (!reached) continue;
      const now = Date.now();
      algo.triggerTime = now;
      algo.uTime = now;
      // What it froze passes to the order it places (which locks it again).
      algo.state = 'effective';
      try {
        const placed = this.placeOrder(this.accounts.get(algo.apiKey)!, {
          instId: algo.inst.instId,
          tdMode: algo.tdMode,
          side: algo.side,
          posSide: algo.posSide,
          ordType: algo.orderPx === null ? 'market' : 'limit',
          ...(algo.orderPx === null ? {} : { px: s(algo.orderPx) }),
          sz: s(algo.sz),
          ...(algo.reduceOnly ? { reduceOnly: true } : {}),
          tag: algo.tag,
        });
        algo.ordId = placed.ordId!;
        algo.state = 'effective';
      } catch (error) {
        if (!(error instanceof OrderRefusal)) throw error;
        algo.failCode = error.sCode;
        algo.state = 'order_failed';
      }
    }
  }

  /** An entry of POST trade/cancel-algos. */
  private cancelAlgo(account: Account, body: Record<string, unknown>): Record<string, string> {
    const algo = this.lookUpAlgo(account, str(body['instId']), str(body['algoId']), str(body['algoClOrdId']));
    if (!algo || algo.state !== 'live') {
      throw new OrderRefusal(
        '51400',
        'Cancellation failed as the order has been filled, canceled or does not exist.',
      );
    }
    algo.state = 'canceled';
    algo.uTime = Date.now();
    return { algoId: algo.algoId, algoClOrdId: algo.algoClOrdId, clOrdId: '', tag: algo.tag };
  }

  private lookUpAlgo(account: Account, instId: string, algoId: string, algoClOrdId: string) {
    if (!algoId && !algoClOrdId) throw new OrderRefusal('51000', 'Parameter algoId error');
    return this.algos.findLast(
      (a) =>
        a.apiKey === account.apiKey &&
        (!instId || a.inst.instId === instId) &&
        (algoId ? a.algoId === algoId : a.algoClOrdId === algoClOrdId),
    );
  }

  /** GET trade/order-algo. */
  private findAlgo(account: Account, params: URLSearchParams): AlgoState {
    let found: AlgoState | undefined;
    try {
      found = this.lookUpAlgo(
        account,
        params.get('instId') ?? '',
        params.get('algoId') ?? '',
        params.get('algoClOrdId') ?? '',
      );
    } catch (error) {
      if (error instanceof OrderRefusal) throw new OkxApiError(400, error.sCode, error.message);
      throw error;
    }
    if (!found) throw new OkxApiError(200, '51603', 'Order does not exist');
    return found;
  }

  /** GET orders-algo-pending (live) and orders-algo-history (ended; `state` or `algoId` required). */
  private listAlgos(account: Account, params: URLSearchParams, which: 'pending' | 'history') {
    const ordTypes = (params.get('ordType') ?? '').split(',').filter((t) => t !== '');
    if (ordTypes.length === 0) throw new OkxApiError(400, '50014', 'Parameter ordType can not be empty');
    const state = params.get('state');
    const algoId = params.get('algoId');
    if (which === 'history' && !state && !algoId) {
      throw new OkxApiError(400, '50014', 'Parameter state can not be empty');
    }
    const instType = params.get('instType');
    const instId = params.get('instId');
    const limit = Math.min(Number(params.get('limit') ?? PAGE_LIMIT), PAGE_LIMIT);
    const matches = this.algos.filter(
      (a) =>
        a.apiKey === account.apiKey &&
        ordTypes.includes(a.ordType) &&
        (!instType || a.inst.instType === instType) &&
        (!instId || a.inst.instId === instId) &&
        (!algoId || a.algoId === algoId) &&
        (which === 'pending' ? a.state === 'live' : a.state !== 'live' && (!state || a.state === state)),
    );
    return page(matches, (a) => BigInt(a.algoId), params.get('after'), params.get('before'), limit).map((a) =>
      this.algoView(a),
    );
  }

  private algoView(algo: AlgoState) {
    const conditional = algo.ordType === 'conditional';
    const trigger = s(algo.triggerPx);
    const orderPx = algo.orderPx === null ? '-1' : s(algo.orderPx);
    const effective = algo.state === 'effective';
    return {
      instType: algo.inst.instType,
      instId: algo.inst.instId,
      ccy: '',
      ordId: algo.ordId,
      ordIdList: algo.ordId ? [algo.ordId] : [],
      algoId: algo.algoId,
      clOrdId: '',
      algoClOrdId: algo.algoClOrdId,
      sz: s(algo.sz),
      closeFraction: '',
      ordType: algo.ordType,
      side: algo.side,
      posSide: algo.posSide,
      tdMode: algo.tdMode,
      tgtCcy: '',
      state: algo.state,
      lever: String(this.leverageOf(this.accounts.get(algo.apiKey)!, algo.inst.instId)),
      tpTriggerPx: '',
      tpTriggerPxType: '',
      tpOrdPx: '',
      slTriggerPx: conditional ? trigger : '',
      slTriggerPxType: conditional ? algo.triggerPxType : '',
      slOrdPx: conditional ? orderPx : '',
      triggerPx: conditional ? '' : trigger,
      triggerPxType: conditional ? '' : algo.triggerPxType,
      ordPx: conditional ? '' : orderPx,
      actualSz: effective ? s(algo.sz) : '',
      actualPx: effective ? orderPx : '',
      actualSide: effective && conditional ? 'sl' : '',
      triggerTime: algo.triggerTime === null ? '' : String(algo.triggerTime),
      reduceOnly: String(algo.reduceOnly),
      failCode: algo.failCode,
      tag: algo.tag,
      last: s(algo.inst.pair.price),
      cTime: String(algo.cTime),
      uTime: String(algo.uTime),
    };
  }

  /** The order's position leg: net in net mode, long/short (required on swaps) in long/short mode. */
  private positionSide(account: Account, inst: Instrument, given: string): PosSide {
    if (inst.instType !== 'SWAP') return 'net';
    if (account.posMode === 'net_mode') {
      if (given !== '' && given !== 'net') throw new OrderRefusal('51000', 'Parameter posSide error');
      return 'net';
    }
    if (given !== 'long' && given !== 'short') throw new OrderRefusal('51000', 'Parameter posSide error');
    return given;
  }

  /** Base quantity a quote amount buys walking the asks, in whole lots. */
  private quantityForQuote(inst: Instrument, quote: Decimal): Decimal {
    let remaining = quote;
    let qty = new Decimal(0);
    for (const level of this.liquidity(inst, 'buy')) {
      const cost = level.px.times(level.sz);
      if (cost.gte(remaining)) {
        qty = qty.plus(remaining.div(level.px));
        break;
      }
      qty = qty.plus(level.sz);
      remaining = remaining.minus(cost);
    }
    return qty.div(inst.lotSz).floor().times(inst.lotSz);
  }

  /** The walk a taker would do now, against liquidity within its limit. */
  private planTake(order: OrderState) {
    const plan: Array<{ px: Decimal; sz: Decimal; maker: OrderState | null }> = [];
    let remaining = order.execSz;
    for (const level of this.liquidity(order.inst, order.side, order.apiKey)) {
      if (remaining.isZero()) break;
      if (order.px !== null && (order.side === 'buy' ? level.px.gt(order.px) : level.px.lt(order.px))) break;
      const sz = Decimal.min(remaining, level.sz);
      plan.push({ px: level.px, sz, maker: level.maker });
      remaining = remaining.minus(sz);
    }
    return plan;
  }

  /** Spot (cash): refuses (51008) without the funds, then locks what the order may spend. */
  private reserveSpot(account: Account, order: OrderState, plan: Array<{ px: Decimal; sz: Decimal }>): void {
    const { base, quote } = order.inst.pair.spec;
    const ccy = order.side === 'buy' ? quote : base;
    const needed =
      order.side === 'sell'
        ? order.execSz
        : order.px !== null
          ? order.execSz.times(order.px)
          : plan.reduce((total, step) => total.plus(step.px.times(step.sz)), new Decimal(0));
    if (this.available(account, ccy).availBal.lt(needed)) {
      throw new OrderRefusal('51008', `Order failed. Insufficient ${ccy} balance in account.`);
    }
    order.locked = needed;
    order.lockCcy = ccy;
  }

  /** Swaps: reduce-only and closing legs must reduce; new exposure needs initial margin (51008). */
  private checkSwap(account: Account, order: OrderState, plan: Array<{ px: Decimal; sz: Decimal }>): void {
    const position = account.positions.get(`${order.inst.instId}|${order.posSide}`)?.pos ?? new Decimal(0);
    const signed = order.side === 'buy' ? order.execSz : order.execSz.neg();
    const closesLeg =
      (order.posSide === 'long' && order.side === 'sell') ||
      (order.posSide === 'short' && order.side === 'buy');
    if (order.reduceOnly || closesLeg) {
      if (position.isZero()) {
        throw new OrderRefusal(
          '51169',
          "Order failed because you don't have any positions in this direction for this contract to reduce or close.",
        );
      }
      if (position.isNeg() === signed.isNeg()) {
        throw new OrderRefusal(
          '51170',
          "Failed to place order. A reduce-only order can't be the same trading direction as your existing positions.",
        );
      }
      if (closesLeg && order.execSz.gt(position.abs())) {
        throw new OrderRefusal('51112', 'Close order size exceeds your available size.');
      }
      return;
    }
    const opening =
      position.isZero() || position.isNeg() === signed.isNeg()
        ? order.execSz
        : Decimal.max(0, order.execSz.minus(position.abs()));
    const px = order.px ?? plan.at(-1)?.px ?? order.inst.pair.price;
    const notional = opening.times(order.inst.ctVal).times(px);
    const needed = notional.div(order.lever).plus(feeOf(notional, FEES.SWAP.taker));
    if (this.available(account, order.inst.pair.spec.quote).availEq.lt(needed)) {
      throw new OrderRefusal(
        '51008',
        `Order failed. Insufficient ${order.inst.pair.spec.quote} margin in account`,
      );
    }
  }

  /**
   * What a reducing order (reduce-only, or closing a leg in long/short mode) may still fill: the position it
   * reduces, when that lies the other way; null for an order that does not reduce.
   */
  private reducible(order: OrderState): Decimal | null {
    const closesLeg =
      (order.posSide === 'long' && order.side === 'sell') ||
      (order.posSide === 'short' && order.side === 'buy');
    if (!order.reduceOnly && !closesLeg) return null;
    const account = this.accounts.get(order.apiKey)!;
    const position = account.positions.get(`${order.inst.instId}|${order.posSide}`)?.pos ?? new Decimal(0);
    const opposite = !position.isZero() && position.isNeg() === (order.side === 'buy');
    return opposite ? position.abs() : new Decimal(0);
  }

  /** Executes up to `sz` of `order` at `px` (a reducing order never past the position), and its maker. */
  private fill(
    order: OrderState,
    px: Decimal,
    sz: Decimal,
    execType: 'T' | 'M',
    maker: OrderState | null = null,
  ): void {
    const room = this.reducible(order);
    const qty = room === null ? sz : Decimal.min(sz, room);
    if (qty.gt(0)) {
      if (maker) this.execute(maker, px, qty, 'M');
      this.execute(order, px, qty, execType);
    }
    // A reducing order with nothing left to reduce is cancelled: it never opens the other side.
    if (room !== null && this.isLive(order) && qty.lt(sz)) this.finish(order, 'canceled', '20');
  }

  private execute(order: OrderState, px: Decimal, sz: Decimal, execType: 'T' | 'M'): void {
    const account = this.accounts.get(order.apiKey)!;
    const { inst } = order;
    const { base, quote } = inst.pair.spec;
    const fees = FEES[inst.instType];
    const rate = execType === 'M' ? fees.maker : fees.taker;
    const notional = px.times(sz).times(inst.ctVal);
    const now = Date.now();
    let fee: Decimal;
    let fillPnl = new Decimal(0);

    if (inst.instType === 'SPOT') {
      if (order.side === 'buy') {
        // Spot buys pay their fee in the coin received.
        fee = feeOf(sz, rate);
        order.locked = Decimal.max(0, order.locked.minus(notional));
        this.addCash(account, quote, notional.neg());
        this.addCash(account, base, sz.minus(fee));
      } else {
        fee = feeOf(notional, rate);
        order.locked = Decimal.max(0, order.locked.minus(sz));
        this.addCash(account, base, sz.neg());
        this.addCash(account, quote, notional.minus(fee));
      }
    } else {
      fee = feeOf(notional, rate);
      const key = `${inst.instId}|${order.posSide}`;
      const position = account.positions.get(key) ?? {
        pos: new Decimal(0),
        avgPx: new Decimal(0),
        posId: this.newId(),
        cTime: now,
        uTime: now,
        realizedPnl: new Decimal(0),
        fee: new Decimal(0),
        fundingFee: new Decimal(0),
      };
      const signed = order.side === 'buy' ? sz : sz.neg();
      if (position.pos.isZero() || position.pos.isNeg() === signed.isNeg()) {
        const size = position.pos.abs().plus(sz);
        position.avgPx = position.avgPx.times(position.pos.abs()).plus(px.times(sz)).div(size);
        position.pos = position.pos.plus(signed);
      } else {
        const closing = Decimal.min(sz, position.pos.abs());
        fillPnl = px
          .minus(position.avgPx)
          .times(closing)
          .times(inst.ctVal)
          .times(position.pos.isNeg() ? -1 : 1);
        const flips = sz.gt(position.pos.abs());
        position.pos = position.pos.plus(signed);
        if (position.pos.isZero()) position.avgPx = new Decimal(0);
        else if (flips) position.avgPx = px;
      }
      position.uTime = now;
      position.realizedPnl = position.realizedPnl.plus(fillPnl);
      position.fee = position.fee.minus(fee);
      account.positions.set(key, position);
      this.addCash(account, quote, fillPnl.minus(fee));
    }

    order.accFillSz = order.accFillSz.plus(sz);
    order.fillNotional = order.fillNotional.plus(px.times(sz));
    order.fee = order.fee.minus(fee);
    order.pnl = order.pnl.plus(fillPnl);
    const fill: FillState = {
      billId: this.newId(),
      tradeId: this.newId(),
      order,
      px,
      sz,
      fee: fee.neg(),
      feeCcy: order.feeCcy,
      execType,
      fillPnl,
      ts: now,
    };
    order.last = fill;
    this.fills.push(fill);
    if (inst.instType === 'SWAP') {
      this.bills.push({
        billId: fill.billId,
        apiKey: account.apiKey,
        inst,
        type: '2',
        subType: order.side === 'buy' ? '1' : '2',
        ts: now,
        balChg: fillPnl.minus(fee),
        bal: this.cashOf(account, quote),
        sz,
        px,
        pnl: fillPnl,
        fee: fee.neg(),
        mgnMode: order.tdMode,
        fill,
      });
    }
    if (order.accFillSz.gte(order.execSz)) this.finish(order, 'filled');
    else {
      order.state = 'partially_filled';
      order.uTime = now;
    }
  }

  /** Terminal state: whatever the order still locks is released. */
  private finish(order: OrderState, state: 'filled' | 'canceled', cancelSource = ''): void {
    order.state = state;
    order.uTime = Date.now();
    order.cancelSource = state === 'canceled' ? cancelSource : '';
    order.locked = new Decimal(0);
  }

  private cancelOrder(account: Account, body: Record<string, unknown>): Record<string, string> {
    const found = this.lookUp(account, str(body['instId']), str(body['ordId']), str(body['clOrdId']));
    if (!found || !this.isLive(found)) {
      throw new OrderRefusal(
        '51400',
        'Order cancellation failed as the order has been filled, canceled or does not exist.',
      );
    }
    this.finish(found, 'canceled', '1');
    return { ordId: found.ordId, clOrdId: found.clOrdId };
  }

  /** Orders the venue still shows: a cancelled order without fills is forgotten after two hours. */
  private retained(order: OrderState): boolean {
    return !(
      order.state === 'canceled' &&
      order.accFillSz.isZero() &&
      Date.now() - order.uTime > UNFILLED_CANCEL_RETENTION_MS
    );
  }

  private lookUp(account: Account, instId: string, ordId: string, clOrdId: string): OrderState | undefined {
    if (!ordId && !clOrdId)
      throw new OrderRefusal('51003', 'Either client order ID or order ID is required.');
    return [...this.orders]
      .reverse()
      .find(
        (o) =>
          o.apiKey === account.apiKey &&
          o.inst.instId === instId &&
          (ordId ? o.ordId === ordId : o.clOrdId === clOrdId) &&
          this.retained(o),
      );
  }

  private findOrder(account: Account, params: URLSearchParams): OrderState {
    this.requireInstrument(params.get('instId'));
    let found: OrderState | undefined;
    try {
      found = this.lookUp(
        account,
        params.get('instId')!,
        params.get('ordId') ?? '',
        params.get('clOrdId') ?? '',
      );
    } catch (error) {
      if (error instanceof OrderRefusal) throw new OkxApiError(400, error.sCode, error.message);
      throw error;
    }
    if (!found) throw new OkxApiError(200, '51603', 'Order does not exist');
    return found;
  }

  private orderView(order: OrderState) {
    const { inst } = order;
    const average = order.accFillSz.gt(0) ? order.fillNotional.div(order.accFillSz) : null;
    const last = order.last;
    return {
      instType: inst.instType,
      instId: inst.instId,
      tgtCcy: order.tgtCcy,
      ccy: '',
      ordId: order.ordId,
      clOrdId: order.clOrdId,
      tag: order.tag,
      px: order.px === null ? '' : s(order.px),
      pxUsd: '',
      pxVol: '',
      pxType: '',
      sz: s(order.sz),
      pnl: s(order.pnl),
      ordType: order.ordType,
      side: order.side,
      posSide: order.posSide,
      tdMode: order.tdMode,
      accFillSz: s(order.accFillSz),
      fillPx: last ? s(last.px) : '',
      tradeId: last ? last.tradeId : '',
      fillSz: last ? s(last.sz) : '',
      fillTime: last ? String(last.ts) : '',
      avgPx: average ? s(average) : '',
      state: order.state,
      stpId: '',
      stpMode: 'cancel_maker',
      lever: inst.instType === 'SWAP' ? String(order.lever) : '',
      attachAlgoClOrdId: '',
      tpTriggerPx: '',
      tpTriggerPxType: '',
      tpOrdPx: '',
      slTriggerPx: '',
      slTriggerPxType: '',
      slOrdPx: '',
      attachAlgoOrds: [],
      linkedAlgoOrd: { algoId: '' },
      stpMode2: '',
      feeCcy: order.feeCcy,
      fee: s(order.fee),
      rebateCcy: order.feeCcy,
      rebate: '0',
      source: '',
      category: 'normal',
      reduceOnly: String(order.reduceOnly),
      isTpLimit: 'false',
      cancelSource: order.cancelSource,
      cancelSourceReason: '',
      quickMgnType: '',
      algoClOrdId: '',
      algoId: '',
      uTime: String(order.uTime),
      cTime: String(order.cTime),
    };
  }

  /** Pending (live) orders, or the ended orders of the last 7 days; newest first, paged by `ordId`. */
  private listOrders(account: Account, params: URLSearchParams, which: 'pending' | 'history') {
    const instType = this.instType(params, which === 'history');
    const instId = params.get('instId');
    if (instId) this.requireInstrument(instId);
    const after = params.get('after');
    const before = params.get('before');
    const begin = Number(params.get('begin') ?? 0);
    const end = Number(params.get('end') ?? Number.MAX_SAFE_INTEGER);
    const limit = Math.min(Number(params.get('limit') ?? PAGE_LIMIT), PAGE_LIMIT);
    const state = params.get('state');
    const since = Date.now() - 7 * DAY_MS;
    const matches = this.orders.filter(
      (o) =>
        o.apiKey === account.apiKey &&
        (!instType || o.inst.instType === instType) &&
        (!instId || o.inst.instId === instId) &&
        (which === 'pending' ? this.isLive(o) : !this.isLive(o) && o.cTime >= since && this.retained(o)) &&
        (!state || o.state === state) &&
        o.cTime >= begin &&
        o.cTime <= end,
    );
    return page(matches, (o) => BigInt(o.ordId), after, before, limit).map((o) => this.orderView(o));
  }

  /** Fills of the window, newest first, paged by `billId`, filtered by instrument and order. */
  private listFills(account: Account, params: URLSearchParams, windowMs: number, instTypeRequired: boolean) {
    const instType = this.instType(params, instTypeRequired);
    const instId = params.get('instId');
    if (instId) this.requireInstrument(instId);
    const ordId = params.get('ordId');
    const begin = Number(params.get('begin') ?? 0);
    const end = Number(params.get('end') ?? Number.MAX_SAFE_INTEGER);
    const limit = Math.min(Number(params.get('limit') ?? PAGE_LIMIT), PAGE_LIMIT);
    const since = Date.now() - windowMs;
    const matches = this.fills.filter(
      (f) =>
        f.order.apiKey === account.apiKey &&
        (!instType || f.order.inst.instType === instType) &&
        (!instId || f.order.inst.instId === instId) &&
        (!ordId || f.order.ordId === ordId) &&
        f.ts >= since &&
        f.ts >= begin &&
        f.ts <= end,
    );
    return page(matches, (f) => BigInt(f.billId), params.get('after'), params.get('before'), limit).map(
      (f) => ({
        instType: f.order.inst.instType,
        instId: f.order.inst.instId,
        tradeId: f.tradeId,
        ordId: f.order.ordId,
        clOrdId: f.order.clOrdId,
        billId: f.billId,
        subType: f.order.side === 'buy' ? '1' : '2',
        tag: f.order.tag,
        fillPx: s(f.px),
        fillSz: s(f.sz),
        fillIdxPx: s(f.px),
        fillPnl: s(f.fillPnl),
        fillPxVol: '',
        fillPxUsd: '',
        fillMarkVol: '',
        fillFwdPx: '',
        fillMarkPx: f.order.inst.instType === 'SWAP' ? s(f.px) : '',
        side: f.order.side,
        posSide: f.order.posSide,
        execType: f.execType,
        feeCcy: f.feeCcy,
        fee: s(f.fee),
        ts: String(f.ts),
        fillTime: String(f.ts),
        feeRate: s(FEES[f.order.inst.instType][f.execType === 'M' ? 'maker' : 'taker'].neg()),
      }),
    );
  }

  // ---- funding and bills ---------------------------------------------------------------------------------

  /**
   * GET public/funding-rate: the rate last charged stands for both the coming settlement's rate and the last
   * settled one; the coming settlement is the next 8-hour boundary.
   */
  private fundingRate(inst: Instrument) {
    if (inst.instType !== 'SWAP') throw new OkxApiError(400, '51000', 'Parameter instId error');
    const now = Date.now();
    const next = (Math.floor(now / FUNDING_INTERVAL_MS) + 1) * FUNDING_INTERVAL_MS;
    const rate = s(this.fundingRates.get(inst.instId) ?? DEFAULT_FUNDING_RATE);
    return {
      formulaType: 'noRate',
      fundingRate: rate,
      fundingTime: String(next),
      impactValue: '',
      instId: inst.instId,
      instType: 'SWAP',
      interestRate: '',
      maxFundingRate: '0.00375',
      method: 'current_period',
      minFundingRate: '-0.00375',
      nextFundingRate: '',
      nextFundingTime: String(next + FUNDING_INTERVAL_MS),
      premium: '0',
      settFundingRate: rate,
      settState: 'settled',
      ts: String(now),
    };
  }

  /** Bills of the window, newest first, paged by `billId` (`after` older, `before` newer), filtered. */
  private listBills(account: Account, params: URLSearchParams, windowMs: number) {
    const instType = this.instType(params, false);
    const instId = params.get('instId');
    if (instId) this.requireInstrument(instId);
    const [ccy, mgnMode, ctType, type, subType] = ['ccy', 'mgnMode', 'ctType', 'type', 'subType'].map(
      (name) => params.get(name),
    );
    const begin = Number(params.get('begin') ?? 0);
    const end = Number(params.get('end') ?? Number.MAX_SAFE_INTEGER);
    const limit = Math.min(Number(params.get('limit') ?? PAGE_LIMIT), PAGE_LIMIT);
    const since = Date.now() - windowMs;
    const matches = this.bills.filter(
      (b) =>
        b.apiKey === account.apiKey &&
        (!instType || b.inst.instType === instType) &&
        (!instId || b.inst.instId === instId) &&
        (!ccy || b.inst.pair.spec.quote === ccy) &&
        (!mgnMode || b.mgnMode === mgnMode) &&
        (!ctType || ctType === 'linear') &&
        (!type || b.type === type) &&
        (!subType || b.subType === subType) &&
        b.ts >= since &&
        b.ts >= begin &&
        b.ts <= end,
    );
    return page(matches, (b) => BigInt(b.billId), params.get('after'), params.get('before'), limit).map(
      (b) => ({
        bal: s(b.bal),
        balChg: s(b.balChg),
        billId: b.billId,
        ccy: b.inst.pair.spec.quote,
        clOrdId: b.fill?.order.clOrdId ?? '',
        earnAmt: '',
        earnApr: '',
        execType: b.fill?.execType ?? '',
        fee: s(b.fee),
        fillFwdPx: '',
        fillIdxPx: b.fill ? s(b.fill.px) : '',
        fillMarkPx: b.fill ? s(b.fill.px) : '',
        fillMarkVol: '',
        fillPxUsd: '',
        fillPxVol: '',
        fillTime: b.fill ? String(b.fill.ts) : '',
        from: '',
        instId: b.inst.instId,
        instType: b.inst.instType,
        interest: '0',
        mgnMode: b.mgnMode,
        notes: '',
        ordId: b.fill?.order.ordId ?? '',
        pnl: s(b.pnl),
        posBal: '0',
        posBalChg: '0',
        px: s(b.px),
        subType: b.subType,
        sz: s(b.sz),
        tag: b.fill?.order.tag ?? '',
        to: '',
        tradeId: b.fill?.tradeId ?? '',
        ts: String(b.ts),
        type: b.type,
      }),
    );
  }
}

/**
 * OKX paging: newest first; `after` asks for records older than that id, `before` for newer ones (the
 * `limit` closest to it, still answered newest first).
 */
function page<T>(
  rows: T[],
  id: (row: T) => bigint,
  after: string | null,
  before: string | null,
  limit: number,
): T[] {
  let selected = rows;
  if (after) selected = selected.filter((row) => id(row) < BigInt(after));
  if (before) selected = selected.filter((row) => id(row) > BigInt(before));
  const ascending = [...selected].sort((a, b) => (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0));
  const chosen = before && !after ? ascending.slice(0, limit) : ascending.slice(-limit);
  return chosen.reverse();
}

function sumSz(plan: Array<{ sz: Decimal }>): Decimal {
  return plan.reduce((total, step) => total.plus(step.sz), new Decimal(0));
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

function decimal(value: unknown): Decimal | null {
  const text = str(value);
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  return new Decimal(text);
}
