import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStopLossWatch } from '../../src/engine/stop-loss-watch';
import { sendSignal, waitForAlert } from '../support/engine';
import {
  VENUE_COLUMNS,
  startVenue,
  venueDisagreements,
  type VenueColumn,
  type VenueKind,
  type VenueSetup,
} from '../support/venue-matrix';
import { scenarioTable, supportTable, syncSection, type CellMark } from '../support/venues-doc';
import { asUser, eventually, startAlerts } from '../support/trades-app';

/**
 * The engine's scenario suite (issue 17): the same trade stories on every venue column of the capability
 * table — the paper venue, and the Binance, Bybit and OKX protocol servers through ccxt — driven as users
 * and signals drive them: a bot on a strategy with a take-profit ladder (1 % and 3 %, halves) and a 2 %
 * stop moving to break-even after TP1, TradingView alerts through the webhook and the alert worker, the
 * user's push through the API, the price moved at the venue, and the engine's own passes (reconciliation,
 * the stop-loss watch). After each story the account's trades agree with the venue: quantities, fills,
 * fees and figures as the venue reports them, every order the venue took known once, nothing resting that
 * Kairos does not show (`venueDisagreements`).
 *
 * docs/venues.md prints the venue × scenario table from these results (checked here; VENUES_DOC_WRITE=1
 * rewrites it): a venue stays in the table only while its column passes.
 */
type Scenario = {
  id: string;
  title: string;
  futuresOnly?: boolean;
  /** The venue's book thinned while the entry fills, on a pair of its own, the bot sized past it. */
  thinBook?: boolean;
  run(cell: Cell): Promise<void>;
};

type Strategy = { id: string; strategyKey: string; webhookSecret: string };
type Cell = {
  setup: VenueSetup;
  column: VenueColumn;
  accountId: string;
  strategy: Strategy;
  botId: string;
};

type Detail = {
  trade: Record<string, string | boolean | null> & { id: string; status: string };
  ladder: { status: string; amount: string | null; pushed: boolean; clientOrderId: string | null }[];
  orders: { role: string; status: string; amount: string; filled: string; clientOrderId: string }[];
  fills: { role: string; amount: string }[];
};

const ENTRY = 65_000;
const at = (factor: number) => (ENTRY * factor).toFixed(2);
let seq = 0;

const api = (setup: VenueSetup) => asUser(setup.venue.t.app, setup.venue.owner);

/** A fresh account on the column's venue, a strategy of its own and one bot on it. */
async function newCell(
  setup: VenueSetup,
  column: VenueColumn,
  options: { currency?: string; fixedAmount?: number } = {},
): Promise<Cell> {
  seq += 1;
  const { accountId } = await setup.venue.newAccount(column.marketType, { exchange: column.exchange });
  const strategy = await api(setup).post('/api/strategies', {
    nickname: `${column.id} ${seq}`,
    tradeCurrency: options.currency ?? 'BTC',
    timeFrame: '1h',
    takeProfits: [
      { role: 'tp1', percent: 1, sizePercent: 50 },
      { role: 'tp2', percent: 3, sizePercent: 50 },
    ],
    stopLossPercent: 2,
    breakEvenAfterTp1: true,
  });
  expect(strategy.status, JSON.stringify(strategy.body)).toBe(201);
  const bot = await api(setup).post('/api/bots', {
    nickname: `${column.id} bot ${seq}`,
    strategyId: strategy.body.results.id,
    tradingAccountId: accountId,
    fixedAmount: options.fixedAmount ?? 650,
    isActive: true,
  });
  expect(bot.status, JSON.stringify(bot.body)).toBe(201);
  return { setup, column, accountId, strategy: strategy.body.results, botId: bot.body.results.id };
}

/** A TradingView alert through the webhook, worked by the alert worker to the end. */
async function signal(cell: Cell, action: 'long' | 'short' | 'exit') {
  const { t } = cell.setup.venue;
  const { alertId } = await sendSignal(t.app, cell.strategy, { action, id: `s${seq}${action}${Date.now()}` });
  const status = await waitForAlert(t, alertId, ['succeeded', 'dead', 'failed'], 20_000);
  const { rows } = await t.db.pool.query('SELECT status, message FROM alert_outcomes WHERE alert_id = $1', [
    alertId,
  ]);
  // Every bot of the strategy (one) did what the alert asked.
  expect({ status, outcomes: rows }, JSON.stringify(rows)).toMatchObject({
    status: 'succeeded',
    outcomes: [{ status: action === 'exit' ? 'closed' : expect.stringMatching(/^(opened|reversed)$/) }],
  });
}

/** The bot's trades, oldest first, as TradeDetail shows them. */
async function tradesOf(cell: Cell): Promise<Detail[]> {
  const { t } = cell.setup.venue;
  const { rows } = await t.db.pool.query('SELECT id FROM trades WHERE bot_id = $1 ORDER BY opened_at', [
    cell.botId,
  ]);
  const out: Detail[] = [];
  for (const { id } of rows as { id: string }[]) {
    const res = await api(cell.setup).get(`/api/trades/${id}`);
    expect(res.status).toBe(200);
    out.push(res.body.results);
  }
  return out;
}
async function onlyTrade(cell: Cell) {
  const all = await tradesOf(cell);
  expect(all).toHaveLength(1);
  return all[0]!;
}

const botPosition = async (cell: Cell) =>
  (await api(cell.setup).get(`/api/bots/${cell.botId}`)).body.results.position as string;

/** One reconciliation sweep of the account: what the worker's loop runs for it every minute. */
const reconcile = (cell: Cell) =>
  cell.setup.venue.t.app.services.engine.reconciler.reconcileAccount({ id: cell.accountId }, { sweep: true });

/**
 * What the worker runs for a stop, over this account's trades, until the trade ended: the stop-loss watch
 * (wired as the trade monitor wires it: a stop resting on the venue is left to the venue first) and, each
 * pass, the venue's own tick and a reconciliation sweep (which books a stop the venue triggered).
 */
async function stopLossPasses(cell: Cell, tradeId: string) {
  const { app } = cell.setup.venue.t;
  const { repos, venues, engine } = app.services;
  const watch = startStopLossWatch(
    {
      trades: {
        openTradesWithStops: async () =>
          (await repos.trades.openTradesWithStops()).filter(
            (x) => x.trade.tradingAccountId === cell.accountId,
          ),
      },
      gateways: venues.gateways,
      supervisor: engine.supervisor,
      venueStops: engine.venueStops,
      log: app.log,
    },
    { intervalMs: 50 },
  );
  try {
    await eventually(
      async () => {
        await cell.setup.venueTick(cell.accountId);
        await reconcile(cell);
        return repos.trades.findById(tradeId);
      },
      (trade) => trade?.status === 'closed',
      15_000,
    );
  } finally {
    await watch.stop();
  }
}

const num = (value: string | boolean | null | undefined) => Number(value);
const statuses = (d: Detail) => d.ladder.map((l) => l.status);

/** Opened by a long alert: entry filled, both take-profits resting at the venue, the stop 2 % under. */
async function openLong(cell: Cell): Promise<Detail> {
  await signal(cell, 'long');
  const d = await onlyTrade(cell);
  expect(d.trade.status).toBe('open');
  expect(statuses(d)).toEqual(['placed', 'placed']);
  return d;
}

const SCENARIOS: Scenario[] = [
  {
    id: 'open',
    title: 'open with ladder and stop',
    async run(cell) {
      const d = await openLong(cell);
      expect(d.trade).toMatchObject({ side: 'long', symbol: 'BTC/USDT' });
      expect(num(d.trade.quantity)).toBeGreaterThan(0);
      expect(num(d.trade.stopLossPrice)).toBeCloseTo(num(d.trade.entryPrice) * 0.98, 0);
      // Both levels rest at the venue under Kairos' client ids, selling (reduce-only on futures).
      const gateway = await cell.setup.gateway(cell.accountId);
      const resting = await gateway.fetchOpenOrders('BTC/USDT');
      expect(resting.map((o) => o.clientOrderId).sort()).toEqual(d.ladder.map((l) => l.clientOrderId).sort());
      expect(resting.every((o) => o.side === 'sell' && o.type === 'limit')).toBe(true);
      if (cell.column.marketType === 'future') expect(resting.every((o) => o.reduceOnly)).toBe(true);
      expect(await botPosition(cell)).toBe('long');
    },
  },
  {
    id: 'partial-entry',
    title: 'partial fills of the entry',
    thinBook: true,
    async run(cell) {
      await signal(cell, 'long');
      const d = await onlyTrade(cell);
      const entry = d.orders.find((o) => o.role === 'entry')!;
      expect(num(entry.filled)).toBeGreaterThan(0);
      expect(num(entry.filled)).toBeLessThan(num(entry.amount));
      expect(d.fills.filter((f) => f.role === 'entry').length).toBeGreaterThan(1);
      expect(num(d.trade.quantity)).toBe(num(entry.filled));
      // What it got is protected and laddered: the stop at once, the take-profits on what is held.
      expect(d.trade.status).toBe('open');
      expect(d.trade.stopLossPrice).not.toBeNull();
      expect(statuses(d)).toEqual(['placed', 'placed']);
      const laddered = d.ladder.reduce((s, l) => s + num(l.amount), 0);
      expect(laddered).toBeLessThanOrEqual(num(d.trade.openQuantity) + 1e-12);
      expect(laddered).toBeGreaterThan(num(d.trade.openQuantity) * 0.99);
    },
  },
  {
    id: 'take-profit',
    title: 'take-profit fills',
    async run(cell) {
      await openLong(cell);
      await cell.setup.venue.movePrice(cell.accountId, at(1.04));
      await reconcile(cell);
      const d = await onlyTrade(cell);
      expect(d.trade).toMatchObject({ status: 'closed', closeReason: 'take profit' });
      expect(statuses(d)).toEqual(['filled', 'filled']);
      expect(num(d.trade.pnl)).toBeGreaterThan(0);
      expect(await botPosition(cell)).toBe('out');
    },
  },
  {
    id: 'break-even',
    title: 'break-even after TP1',
    async run(cell) {
      const opened = await openLong(cell);
      await cell.setup.venue.movePrice(cell.accountId, at(1.0108));
      await reconcile(cell);
      const d = await onlyTrade(cell);
      expect(d.trade).toMatchObject({ status: 'open', stopMovedToBreakEven: true });
      expect(statuses(d)).toEqual(['filled', 'placed']);
      // Break-even: at or above the entry (its fee paid both ways), never below where the stop was.
      expect(num(d.trade.stopLossPrice)).toBeGreaterThan(num(d.trade.entryPrice));
      expect(num(d.trade.stopLossPrice)).toBeGreaterThan(num(opened.trade.stopLossPrice));
    },
  },
  {
    id: 'stop-loss',
    title: 'stop-loss exit',
    async run(cell) {
      const opened = await openLong(cell);
      await cell.setup.venue.movePrice(cell.accountId, at(0.977));
      await stopLossPasses(cell, opened.trade.id);
      const d = await onlyTrade(cell);
      expect(d.trade).toMatchObject({ status: 'closed', closeReason: 'stop loss' });
      expect(statuses(d)).toEqual(['cancelled', 'cancelled']);
      expect(await botPosition(cell)).toBe('out');
    },
  },
  {
    id: 'push',
    title: 'push to market',
    async run(cell) {
      const opened = await openLong(cell);
      const res = await api(cell.setup).put('/push-to-take-profit', {
        tradeId: opened.trade.id,
        takeProfitRole: 'tp1',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ code: 'TAKE_PROFIT_PUSHED', results: { status: 'filled' } });
      const d = await onlyTrade(cell);
      expect(d.ladder[0]).toMatchObject({ status: 'filled', pushed: true });
      expect(d.ladder[1]).toMatchObject({ status: 'placed', pushed: false });
      expect(d.orders.filter((o) => o.role === 'tp1').map((o) => o.status)).toEqual(['cancelled', 'filled']);
      expect(d.trade.status).toBe('open');
    },
  },
  {
    id: 'exit-signal',
    title: 'exit signal',
    async run(cell) {
      await openLong(cell);
      await signal(cell, 'exit');
      const d = await onlyTrade(cell);
      expect(d.trade).toMatchObject({ status: 'closed', closeReason: 'signal exit' });
      expect(statuses(d)).toEqual(['cancelled', 'cancelled']);
      expect(await botPosition(cell)).toBe('out');
    },
  },
  {
    id: 'reversal',
    title: 'reversal (futures)',
    futuresOnly: true,
    async run(cell) {
      await openLong(cell);
      await signal(cell, 'short');
      const [long, short] = await tradesOf(cell);
      expect(long!.trade).toMatchObject({ side: 'long', status: 'closed', closeReason: 'signal short' });
      expect(short!.trade).toMatchObject({ side: 'short', status: 'open' });
      expect(statuses(short!)).toEqual(['placed', 'placed']);
      expect(num(short!.trade.stopLossPrice)).toBeCloseTo(num(short!.trade.entryPrice) * 1.02, 0);
      expect(await botPosition(cell)).toBe('short');
    },
  },
  {
    id: 'restart',
    title: 'restart with fills while down',
    async run(cell) {
      const opened = await openLong(cell);
      const { setup } = cell;
      await alerts?.stop();
      // TP1 fills at the venue while Kairos is stopped; the next start finds it.
      await setup.restart(() => setup.moveWhileDown(at(1.0108)));
      alerts = startAlerts(setup.venue.t);
      await setup.venueTick(cell.accountId);
      // Start-up is reconciliation: the worker's first pass is a sweep of every account.
      await setup.venue.t.app.services.engine.reconciler.reconcileAll({ sweep: true });
      const d = await onlyTrade(cell);
      expect(d.trade.id).toBe(opened.trade.id);
      expect(statuses(d)).toEqual(['filled', 'placed']);
      expect(d.trade).toMatchObject({ status: 'open', stopMovedToBreakEven: true });
      expect(d.orders).toHaveLength(opened.orders.length);
    },
  },
];

let alerts: ReturnType<typeof startAlerts> | undefined;
const results = new Map<string, CellMark>();
const OUT = process.env.VENUE_MATRIX_OUT;
const KINDS: VenueKind[] = ['paper', 'binance', 'bybit', 'okx'];

for (const kind of KINDS) {
  describe(`the scenario suite on ${kind}`, () => {
    let setup: VenueSetup;
    beforeAll(async () => {
      setup = await startVenue(kind);
      alerts = startAlerts(setup.venue.t);
    });
    afterAll(async () => {
      await alerts?.stop();
      alerts = undefined;
      await setup?.close();
    });

    for (const column of VENUE_COLUMNS.filter((c) => c.kind === kind)) {
      for (const scenario of SCENARIOS) {
        if (scenario.futuresOnly && column.marketType !== 'future') continue;
        it(`${column.label}: ${scenario.title}`, async () => {
          const key = `${scenario.id}|${column.id}`;
          results.set(key, 'fail');
          const restoreBook = scenario.thinBook ? setup.thinBook() : () => undefined;
          let cell: Cell;
          try {
            cell = await newCell(
              setup,
              column,
              scenario.thinBook ? { currency: setup.partialCurrency, fixedAmount: 1300 } : {},
            );
            await scenario.run(cell);
          } finally {
            restoreBook();
          }
          expect(await venueDisagreements(setup, cell.accountId)).toEqual([]);
          results.set(key, 'pass');
        });
      }
    }

    const spot = VENUE_COLUMNS.find((c) => c.kind === kind && c.marketType === 'spot')!;
    it(`${spot.label}: a stop-limit resting on the venue locks what it sells, triggers, and fills at its limit or better; a cancelled one frees its coins`, async () => {
      await spotStopLimitStory(setup, spot);
    });
  });
}

/**
 * Issue 18's spot stop at the venue itself (the exchange layer; the engine's use of it is the scenarios'):
 * a stop-limit under 0.05 BTC bought at market, a second one cancelled (its coins free again), the price
 * through the first one's trigger, its limit order filled at its limit or better, read through the gateway.
 */
async function spotStopLimitStory(setup: VenueSetup, column: VenueColumn) {
  const { accountId, gateway } = await setup.venue.newAccount('spot', { exchange: column.exchange });
  const stops = await setup.spotStops(accountId);
  seq += 1;
  const cid = (name: string) => `spotstop${seq}${name}`;
  await gateway.createOrder({
    symbol: 'BTC/USDT',
    side: 'buy',
    type: 'market',
    amount: '0.1',
    clientOrderId: cid('entry'),
  });
  // Prices as the venues write them back (no trailing zeros).
  const plain = (factor: number) => String(Number(at(factor)));
  const used = async () => (await gateway.fetchBalances())['BTC']?.used ?? '0';
  const request = {
    symbol: 'BTC/USDT',
    side: 'sell' as const,
    amount: '0.05',
    triggerPrice: plain(0.98),
    limitPrice: plain(0.975),
    clientOrderId: cid('stop'),
  };
  const stop = await stops.placeStop(request);
  expect(stop).toMatchObject({ status: 'open', limitPrice: request.limitPrice, triggeredOrderId: null });
  expect(num(await used())).toBeCloseTo(0.05, 8);

  const other = await stops.placeStop({
    ...request,
    amount: '0.04',
    triggerPrice: plain(0.9),
    limitPrice: plain(0.895),
    clientOrderId: cid('other'),
  });
  expect(num(await used())).toBeCloseTo(0.09, 8);
  expect(await stops.cancelStop(other.venueOrderId, 'BTC/USDT')).toMatchObject({ status: 'cancelled' });
  expect(num(await used())).toBeCloseTo(0.05, 8);

  try {
    await setup.venue.movePrice(accountId, at(0.978));
    const triggered = await eventually(
      () => stops.fetchStop(stop.venueOrderId, 'BTC/USDT'),
      (read) => read.status === 'triggered',
    );
    const order = await gateway.fetchOrder(triggered.triggeredOrderId!, 'BTC/USDT');
    expect(order).toMatchObject({ side: 'sell', type: 'limit', status: 'filled', filled: '0.05' });
    expect(num(order.average!)).toBeGreaterThanOrEqual(num(request.limitPrice));
    const fills = await gateway.fetchOrderFills(order.venueOrderId, 'BTC/USDT', order.timestamp);
    expect(fills.reduce((total, f) => total + num(f.amount), 0)).toBeCloseTo(0.05, 8);
    expect(num(await used())).toBe(0);
  } finally {
    await setup.venue.movePrice(accountId, at(1));
  }
}

const mark = (scenarioId: string, columnId: string): CellMark => {
  const scenario = SCENARIOS.find((s) => s.id === scenarioId)!;
  const column = VENUE_COLUMNS.find((c) => c.id === columnId)!;
  if (scenario.futuresOnly && column.marketType !== 'future') return 'n/a';
  return results.get(`${scenarioId}|${columnId}`) ?? 'fail';
};
const expectedCells = () =>
  VENUE_COLUMNS.flatMap((c) => SCENARIOS.filter((s) => !s.futuresOnly || c.marketType === 'future')).length;

describe('docs/venues.md', () => {
  it('prints what each venue supports and the venue × scenario matrix these results give', async (ctx) => {
    if (OUT) {
      fs.mkdirSync(path.dirname(OUT), { recursive: true });
      fs.writeFileSync(OUT, JSON.stringify(Object.fromEntries(results), null, 2));
    }
    // A run of part of the suite (a -t filter) proves nothing about the rest of the table.
    if (results.size !== expectedCells()) ctx.skip();
    const support = await syncSection('venue-support', supportTable(VENUE_COLUMNS));
    expect(support.actual).toBe(support.expected);
    const matrix = await syncSection('scenario-matrix', scenarioTable(SCENARIOS, VENUE_COLUMNS, mark));
    expect(matrix.actual).toBe(matrix.expected);
  });
});
