import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilitiesFor } from '../../src/exchange/capabilities';
import type { AccountMarketType } from '../../src/exchange/gateway';
import { BinanceTestServer } from '../fakes/binance-server';
import { BybitTestServer } from '../fakes/bybit-server';
import { OkxTestServer } from '../fakes/okx-server';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { freePort } from '../../src/db/embedded-postgres';
import { spawnServer, waitForHealthy, type ServerProcess } from '../support/process';
import { GOOD_PASSWORD, uniqueEmail } from '../support/users';

/**
 * Issue 18's acceptance, as an operator would see it: Kairos (`src/server.ts`, every role in one process) trades
 * futures and spot on the Binance, Bybit and OKX protocol servers from one TradingView alert; it is killed with
 * SIGKILL while every trade is open; the price falls through the stops on the venues while it is down; started
 * again on the same database, it books every trade closed for "stop loss" with the venue's own fills, and
 * nothing was placed twice.
 *
 * Futures (Binance USDⓈ-M algo orders, Bybit linear conditional orders, OKX swap algo orders) always rest
 * their stop on the venue. A spot column rests a stop-limit there only once its venue's capability row has
 * `venueStops.spot` (read when this file runs, and checked against what the trade detail says): until then
 * the venue holds nothing for it while Kairos is down, so the venue-side part is skipped for it and what is
 * asserted is that Kairos' own watch covers it — the coins are still held after the fall, and the restarted
 * Kairos sells them at market once, for "stop loss".
 *
 * The paper venue's side of the acceptance (its price is Kairos' own, not movable from outside a process)
 * is test/engine/venue-stops.test.ts's "Kairos stopped" case, in-process.
 */

type VenueName = 'binance' | 'bybit' | 'okx';
type Column = {
  label: string;
  venue: VenueName;
  exchange: 'binance' | 'binanceusdm' | 'bybit' | 'okx';
  marketType: AccountMarketType;
  /**
   * What may be left at the venue once the stop sold every coin it could: a spot buy's fee taken in BTC leaves
   * a holding finer than the lot step, which no order can sell (the protocol servers' BTCUSDT steps).
   */
  dust: number;
};

const COLUMNS: Column[] = [
  { label: 'Binance USDⓈ-M', venue: 'binance', exchange: 'binanceusdm', marketType: 'future', dust: 0 },
  { label: 'Bybit linear', venue: 'bybit', exchange: 'bybit', marketType: 'future', dust: 0 },
  { label: 'OKX swap', venue: 'okx', exchange: 'okx', marketType: 'future', dust: 0 },
  { label: 'Binance spot', venue: 'binance', exchange: 'binance', marketType: 'spot', dust: 0.00001 },
  { label: 'Bybit spot', venue: 'bybit', exchange: 'bybit', marketType: 'spot', dust: 0.000001 },
  { label: 'OKX spot', venue: 'okx', exchange: 'okx', marketType: 'spot', dust: 0.00000001 },
];

/** Whether Kairos rests this column's stop on the venue, from the capability row as it is now. */
const restsOnVenue = (c: Column) => Boolean(capabilitiesFor(c.exchange).venueStops?.[c.marketType]);

const ENTRY = '65000';
/** Through a 2 % stop (≈ 63,700) and above a spot stop-limit's limit (0.5 % under it, ≈ 63,381). */
const FALLEN = '63500';
/** The killed process's database connections carry this name (pg-boss' own: kairos-all). */
const APP_NAME = 'kairos-killed-test';

/** One of the venue's fills, as the protocol server itself recorded it. */
type VenueFill = { tradeId: string; price: string; amount: string; fee: string; time: number };
/** An order the venue accepted from the account's requests: its client id, in the order they came. */
type Placement = { clientId: string; index: number };

/** What the test reads of a protocol server, by API key: its own record, not Kairos'. */
type Probe = {
  newKeys(n: number): { apiKey: string; fields: Record<string, string> };
  setPrice(price: string): void;
  placements(apiKey: string): Placement[];
  requestCount(): number;
  /** Futures: the signed position in base; spot: the base coin's total (free and locked). */
  holds(apiKey: string, marketType: AccountMarketType): number;
  /** The fills of one venue order id (amounts in base). */
  fillsOf(venueOrderId: string): VenueFill[];
  /** The stop with that client id as the venue holds it: triggered, and the order it became. */
  stop(clientId: string, marketType: AccountMarketType): { triggered: boolean; orderId: string | null };
};

// The protocol servers' own books (private to them; read, never changed, here).
type DecimalLike = { toFixed(): string; abs(): DecimalLike };
type BinanceBooks = {
  trades: {
    id: number;
    orderId: number;
    price: DecimalLike;
    qty: DecimalLike;
    commission: DecimalLike;
    time: number;
  }[];
};
type BybitBooks = {
  executions: {
    execId: string;
    execType: string;
    orderId: string;
    execPrice: DecimalLike;
    execQty: DecimalLike;
    execFee: DecimalLike;
    execTime: number;
  }[];
};
type OkxBooks = {
  fills: {
    tradeId: string;
    order: { ordId: string; inst: { ctVal: DecimalLike; instType: string } };
    px: DecimalLike;
    sz: DecimalLike;
    fee: DecimalLike;
    ts: number;
  }[];
};

const num = (v: string | number | null | undefined) => Number(v ?? 0);
const jsonBody = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
};

function binanceProbe(server: BinanceTestServer): Probe {
  const books = server as unknown as BinanceBooks;
  return {
    newKeys(n) {
      const apiKey = `killedKey${String(n).padStart(16, '0')}`;
      const secret = `killed-secret-${n}`;
      server.addAccount({ apiKey, secret, balances: { USDT: '10000' }, futuresWallet: '10000' });
      return { apiKey, fields: { apiKey, apiSecret: secret } };
    },
    setPrice: (price) => server.setPrice('BTCUSDT', price),
    requestCount: () => server.requests.length,
    placements: (apiKey) =>
      server.requests.flatMap((r, index) => {
        if (r.method !== 'POST' || r.status !== 200 || r.apiKey !== apiKey) return [];
        if (!['/api/v3/order', '/fapi/v1/order', '/fapi/v1/algoOrder'].includes(r.path)) return [];
        const params = new URLSearchParams(`${r.query}&${r.body}`);
        return [{ clientId: params.get('newClientOrderId') ?? params.get('clientAlgoId') ?? '', index }];
      }),
    holds: (apiKey, marketType) => {
      if (marketType === 'future') return num(server.positionAmount(apiKey, 'BTCUSDT'));
      const btc = server.balance(apiKey, 'BTC');
      return num(btc.free) + num(btc.locked);
    },
    fillsOf: (orderId) =>
      books.trades
        .filter((t) => String(t.orderId) === orderId)
        .map((t) => ({
          tradeId: String(t.id),
          price: t.price.toFixed(),
          amount: t.qty.toFixed(),
          fee: t.commission.abs().toFixed(),
          time: t.time,
        })),
    stop(clientId, marketType) {
      if (marketType === 'future') {
        const algo = server.algoOrderByClientId(clientId);
        return {
          triggered: algo?.algoStatus === 'FINISHED',
          orderId: algo?.actualOrderId ? String(algo.actualOrderId) : null,
        };
      }
      // A STOP_LOSS_LIMIT is one order from placement to fill.
      const order = server.orderByClientId(clientId);
      return { triggered: order?.status === 'FILLED', orderId: order ? String(order.orderId) : null };
    },
  };
}

function bybitProbe(server: BybitTestServer): Probe {
  const books = server as unknown as BybitBooks;
  return {
    newKeys(n) {
      const apiKey = `bybitKilled${String(n).padStart(10, '0')}`;
      const secret = `bybit-killed-secret-${n}`;
      server.addAccount({ apiKey, secret, wallet: { USDT: '10000' } });
      return { apiKey, fields: { apiKey, apiSecret: secret } };
    },
    setPrice: (price) => server.setPrice('BTCUSDT', price),
    requestCount: () => server.requests.length,
    placements: (apiKey) =>
      server.requests.flatMap((r, index) => {
        if (r.method !== 'POST' || r.path !== '/v5/order/create' || r.retCode !== 0 || r.apiKey !== apiKey)
          return [];
        const body = jsonBody(r.body) as { orderLinkId?: string } | null;
        return [{ clientId: body?.orderLinkId ?? '', index }];
      }),
    holds: (apiKey, marketType) =>
      marketType === 'future'
        ? num(server.positionSize(apiKey, 'BTCUSDT'))
        : num(server.coin(apiKey, 'BTC').wallet),
    fillsOf: (orderId) =>
      books.executions
        .filter((e) => e.execType === 'Trade' && e.orderId === orderId)
        .map((e) => ({
          tradeId: e.execId,
          price: e.execPrice.toFixed(),
          amount: e.execQty.toFixed(),
          fee: e.execFee.abs().toFixed(),
          time: e.execTime,
        })),
    stop(clientId) {
      // A conditional (linear) or TP/SL (spot) order keeps its orderId once triggered.
      const order = server.orderByLinkId(clientId);
      return { triggered: order?.status === 'Filled', orderId: order?.orderId ?? null };
    },
  };
}

function okxProbe(server: OkxTestServer): Probe {
  const books = server as unknown as OkxBooks;
  return {
    newKeys(n) {
      const apiKey = `okxKilled${String(n).padStart(8, '0')}`;
      const secret = `okx-killed-secret-${n}`;
      const passphrase = `Killed-Pass-${n}`;
      server.addAccount({ apiKey, secret, passphrase, balances: { USDT: '10000' } });
      return { apiKey, fields: { apiKey, apiSecret: secret, passphrase } };
    },
    setPrice: (price) => server.setPrice('BTC-USDT', price),
    requestCount: () => server.requests.length,
    placements: (apiKey) =>
      server.requests.flatMap((r, index) => {
        if (r.method !== 'POST' || r.apiKey !== apiKey) return [];
        if (
          !['/api/v5/trade/order', '/api/v5/trade/batch-orders', '/api/v5/trade/order-algo'].includes(r.path)
        )
          return [];
        const body = jsonBody(r.body);
        const items = (Array.isArray(body) ? body : [body]) as ({
          clOrdId?: string;
          algoClOrdId?: string;
        } | null)[];
        return items.flatMap((item, i) =>
          r.sCodes[i] === '0' ? [{ clientId: item?.algoClOrdId ?? item?.clOrdId ?? '', index }] : [],
        );
      }),
    holds: (apiKey, marketType) =>
      marketType === 'future'
        ? num(server.positionContracts(apiKey, 'BTC-USDT-SWAP')) * 0.01
        : num(server.cashBalance(apiKey, 'BTC')),
    fillsOf: (ordId) =>
      books.fills
        .filter((f) => f.order.ordId === ordId)
        .map((f) => ({
          tradeId: f.tradeId,
          price: f.px.toFixed(),
          // Swap fills are in contracts: Kairos books base.
          amount:
            f.order.inst.instType === 'SWAP'
              ? String(num(f.sz.toFixed()) * num(f.order.inst.ctVal.toFixed()))
              : f.sz.toFixed(),
          fee: f.fee.abs().toFixed(),
          time: f.ts,
        })),
    stop(clientId) {
      const algo = server.algoByClientId(clientId);
      return { triggered: algo?.state === 'effective', orderId: algo?.ordId || null };
    },
  };
}

let binance: BinanceTestServer;
let bybit: BybitTestServer;
let okx: OkxTestServer;
let probes: Record<VenueName, Probe>;
let db: TestDatabase;
let dataDir: string;
let kairos: ServerProcess | undefined;
/** Every Kairos process this file started, to be sure none outlives it. */
const started: ServerProcess[] = [];
let base: string;
let token: string;

type Row = Column & {
  apiKey: string;
  accountId: string;
  botId: string;
  tradeId: string;
  quantity: string;
  onVenue: boolean;
  stopClientId: string | null;
  /** The venue's request log's length when Kairos was killed. */
  killedAt: number;
};
const rows: Row[] = [];
let restartedAt = 0;
const rowOf = (column: Column) => {
  const row = rows.find((r) => r.label === column.label);
  if (!row?.tradeId) throw new Error(`${column.label}: no open trade (see the first test)`);
  return row;
};

async function call(method: string, url: string, body?: unknown, auth = true) {
  const res = await fetch(base + url, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(auth ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text };
}

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!ok(last)) {
    if (Date.now() > deadline)
      throw new Error(`timed out; last: ${JSON.stringify(last)}\n${kairos?.output().slice(-4000) ?? ''}`);
    await new Promise((r) => setTimeout(r, 250));
    last = await read();
  }
  return last;
}

type Detail = {
  trade: { id: string; status: string; quantity: string; openQuantity: string; closeReason: string | null };
  protection: { where: string; venueOrderId: string | null; triggerPrice: string | null } | null;
  orders: { role: string; clientOrderId: string; venueOrderId: string | null; status: string }[];
  fills: {
    orderId: string;
    role: string;
    venueTradeId: string;
    price: string;
    amount: string;
    fee: string;
  }[];
};
const detail = async (tradeId: string) =>
  (await call('GET', `/api/trades/${tradeId}`)).body.results as Detail;

/** `src/server.ts` in its own process, every role, on the test database and the three protocol servers. */
async function startKairos() {
  if (kairos && running(kairos)) throw new Error('Kairos is still running');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  kairos = spawnServer({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: db.url,
    KAIROS_DATA_DIR: dataDir,
    KAIROS_ROLE: 'all',
    KAIROS_VENUE_URLS: JSON.stringify({ ...binance.venueUrls(), ...bybit.venueUrls(), ...okx.venueUrls() }),
    // The polling below reads more than a person would.
    KAIROS_USER_READ_LIMIT: '100000',
    KAIROS_USER_WRITE_LIMIT: '100000',
    PGAPPNAME: APP_NAME,
    LOG_LEVEL: 'warn',
  });
  started.push(kairos);
  await waitForHealthy(port, 60_000);
}

const running = (p: ServerProcess) => p.child.exitCode === null && p.child.signalCode === null;

/** Whether a process with this PID is still alive (a zombie counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** PIDs whose parent is `pid` (a forked role or worker would be one). */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      try {
        const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return ppid === pid ? [Number(d)] : [];
      } catch {
        return [];
      }
    });
}

const killedConnections = async () =>
  Number(
    (
      await db.pool.query(
        `SELECT count(*) AS n FROM pg_stat_activity
          WHERE datname = $1 AND (application_name = $2 OR application_name LIKE 'kairos-%')`,
        [db.name, APP_NAME],
      )
    ).rows[0].n,
  );

beforeAll(async () => {
  [binance, bybit, okx] = await Promise.all([
    BinanceTestServer.start(),
    BybitTestServer.start(),
    OkxTestServer.start(),
  ]);
  probes = { binance: binanceProbe(binance), bybit: bybitProbe(bybit), okx: okxProbe(okx) };
  for (const probe of Object.values(probes)) probe.setPrice(ENTRY);
  db = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-killed-'));
  await startKairos();
}, 90_000);

afterAll(async () => {
  for (const p of started.filter(running)) {
    process.kill(p.child.pid!, 'SIGKILL');
    await p.exited;
  }
  await db?.drop();
  await Promise.all([binance?.close(), bybit?.close(), okx?.close()]);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

describe('issue 18 acceptance: Kairos killed (SIGKILL) with open trades on the protocol servers', () => {
  it('opens a long on every venue and market type from one alert, each stop where its capability puts it', async () => {
    const email = uniqueEmail('killed');
    const registered = await call(
      'POST',
      '/auth/register',
      { email, password: GOOD_PASSWORD, confirm_password: GOOD_PASSWORD },
      false,
    );
    expect(registered.status, registered.text).toBe(201);
    const login = await call('POST', '/auth/login', { email, password: GOOD_PASSWORD }, false);
    expect(login.status, login.text).toBe(200);
    token = login.body.results.apiToken;

    // A stop-loss and no take-profit: a spot stop-limit then covers the whole holding.
    const strategy = await call('POST', '/api/strategies', {
      nickname: 'BTC stop only',
      tradeCurrency: 'BTC',
      timeFrame: '1h',
      stopLossPercent: 2,
      breakEvenAfterTp1: false,
    });
    expect(strategy.status, strategy.text).toBe(201);
    const { id: strategyId, strategyKey, webhookSecret } = strategy.body.results;

    let n = 0;
    for (const column of COLUMNS) {
      n += 1;
      // One venue account per column: a key of its own, so the venue's record of it is the column's alone.
      const { apiKey, fields } = probes[column.venue].newKeys(n);
      const account = await call('POST', '/api/trading-accounts', {
        nickname: column.label,
        exchange: column.exchange,
        marketType: column.marketType,
        ...fields,
      });
      expect(account.status, `${column.label}: ${account.text}`).toBe(201);
      const bot = await call('POST', '/api/bots', {
        strategyId,
        tradingAccountId: account.body.results.id,
        fixedAmount: 650,
        isActive: true,
      });
      expect(bot.status, `${column.label}: ${bot.text}`).toBe(201);
      rows.push({
        ...column,
        apiKey,
        accountId: account.body.results.id,
        botId: bot.body.results.id,
        tradeId: '',
        quantity: '',
        onVenue: restsOnVenue(column),
        stopClientId: null,
        killedAt: 0,
      });
    }

    const signal = await call(
      'POST',
      '/webhooks/tradingview',
      { strategyKey, secret: webhookSecret, action: 'long', symbol: 'BTCUSDT', id: 'killed-1' },
      false,
    );
    expect(signal.status, signal.text).toBe(200);

    for (const row of rows) {
      const trade = await eventually(
        async () =>
          (await call('GET', `/api/trades?bot_id=${row.botId}&status=open`)).body.results[0] as
            { id: string; quantity: string } | undefined,
        (t) => t !== undefined && num(t.quantity) > 0,
        40_000,
      );
      row.tradeId = trade!.id;
      // Where the stop lives, as the trade detail says it: on the venue, or watched by Kairos.
      const d = await eventually(
        () => detail(row.tradeId),
        (x) => x.trade.status === 'open' && x.protection?.where === (row.onVenue ? 'venue' : 'kairos'),
        40_000,
      );
      row.quantity = d.trade.quantity;
      expect(num(d.protection!.triggerPrice), row.label).toBeCloseTo(num(ENTRY) * 0.98, -2);
      if (row.onVenue) {
        const { rows: stops } = await db.pool.query(
          'SELECT client_order_id, venue_order_id, status FROM venue_stops WHERE trade_id = $1',
          [row.tradeId],
        );
        expect(stops, row.label).toHaveLength(1);
        expect(stops[0].venue_order_id, row.label).toBe(d.protection!.venueOrderId);
        row.stopClientId = stops[0].client_order_id;
        // The venue holds it, waiting.
        expect(probes[row.venue].stop(row.stopClientId!, row.marketType), row.label).toMatchObject({
          triggered: false,
        });
      }
      expect(probes[row.venue].holds(row.apiKey, row.marketType), row.label).toBeGreaterThan(0);
    }
  }, 120_000);

  it('is killed outright: the one process gone, nothing of it left behind', async () => {
    const pid = kairos!.child.pid!;
    // Every role runs in this one process: server.ts forks no role or worker, and with DATABASE_URL set starts
    // no embedded PostgreSQL. Its only child is tsx's esbuild service (a transpiler, absent from the bundle
    // `npm start` runs), which ends when its parent's pipe closes.
    const children = childrenOf(pid);
    for (const child of children)
      expect(fs.readFileSync(`/proc/${child}/cmdline`, 'utf8')).toMatch(/esbuild\0--service/);
    expect(kairos!.output()).not.toMatch(/"level":(50|60)/);
    for (const row of rows) row.killedAt = probes[row.venue].requestCount();
    process.kill(pid, 'SIGKILL');
    await kairos!.exited;
    expect(kairos!.child.signalCode).toBe('SIGKILL');
    expect(alive(pid)).toBe(false);
    await eventually(
      async () => children.filter(alive),
      (left) => left.length === 0,
      10_000,
    );
    // Its database sessions (and the trade locks they held) end with it.
    await eventually(killedConnections, (count) => count === 0, 20_000);
  }, 30_000);

  it('the price falls through every stop while Kairos is down', () => {
    for (const probe of Object.values(probes)) probe.setPrice(FALLEN);
  });

  for (const column of COLUMNS) {
    const title = restsOnVenue(column)
      ? `${column.label}: the venue's stop closed it at the stop on its own while Kairos was down`
      : `${column.label} (no spot stops on the venue yet, watched by Kairos: venue-side part skipped): still held while Kairos was down`;
    it(title, () => {
      const row = rowOf(column);
      const probe = probes[row.venue];
      if (row.onVenue) {
        const stop = probe.stop(row.stopClientId!, row.marketType);
        expect(stop).toMatchObject({ triggered: true, orderId: expect.any(String) });
        const fills = probe.fillsOf(stop.orderId!);
        expect(fills.length).toBeGreaterThan(0);
        for (const f of fills) expect(num(f.price)).toBeLessThanOrEqual(num(ENTRY) * 0.98);
        // Flat: the whole position, or every coin bought (less what is finer than the lot step), went.
        expect(probe.holds(row.apiKey, row.marketType)).toBeGreaterThanOrEqual(0);
        expect(probe.holds(row.apiKey, row.marketType)).toBeLessThan(row.dust || 1e-12);
      } else {
        // Nothing rests on the venue for it: the coins are all still there.
        expect(probe.holds(row.apiKey, row.marketType)).toBeGreaterThan(0);
      }
      // Nothing reached the venue from Kairos while it was down.
      expect(probe.placements(row.apiKey).filter((p) => p.index >= row.killedAt)).toEqual([]);
    });
  }

  it('starts again on the same database', async () => {
    restartedAt = Date.now();
    await startKairos();
  }, 70_000);

  for (const column of COLUMNS) {
    const title = restsOnVenue(column)
      ? `${column.label}: booked closed for stop loss with the venue's fills of its stop, nothing placed again`
      : `${column.label} (watched by Kairos): sold once at market by the restarted watch, booked closed for stop loss with the venue's fills`;
    it(
      title,
      async () => {
        const row = rowOf(column);
        const probe = probes[row.venue];
        const d = await eventually(
          () => detail(row.tradeId),
          (x) => x.trade.status === 'closed',
          45_000,
        );
        expect(d.trade.closeReason).toBe('stop loss');
        expect(d.trade.quantity).toBe(row.quantity);
        // It holds nothing: on futures nothing at all, on spot only the dust the venue holds too.
        expect(num(d.trade.openQuantity)).toBe(probe.holds(row.apiKey, row.marketType));
        expect(num(d.trade.openQuantity)).toBeLessThan(row.dust || 1e-12);

        // One exit, the venue's order: the stop's triggered order, or (watched) Kairos' market exit.
        const exits = d.orders.filter((o) => o.role !== 'entry');
        expect(exits.map((o) => o.role)).toEqual(['stop']);
        const exit = exits[0]!;
        if (row.onVenue)
          expect(exit.venueOrderId).toBe(probe.stop(row.stopClientId!, row.marketType).orderId);
        const theirs = probe.fillsOf(exit.venueOrderId!);
        expect(theirs.length).toBeGreaterThan(0);
        // The venue's stop filled while Kairos was down; a watched trade was sold only once it was back.
        for (const f of theirs)
          if (row.onVenue) expect(f.time).toBeLessThan(restartedAt);
          else expect(f.time).toBeGreaterThanOrEqual(restartedAt);
        const key = (f: { tradeId: string; price: string; amount: string; fee: string }) =>
          [f.tradeId, num(f.price), num(f.amount), num(f.fee)].join(' ');
        const ours = d.fills.filter((f) => f.role !== 'entry');
        expect(
          ours.map((f) => key({ ...f, tradeId: f.venueTradeId })).sort(),
          "the exit's fills are the venue's",
        ).toEqual(theirs.map(key).sort());

        // Nothing placed twice: each client id once at the venue; after the restart no second stop and, where
        // the venue's stop closed it, no exit of Kairos' own.
        const placed = probe.placements(row.apiKey);
        expect(new Set(placed.map((p) => p.clientId)).size).toBe(placed.length);
        const afterRestart = placed.filter((p) => p.index >= row.killedAt).map((p) => p.clientId);
        // The entry and the stop, or the entry and Kairos' exit.
        expect(placed).toHaveLength(2);
        expect(afterRestart).toEqual(row.onVenue ? [] : [exit.clientOrderId]);
        const { rows: stops } = await db.pool.query('SELECT status FROM venue_stops WHERE trade_id = $1', [
          row.tradeId,
        ]);
        expect(stops.map((x: { status: string }) => x.status)).toEqual(row.onVenue ? ['triggered'] : []);
      },
      60_000,
    );
  }

  it('logged no error after the restart', () => {
    expect(kairos!.output()).not.toMatch(/"level":(50|60)/);
  });
});
