import { computeTradePnl, isOpenState, toDecimal } from '@kairos/core';
import type { Decimal } from '@kairos/core';
import { heldQuantity } from '../../src/engine/trades-fns';
import { SPOT_VENUE_STOPS } from '../../src/exchange/capabilities';
import { CcxtGateway } from '../../src/exchange/ccxt-gateway';
import type { AccountMarketType, ExchangeGateway, Fill, VenueStops } from '../../src/exchange/gateway';
import { paperVenueStops } from '../../src/exchange/paper/paper-gateway';
import { VenueThrottleRegistry } from '../../src/exchange/venue-throttle';
import { sharedVenueThrottles, venueKey } from '../../src/exchange/venue-throttle';
import { Decimal as ExchangeDecimal } from '../../src/exchange/decimal';
import { ScriptedMarket } from '../fakes/scripted-market';
import { callApi } from '../security/world';
import { startTradesApp, type TradesApp } from './trades-app';
import { BinanceTestServer, DEFAULT_TEST_MARKETS } from '../fakes/binance-server';
import { BybitTestServer, DEFAULT_BYBIT_MARKETS } from '../fakes/bybit-server';
import { DEFAULT_OKX_MARKETS, OkxTestServer } from '../fakes/okx-server';
import { createPaperAccount } from './engine';
import type { MatrixVenue } from './fault-matrix';
import { registerUser } from './users';

/**
 * The venues the engine's scenario suite and the lifecycle fault matrix run on: the paper venue (a scripted
 * market) and the protocol test servers of Binance, Bybit and OKX reached through ccxt — each with the real
 * app trading on it, accounts connected through the public API, and the price moved on the venue itself.
 */
export type VenueKind = 'paper' | 'binance' | 'bybit' | 'okx';

/** One column of the capability table: a venue and market type an account can trade. */
export type VenueColumn = {
  id: string;
  label: string;
  kind: VenueKind;
  /** The ccxt id (or 'paper') the account is connected with. */
  exchange: string;
  marketType: AccountMarketType;
};

export const VENUE_COLUMNS: VenueColumn[] = [
  { id: 'paper-spot', label: 'Paper spot', kind: 'paper', exchange: 'paper', marketType: 'spot' },
  { id: 'paper-futures', label: 'Paper futures', kind: 'paper', exchange: 'paper', marketType: 'future' },
  { id: 'binance-spot', label: 'Binance spot', kind: 'binance', exchange: 'binance', marketType: 'spot' },
  // Binance futures through either ccxt id: `binance` with a futures account, and `binanceusdm`.
  {
    id: 'binance-futures',
    label: 'Binance futures',
    kind: 'binance',
    exchange: 'binance',
    marketType: 'future',
  },
  {
    id: 'binance-usdm',
    label: 'Binance USDⓈ-M',
    kind: 'binance',
    exchange: 'binanceusdm',
    marketType: 'future',
  },
  { id: 'bybit-spot', label: 'Bybit spot', kind: 'bybit', exchange: 'bybit', marketType: 'spot' },
  { id: 'bybit-linear', label: 'Bybit linear', kind: 'bybit', exchange: 'bybit', marketType: 'future' },
  { id: 'okx-spot', label: 'OKX spot', kind: 'okx', exchange: 'okx', marketType: 'spot' },
  { id: 'okx-swap', label: 'OKX swap', kind: 'okx', exchange: 'okx', marketType: 'future' },
];

/** A venue with the app trading on it, and what the scenarios need of the venue itself. */
export type VenueSetup = {
  kind: VenueKind;
  /** `venue.t` is the app running now (a restart replaces it). */
  venue: MatrixVenue;
  /** The app's gateway for an account (the instance the engine itself uses). */
  gateway(accountId: string): Promise<ExchangeGateway>;
  /**
   * How many orders the venue took from the account's requests, stop orders included (not the orders a
   * triggered stop became), from the venue's own record; refusals not counted.
   */
  acceptedOrders(accountId: string): Promise<number>;
  /** The base of the partial-fill scenario's pair (ETH on the servers: no other scenario trades it). */
  partialCurrency: string;
  /**
   * Thins that pair's book: a 1,300 USDT market buy fills in several pieces and ends short of its amount.
   * Returns the undo.
   */
  thinBook(): () => void;
  /**
   * The realised PnL (before fees) the venue itself booked on a futures order's fills — its own figure, not
   * one computed from the fills; undefined on the paper venue (Kairos' own code).
   */
  closedPnl?(venueOrderId: string): Decimal;
  /**
   * A spot account's stop-limits at the venue (issue 18): the app's gateway's `stops` where the capability row
   * has spot stops, else the venue's spot stop-limits reached directly (`SPOT_VENUE_STOPS`, `paperVenueStops`).
   */
  spotStops(accountId: string): Promise<VenueStops>;
  /** Moves BTC/USDT at the venue while Kairos is stopped (a protocol server matches at once; paper later). */
  moveWhileDown(price: string): void;
  /** What the venue does on its own once time passed: the paper venue matches what the path crossed. */
  venueTick(accountId: string): Promise<void>;
  /** Stops the app (database kept), runs `whileDown`, starts a new app on the same database. */
  restart(whileDown: () => void | Promise<void>): Promise<void>;
  close(): Promise<void>;
};

/**
 * The protocol test servers keep no request budget and answer at once, so ccxt's per-venue throttle (the
 * venue's real budget, e.g. Binance's 20 weight a second) would only make the tests sleep: the server's
 * egress gets a budget it never spends. Must run before the first gateway on that origin exists.
 */
function unthrottled(exchangeIds: string[], origin: string) {
  for (const exchangeId of exchangeIds)
    sharedVenueThrottles.forVenue(venueKey({ exchangeId, sandbox: false, baseUrl: origin }), {
      capacity: 10_000,
      refillPerSecond: 10_000,
    });
}

/** What differs from one protocol server to the next. */
type ProtocolServer = {
  name: string;
  exchange: string;
  exchanges: string[];
  origin: string;
  venueUrls: Record<string, string>;
  /** A new account at the venue: its keys as POST /api/trading-accounts takes them. */
  newKeys(seq: number): { apiKey: string; fields: Record<string, string> };
  setPrice(price: string): void;
  accepted(apiKey: string): number;
  /** The realised PnL (before fees) the venue itself booked on a futures order's fills. */
  closedPnl(venueOrderId: string): string;
  thinBook(): () => void;
  close(): Promise<void>;
};

async function binanceServer(): Promise<ProtocolServer> {
  const server = await BinanceTestServer.start();
  return {
    name: 'binance (protocol server, ccxt)',
    exchange: 'binance',
    exchanges: ['binance', 'binanceusdm'],
    origin: server.origin,
    venueUrls: server.venueUrls(),
    newKeys(seq) {
      const apiKey = `matrixKey${String(seq).padStart(16, '0')}`;
      const secret = `matrix-secret-${seq}`;
      server.addAccount({ apiKey, secret, balances: { USDT: '10000' }, futuresWallet: '10000' });
      return { apiKey, fields: { apiKey, apiSecret: secret } };
    },
    setPrice: (price) => server.setPrice('BTCUSDT', price),
    accepted: (apiKey) =>
      server.requests.filter(
        (r) =>
          r.method === 'POST' &&
          // USDⓈ-M stop orders rest in the Algo Service (issue 18).
          ['/api/v3/order', '/fapi/v1/order', '/fapi/v1/algoOrder'].includes(r.path) &&
          r.apiKey === apiKey &&
          r.status === 200,
      ).length,
    thinBook() {
      server.setLevelQty('ETHUSDT', '0.01');
      return () => server.setLevelQty('ETHUSDT', DEFAULT_TEST_MARKETS['ETHUSDT']!.levelQty);
    },
    closedPnl: (orderId) => server.closedPnl(orderId),
    close: () => server.close(),
  };
}

async function bybitServer(): Promise<ProtocolServer> {
  const server = await BybitTestServer.start();
  return {
    name: 'bybit (protocol server, ccxt)',
    exchange: 'bybit',
    exchanges: ['bybit'],
    origin: server.origin,
    venueUrls: server.venueUrls(),
    newKeys(seq) {
      const apiKey = `bybitMatrix${String(seq).padStart(10, '0')}`;
      const secret = `bybit-matrix-secret-${seq}`;
      server.addAccount({ apiKey, secret, wallet: { USDT: '10000' } });
      return { apiKey, fields: { apiKey, apiSecret: secret } };
    },
    setPrice: (price) => server.setPrice('BTCUSDT', price),
    accepted: (apiKey) =>
      server.requests.filter(
        (r) => r.method === 'POST' && r.path === '/v5/order/create' && r.apiKey === apiKey && r.retCode === 0,
      ).length,
    thinBook() {
      server.setLevelQty('ETHUSDT', '0.01');
      return () => server.setLevelQty('ETHUSDT', DEFAULT_BYBIT_MARKETS['ETHUSDT']!.levelQty);
    },
    closedPnl: (orderId) => server.closedPnl(orderId),
    close: () => server.close(),
  };
}

async function okxServer(): Promise<ProtocolServer> {
  const server = await OkxTestServer.start();
  return {
    name: 'okx (protocol server, ccxt)',
    exchange: 'okx',
    exchanges: ['okx'],
    origin: server.origin,
    venueUrls: server.venueUrls(),
    newKeys(seq) {
      const apiKey = `okxMatrix${String(seq).padStart(8, '0')}`;
      const secret = `okx-matrix-secret-${seq}`;
      const passphrase = `Matrix-Pass-${seq}`;
      server.addAccount({ apiKey, secret, passphrase, balances: { USDT: '10000' } });
      return { apiKey, fields: { apiKey, apiSecret: secret, passphrase } };
    },
    setPrice: (price) => server.setPrice('BTC-USDT', price),
    accepted: (apiKey) =>
      server.requests
        .filter(
          (r) =>
            r.method === 'POST' &&
            // Stop orders are algo orders on OKX (issue 18).
            ['/api/v5/trade/order', '/api/v5/trade/batch-orders', '/api/v5/trade/order-algo'].includes(
              r.path,
            ) &&
            r.apiKey === apiKey,
        )
        .reduce((n, r) => n + r.sCodes.filter((code) => code === '0').length, 0),
    thinBook() {
      server.setLevelQty('ETH-USDT', '0.01');
      return () => server.setLevelQty('ETH-USDT', DEFAULT_OKX_MARKETS['ETH-USDT']!.levelQty);
    },
    closedPnl: (orderId) => server.closedPnl(orderId),
    close: () => server.close(),
  };
}

const SERVERS: Record<Exclude<VenueKind, 'paper'>, () => Promise<ProtocolServer>> = {
  binance: binanceServer,
  bybit: bybitServer,
  okx: okxServer,
};

/** The app's gateway for an account. */
async function gatewayOf(t: TradesApp, accountId: string) {
  const row = (await t.app.services.repos.accounts.findById(accountId))!;
  return t.app.services.venues.gateways.forAccount(row);
}

/** Starts a venue and the real app trading on it, with one registered user who owns every account. */
export async function startVenue(kind: VenueKind): Promise<VenueSetup> {
  return kind === 'paper' ? paperVenue() : protocolVenue(await SERVERS[kind]());
}

async function paperVenue(): Promise<VenueSetup> {
  const market = new ScriptedMarket(() => Date.now());
  const book = market.book;
  let t = await startTradesApp({ paperVenueOptions: { market } });
  const owner = await registerUser(t.app);
  const venue: MatrixVenue = {
    name: 'paper',
    t,
    owner,
    async newAccount(marketType) {
      market.moveTo('65000');
      const account = await createPaperAccount(venue.t.app, owner, { marketType });
      return { accountId: account.id, gateway: await gatewayOf(venue.t, account.id) };
    },
    async movePrice(accountId, price) {
      market.moveTo(price);
      await venue.t.app.services.venues.paperVenue.matchRestingOrders(accountId);
    },
  };
  return {
    kind: 'paper',
    venue,
    gateway: (accountId) => gatewayOf(venue.t, accountId),
    spotStops: async (accountId) =>
      (await gatewayOf(venue.t, accountId)).stops ??
      paperVenueStops(venue.t.app.services.venues.paperVenue, accountId, 'spot'),
    async acceptedOrders(accountId) {
      // Orders and stop orders (issue 18), less the orders triggered stops became.
      const { rows } = await venue.t.db.pool.query(
        `SELECT (SELECT count(*) FROM paper_orders WHERE account_id = $1)
              + (SELECT count(*) FROM paper_stops WHERE account_id = $1)
              - (SELECT count(*) FROM paper_stops WHERE account_id = $1 AND triggered_order_id IS NOT NULL) AS n`,
        [accountId],
      );
      return Number(rows[0].n);
    },
    partialCurrency: 'BTC',
    thinBook() {
      const level = (price: string) =>
        [new ExchangeDecimal(price), new ExchangeDecimal('0.004')] as [ExchangeDecimal, ExchangeDecimal];
      market.book = {
        asks: [level('65000'), level('65010'), level('65020')],
        bids: [level('64990'), level('64980'), level('64970')],
      };
      return () => {
        market.book = book;
      };
    },
    moveWhileDown: (price) => market.moveTo(price),
    venueTick: (accountId) => venue.t.app.services.venues.paperVenue.matchRestingOrders(accountId),
    async restart(whileDown) {
      await venue.t.close({ drop: false });
      await whileDown();
      t = await startTradesApp({ db: t.db, dataDir: t.dataDir, paperVenueOptions: { market } });
      venue.t = t;
    },
    close: () => venue.t.close(),
  };
}

async function protocolVenue(server: ProtocolServer): Promise<VenueSetup> {
  unthrottled(server.exchanges, server.origin);
  let t = await startTradesApp({ venueUrls: server.venueUrls });
  const owner = await registerUser(t.app);
  const keys = new Map<string, string>();
  const fieldsOf = new Map<string, Record<string, string>>();
  let seq = 0;
  const venue: MatrixVenue = {
    name: server.name,
    t,
    owner,
    async newAccount(marketType, options = {}) {
      server.setPrice('65000');
      seq += 1;
      const { apiKey, fields } = server.newKeys(seq);
      const exchange = options.exchange ?? server.exchange;
      const res = await callApi(venue.t, owner, 'POST', '/api/trading-accounts', {
        nickname: `${exchange} ${marketType} ${seq}`,
        exchange,
        marketType,
        ...fields,
      });
      if (res.status !== 201) throw new Error(`account: ${res.status} ${res.body}`);
      const accountId = res.json().results.id as string;
      keys.set(accountId, apiKey);
      fieldsOf.set(accountId, fields);
      return { accountId, gateway: await gatewayOf(venue.t, accountId) };
    },
    async movePrice(_accountId, price) {
      server.setPrice(price);
    },
  };
  return {
    kind: server.exchange as VenueKind,
    venue,
    gateway: (accountId) => gatewayOf(venue.t, accountId),
    async spotStops(accountId) {
      const wired = (await gatewayOf(venue.t, accountId)).stops;
      if (wired) return wired;
      const fields = fieldsOf.get(accountId)!;
      return new CcxtGateway({
        exchangeId: server.exchange,
        apiKey: fields['apiKey']!,
        secret: fields['apiSecret']!,
        ...(fields['passphrase'] ? { password: fields['passphrase'] } : {}),
        marketType: 'spot',
        apiUrls: server.venueUrls[server.exchange] ?? server.origin,
        throttle: new VenueThrottleRegistry(),
        venueStops: SPOT_VENUE_STOPS[server.exchange as keyof typeof SPOT_VENUE_STOPS],
      }).stops!;
    },
    acceptedOrders: async (accountId) => server.accepted(keys.get(accountId)!),
    partialCurrency: 'ETH',
    closedPnl: (venueOrderId) => toDecimal(server.closedPnl(venueOrderId)),
    thinBook: () => server.thinBook(),
    moveWhileDown: (price) => server.setPrice(price),
    venueTick: async () => undefined,
    async restart(whileDown) {
      await venue.t.close({ drop: false });
      await whileDown();
      t = await startTradesApp({ db: t.db, dataDir: t.dataDir, venueUrls: server.venueUrls });
      venue.t = t;
    },
    async close() {
      await venue.t.close();
      await server.close();
    },
  };
}

/** The account's holding of a pair's base at the venue: the spot balance, or the signed futures position. */
async function venueHolds(gateway: ExchangeGateway, symbol: string): Promise<Decimal> {
  const base = symbol.split('/')[0]!;
  if (gateway.marketType === 'future') {
    return (await gateway.fetchPositions())
      .filter((p) => p.symbol === symbol)
      .reduce((s, p) => s.plus(p.side === 'long' ? p.amount : toDecimal(p.amount).neg()), toDecimal(0));
  }
  return toDecimal((await gateway.fetchBalances())[base]?.total ?? '0');
}

const LIVE_AT_VENUE = new Set(['open', 'partially_filled']);

/**
 * Where the account's trades disagree with the venue, read back through the gateway (what the venue
 * answers) and from the venue's own record of orders it took:
 *
 * - every order: filled as the venue says, live exactly when the venue has it live; its stored fills are
 *   the venue's fills of that order (trade id, price, amount, fee and fee currency), none inferred;
 * - every trade: quantity, entry and exit prices, commission and realised PnL are what the venue's fills
 *   give;
 *   holding something, it is open with a stop or closing with a live exit; at most one filled entry;
 * - the account: what the venue holds of each pair equals what the trades hold; the venue took exactly the
 *   orders Kairos has a venue id for (nothing placed twice, nothing unknown), each id once; nothing rests at
 *   the venue that Kairos does not show live.
 */
export async function venueDisagreements(setup: VenueSetup, accountId: string): Promise<string[]> {
  const { t } = setup.venue;
  const gateway = await setup.gateway(accountId);
  const repo = t.app.services.repos.trades;
  const problems: string[] = [];
  const { rows } = await t.db.pool.query(
    'SELECT id FROM trades WHERE trading_account_id = $1 ORDER BY opened_at',
    [accountId],
  );
  const booked = new Map<string, Decimal>();
  const venueIds = new Set<string>();
  const liveIds = new Set<string>();
  for (const { id } of rows as { id: string }[]) {
    const trade = (await repo.findById(id))!;
    const orders = await repo.ordersOfTrade(id);
    const fills = await repo.fillsOfTrade(id);
    const label = `trade ${trade.side} ${trade.symbol} (${trade.status})`;
    const venueFills: Array<Fill & { entry: boolean }> = [];
    for (const order of orders) {
      const what = `${label} ${order.role} ${order.clientOrderId}`;
      if (!order.venueOrderId) {
        if (!['rejected', 'new'].includes(order.status))
          problems.push(`${what}: ${order.status} with no venue id`);
        continue;
      }
      if (venueIds.has(order.venueOrderId)) problems.push(`${what}: venue id ${order.venueOrderId} twice`);
      venueIds.add(order.venueOrderId);
      const atVenue = await gateway.fetchOrder(order.venueOrderId, order.symbol);
      if (!toDecimal(atVenue.filled).eq(order.filled))
        problems.push(`${what}: filled ${order.filled}, venue ${atVenue.filled}`);
      const live = LIVE_AT_VENUE.has(atVenue.status);
      if (live !== isOpenState(order.status))
        problems.push(`${what}: ${order.status}, venue ${atVenue.status}`);
      if (live) liveIds.add(order.venueOrderId);
      const theirs = toDecimal(atVenue.filled).gt(0)
        ? await gateway.fetchOrderFills(order.venueOrderId, order.symbol, order.createdAt.getTime() - 60_000)
        : [];
      const ours = fills.filter((f) => f.orderId === order.id);
      const key = (f: {
        venueTradeId: string;
        price: string;
        amount: string;
        fee: string | null;
        feeCurrency: string | null;
      }) =>
        [
          f.venueTradeId,
          toDecimal(f.price).toFixed(),
          toDecimal(f.amount).toFixed(),
          toDecimal(f.fee ?? '0').toFixed(),
          f.feeCurrency ?? '',
        ].join(' ');
      const a = ours.map(key).sort();
      const b = theirs.map(key).sort();
      if (a.join('|') !== b.join('|'))
        problems.push(`${what}: fills ${JSON.stringify(a)}, venue ${JSON.stringify(b)}`);
      if (ours.some((f) => f.inferred)) problems.push(`${what}: fills still inferred`);
      venueFills.push(...theirs.map((f) => ({ ...f, entry: order.role === 'entry' })));
    }
    const entrySide = trade.side === 'long' ? 'buy' : 'sell';
    const asPnlFill = (f: Fill) => ({
      side: f.side,
      price: f.price,
      quantity: f.amount,
      fee: f.fee,
      feeCurrency: f.feeCurrency,
    });
    if (venueFills.length > 0) {
      const pnl = computeTradePnl({
        side: trade.side,
        symbol: trade.symbol,
        entryFills: venueFills.filter((f) => f.side === entrySide).map(asPnlFill),
        exitFills: venueFills.filter((f) => f.side !== entrySide).map(asPnlFill),
      });
      const same = (field: string, ours: string | null, theirs: Decimal | null) => {
        // Stored at 18 decimals: a quotient (an average price) agrees to that scale, not to 40 digits.
        if (
          (ours === null) !== (theirs === null) ||
          (ours !== null && toDecimal(ours).minus(theirs!).abs().gt('1e-15'))
        )
          problems.push(`${label}: ${field} ${ours}, venue's fills give ${theirs?.toFixed() ?? null}`);
      };
      same('quantity', trade.quantity, pnl.entryQuantity);
      same('entry price', trade.entryPrice, pnl.averageEntryPrice);
      same('exit price', trade.exitPrice, pnl.averageExitPrice);
      same('commission', trade.commission, pnl.commission);
      same('realised PnL', trade.realisedPnl, pnl.exitQuantity.gt(0) ? pnl.realisedPnl : null);
      // Not only core's PnL of those fills (the engine's own formula): the venue's own realised PnL, less
      // the fees it charged, where it books one (futures on the protocol servers).
      if (setup.closedPnl && gateway.marketType === 'future' && pnl.exitQuantity.gt(0)) {
        const quote = trade.symbol.split('/')[1];
        if (venueFills.some((f) => f.fee !== null && f.feeCurrency !== quote))
          problems.push(`${label}: futures fees not in ${quote}`);
        const closed = orders
          .filter((o) => o.venueOrderId)
          .reduce((sum, o) => sum.plus(setup.closedPnl!(o.venueOrderId!)), toDecimal(0));
        const fees = venueFills.reduce((sum, f) => sum.plus(f.fee ?? '0'), toDecimal(0));
        same("realised PnL (the venue's own)", trade.realisedPnl, closed.minus(fees));
      }
    }
    const held = heldQuantity(trade, fills);
    booked.set(
      trade.symbol,
      (booked.get(trade.symbol) ?? toDecimal(0)).plus(trade.side === 'long' ? held : held.neg()),
    );
    if (held.gte('0.0001')) {
      const watched = trade.status === 'open' && trade.stopLossPrice !== null;
      const exiting =
        trade.status === 'closing' &&
        orders.some(
          (o) =>
            o.role !== 'entry' && !/^tp\d+$/.test(o.role) && (o.status === 'new' || isOpenState(o.status)),
        );
      if (!watched && !exiting)
        problems.push(`${label} holds ${held.toFixed()} with no watched stop or live exit`);
    }
    if (orders.filter((o) => o.role === 'entry' && toDecimal(o.filled).gt(0)).length > 1)
      problems.push(`${label}: more than one filled entry`);
  }
  // Stop orders resting on the venue (issue 18), where it has them: live exactly when Kairos has them live.
  const stopIds = new Set<string>();
  const { rows: stops } = await t.db.pool.query(
    `SELECT client_order_id, venue_order_id, symbol, status, triggered_order_id FROM venue_stops
     WHERE trading_account_id = $1`,
    [accountId],
  );
  // The orders triggered stops became: the venue made them, nobody sent them.
  const triggered = new Set(stops.map((s: { triggered_order_id: string | null }) => s.triggered_order_id));
  for (const stop of stops as {
    client_order_id: string;
    venue_order_id: string | null;
    symbol: string;
    status: string;
  }[]) {
    if (!stop.venue_order_id) continue;
    stopIds.add(stop.venue_order_id);
    const live = ['submitted', 'open', 'unknown'].includes(stop.status);
    if (live) liveIds.add(stop.venue_order_id);
    if (!gateway.stops) continue;
    const atVenue = await gateway.stops.fetchStop(stop.venue_order_id, stop.symbol);
    if ((atVenue.status === 'open') !== live)
      problems.push(`stop ${stop.client_order_id}: ${stop.status}, venue ${atVenue.status}`);
  }
  for (const [symbol, ours] of booked) {
    const theirs = await venueHolds(gateway, symbol);
    if (!theirs.eq(ours))
      problems.push(`${symbol}: venue holds ${theirs.toFixed()}, trades say ${ours.toFixed()}`);
    for (const order of await gateway.fetchOpenOrders(symbol))
      if (!liveIds.has(order.venueOrderId))
        problems.push(
          `${symbol}: order ${order.venueOrderId} (${order.clientOrderId}) rests at the venue, not live in Kairos`,
        );
  }
  const accepted = await setup.acceptedOrders(accountId);
  const known = new Set([...[...venueIds].filter((id) => !triggered.has(id)), ...stopIds]);
  if (accepted !== known.size)
    problems.push(`the venue took ${accepted} orders, Kairos knows ${known.size} of them`);
  return problems;
}
