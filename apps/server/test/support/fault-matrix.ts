import { toDecimal } from '@kairos/core';
import type { OpenRequest } from '../../src/engine/trade-lifecycle';
import { heldQuantity } from '../../src/engine/trades-fns';
import type { TradeDbRow } from '../../src/engine/trades-repo';
import { stopCrossed } from '../../src/engine/stop-loss-watch';
import type { ExchangeGateway } from '../../src/exchange/gateway';
import { callApi } from '../security/world';
import type { TradesApp } from './trades-app';
import type { Session } from './users';
import { VenueFaults, type FaultMethod, type VenueFault } from '../fakes/venue-faults';

/**
 * The lifecycle fault matrix (DESIGN §6, issue 16): every step of a trade's life × every fault a venue
 * shows, each cell on a fresh account, then the engine's own recovery (reconciliation sweeps, the stop
 * watch, the alert's retry), then the invariant:
 *
 * 1. quantity — what the venue holds equals what the trades' fills say they hold;
 * 2. protection — every trade still holding something is open with a watched stop, or closing with a
 *    live exit;
 * 3. nothing twice — no client order id reached the venue twice, and no trade has two filled entries.
 *
 * A cell whose fault never met a call (the step makes no such call) is reported as not exercised.
 */

/** A venue the matrix runs on: the real app with an account factory and a way to move the price. */
export type MatrixVenue = {
  name: string;
  t: TradesApp;
  owner: Session;
  /** A fresh account at the venue, connected through the API (`exchange`: another ccxt id on the same venue). */
  newAccount(
    marketType: 'spot' | 'future',
    options?: { exchange?: string },
  ): Promise<{ accountId: string; gateway: ExchangeGateway }>;
  /** Moves BTC/USDT to `price` and lets resting orders that it crosses fill. */
  movePrice(accountId: string, price: string): Promise<void>;
};

export type Cell = {
  ctx: CellContext;
  venue: MatrixVenue;
  accountId: string;
  gateway: ExchangeGateway;
  faults: VenueFaults;
  /** The trade the step works on (set by `setup`). */
  trade?: TradeDbRow;
  /** The first trade of the cell (the long a reversal closes). */
  firstTradeId?: string;
  botId?: string;
};
type CellContext = { strategyId: string };

type StepSpec = {
  name: string;
  marketType?: 'spot' | 'future';
  setup?(cell: Cell): Promise<unknown>;
  /** The step itself, with the fault armed. Its error is the step's business: the invariant is checked after. */
  act(cell: Cell): Promise<unknown>;
  /** What the system repeats on its own after a failure (an alert's retry); once per recovery round. */
  retry?(cell: Cell): Promise<unknown>;
  /** Which create calls are the step's own (the ones a fault on create hits). */
  creates?: (request: { side: string; type: string; reduceOnly?: boolean }) => boolean;
};

const ENTRY_PRICE = 65_000;
const price = (factor: number) => (ENTRY_PRICE * factor).toFixed(2);

let seq = 0;
function entry(cell: Cell, overrides: Partial<OpenRequest> = {}): OpenRequest {
  seq += 1;
  return {
    userId: String(cell.venue.owner.user.id),
    botId: cell.botId ?? null,
    accountId: cell.accountId,
    strategyId: null,
    alertId: null,
    symbol: 'BTC/USDT',
    side: 'long',
    clientOrderId: `fm${process.pid}x${seq}`,
    quantity: '0.01',
    plan: {
      takeProfits: [
        { role: 'tp1', percent: '1', sizePercent: '50' },
        { role: 'tp2', percent: '3', sizePercent: '50' },
      ],
      stopLossPercent: '2',
      breakEvenAfterTp1: true,
    },
    ...overrides,
  };
}

const engine = (cell: Cell) => cell.venue.t.app.services.engine;
async function open(cell: Cell, req: OpenRequest) {
  cell.trade = await engine(cell).supervisor.managedLifecycle.open(cell.gateway, req);
  cell.firstTradeId ??= cell.trade.id;
  return cell.trade;
}
const reconcile = (cell: Cell) =>
  engine(cell).reconciler.reconcileAccount({ id: cell.accountId }, { sweep: true });

/** One pass of the stop-loss watch over this account's trades. */
async function stopWatch(cell: Cell) {
  const last = (await cell.gateway.fetchTicker('BTC/USDT')).last;
  if (!last) return;
  for (const { trade } of await cell.venue.t.app.services.repos.trades.openTradesWithStops()) {
    if (trade.tradingAccountId !== cell.accountId || !stopCrossed(trade.side, trade.stopLossPrice!, last))
      continue;
    const { supervisor } = engine(cell);
    await supervisor
      .closeTrade(trade.id, supervisor.stopClientOrderId(trade.id), 'stop loss', 'stop', (now) =>
        Boolean(now.status === 'open' && now.stopLossPrice && stopCrossed(now.side, now.stopLossPrice, last)),
      )
      .catch(() => undefined);
  }
}

async function withBot(cell: Cell) {
  const res = await callApi(cell.venue.t, cell.venue.owner, 'POST', '/api/bots', {
    nickname: `matrix ${seq}`,
    strategyId: cell.ctx.strategyId,
    tradingAccountId: cell.accountId,
    fixedAmount: 650,
    isActive: true,
  });
  if (res.status !== 201) throw new Error(`bot: ${res.status} ${res.body}`);
  cell.botId = res.json().results.id;
}

const isEntry = (r: { side: string; reduceOnly?: boolean }) => r.side === 'buy' && !r.reduceOnly;
const isExit = (r: { side: string; type: string }) => r.side === 'sell' && r.type === 'market';

export const STEPS: StepSpec[] = [
  {
    name: 'entry',
    act: (cell) => open(cell, entryOf(cell)),
    retry: (cell) => open(cell, entryOf(cell)),
    creates: isEntry,
  },
  {
    name: 'ladder placement',
    act: (cell) => open(cell, entryOf(cell)),
    creates: (r) => r.type === 'limit' && r.side === 'sell',
  },
  {
    name: 'break-even move',
    setup: (cell) => open(cell, entryOf(cell)),
    async act(cell) {
      await cell.venue.movePrice(cell.accountId, price(1.011));
      await reconcile(cell);
    },
  },
  {
    name: 'stop exit',
    setup: (cell) => open(cell, entryOf(cell)),
    async act(cell) {
      await cell.venue.movePrice(cell.accountId, price(0.975));
      await stopWatch(cell);
    },
    creates: isExit,
  },
  {
    name: 'take-profit fill',
    setup: (cell) =>
      open(
        cell,
        entryOf(cell, {
          plan: {
            takeProfits: [{ role: 'tp1', percent: '1', sizePercent: '100' }],
            stopLossPercent: '2',
            breakEvenAfterTp1: false,
          },
        }),
      ),
    async act(cell) {
      await cell.venue.movePrice(cell.accountId, price(1.011));
      await reconcile(cell);
    },
  },
  {
    name: 'exit signal',
    setup: (cell) => open(cell, entryOf(cell)),
    act: (cell) => exitSignal(cell),
    retry: (cell) => exitSignal(cell),
    creates: isExit,
  },
  {
    name: 'reversal',
    marketType: 'future',
    setup: (cell) => open(cell, entryOf(cell)),
    act: (cell) => reverse(cell),
    retry: (cell) => reverse(cell),
    creates: (r) => r.side === 'sell',
  },
  {
    name: 'push to market',
    setup: (cell) => open(cell, entryOf(cell)),
    act: async (cell) => {
      const res = await callApi(cell.venue.t, cell.venue.owner, 'PUT', '/push-to-take-profit', {
        tradeId: cell.trade!.id,
        takeProfitRole: 'tp1',
      });
      if (res.status >= 500) throw new Error(`push answered ${res.status}: ${res.body}`);
    },
    creates: isExit,
  },
  {
    name: 'bot stop',
    async setup(cell) {
      await withBot(cell);
      await open(cell, entryOf(cell));
    },
    act: async (cell) => {
      const res = await callApi(cell.venue.t, cell.venue.owner, 'POST', `/bots/${cell.botId}/stop`, {});
      if (res.status >= 500) throw new Error(`bot stop answered ${res.status}: ${res.body}`);
    },
    creates: isExit,
  },
  {
    name: 'admin close',
    async setup(cell) {
      await withBot(cell);
      await open(cell, entryOf(cell));
    },
    // The admin console's close-positions action runs exactly this, once per bot.
    act: (cell) => engine(cell).closeBotPosition(cell.botId!, 'admin close'),
    creates: isExit,
  },
];

/** The cell's entry request, the same one on every call (an alert's retry sends the same ids). */
const entries = new WeakMap<Cell, OpenRequest>();
function entryOf(cell: Cell, overrides: Partial<OpenRequest> = {}): OpenRequest {
  let req = entries.get(cell);
  if (!req) {
    req = entry(cell, overrides);
    entries.set(cell, req);
  }
  return req;
}

async function exitSignal(cell: Cell) {
  const trade = (await cell.venue.t.app.services.repos.trades.findById(cell.trade!.id))!;
  return engine(cell).supervisor.managedLifecycle.close(
    cell.gateway,
    trade,
    `${entryOf(cell).clientOrderId}exit`,
    'signal exit',
  );
}

/** What the fan-out does on a reversal: the long's close leg, then the short's entry. */
async function reverse(cell: Cell) {
  const long = (await cell.venue.t.app.services.repos.trades.findById(cell.firstTradeId!))!;
  const closed = await engine(cell).supervisor.managedLifecycle.close(
    cell.gateway,
    long,
    `${entryOf(cell).clientOrderId}close`,
    'signal short',
  );
  if (closed.status !== 'closed') throw new Error('the long is not closed yet');
  return engine(cell).supervisor.managedLifecycle.open(cell.gateway, {
    ...entryOf(cell),
    side: 'short',
    clientOrderId: `${entryOf(cell).clientOrderId}short`,
  });
}

export const FAULTS: VenueFault[] = [
  'refused',
  'timeout',
  'timeoutAfterAccept',
  'notFound',
  'rateLimited',
  'laggingTrades',
  'killed',
];

/** Arms one fault on the calls a step makes. */
function arm(faults: VenueFaults, fault: VenueFault, step: StepSpec) {
  const creates = (args: unknown[]) =>
    !step.creates || step.creates(args[0] as { side: string; type: string; reduceOnly?: boolean });
  const on = (method: FaultMethod, match?: (args: unknown[]) => boolean) =>
    faults.inject(method, fault, { match });
  switch (fault) {
    case 'laggingTrades':
      faults.lagTrades();
      return;
    case 'notFound':
      on('cancelOrder');
      on('fetchOrder');
      on('fetchOrderByClientId');
      on('cancelStop');
      on('fetchStop');
      on('fetchStopByClientId');
      return;
    case 'refused':
      on('createOrder', creates);
      on('cancelOrder');
      on('fetchTicker');
      on('placeStop');
      on('cancelStop');
      return;
    case 'killed':
      on('createOrder', creates);
      on('placeStop');
      return;
    default:
      // Timeouts and rate limits meet the step's mutations and its reads alike (stops resting on the venue too).
      on('createOrder', creates);
      on('cancelOrder');
      on('fetchTicker');
      on('fetchOrder');
      on('fetchOrderFills');
      on('placeStop');
      on('cancelStop');
      on('fetchStop');
      on('fetchStopByClientId');
  }
}

export type CellResult = {
  venue: string;
  step: string;
  fault: VenueFault;
  exercised: boolean;
  ok: boolean;
  problems: string[];
};

/** What the venue holds of BTC for the account: the spot balance, or the signed futures position. */
async function venueHolds(gateway: ExchangeGateway) {
  if (gateway.marketType === 'future') {
    const positions = await gateway.fetchPositions();
    return positions
      .filter((p) => p.symbol === 'BTC/USDT')
      .reduce((s, p) => s.plus(p.side === 'long' ? p.amount : toDecimal(p.amount).neg()), toDecimal(0));
  }
  return toDecimal((await gateway.fetchBalances())['BTC']?.total ?? '0');
}

export async function checkInvariant(cell: Cell): Promise<string[]> {
  const { t } = cell.venue;
  const problems: string[] = [];
  const repo = t.app.services.repos.trades;
  const { rows } = await t.db.pool.query('SELECT id FROM trades WHERE trading_account_id = $1', [
    cell.accountId,
  ]);
  let booked = toDecimal(0);
  for (const { id } of rows as { id: string }[]) {
    const trade = (await repo.findById(id))!;
    const fills = await repo.fillsOfTrade(id);
    const held = heldQuantity(trade, fills);
    booked = booked.plus(trade.side === 'long' ? held : held.neg());
    const orders = await repo.ordersOfTrade(id);
    if (held.gte('0.00001')) {
      const watched = trade.status === 'open' && trade.stopLossPrice !== null;
      const exiting =
        trade.status === 'closing' &&
        orders.some(
          (o) =>
            o.role !== 'entry' &&
            !/^tp\d+$/.test(o.role) &&
            ['new', 'submitted', 'open', 'partially_filled', 'unknown'].includes(o.status),
        );
      if (!watched && !exiting)
        problems.push(`trade ${trade.status} holds ${held.toFixed()} with no watched stop or live exit`);
    }
    const filledEntries = orders.filter((o) => o.role === 'entry' && toDecimal(o.filled).gt(0));
    if (filledEntries.length > 1) problems.push(`trade has ${filledEntries.length} filled entries`);
    if (fills.some((f) => f.inferred)) problems.push('fills still inferred after recovery');
  }
  const venue = await venueHolds(cell.gateway);
  if (!venue.eq(booked)) problems.push(`venue holds ${venue.toFixed()}, trades say ${booked.toFixed()}`);
  // Stops resting on the venue: each one Kairos placed known as it is there, together never more than the position.
  if (cell.gateway.stops) {
    const { rows: stops } = await t.db.pool.query(
      `SELECT client_order_id, status, amount::text AS amount FROM venue_stops WHERE trading_account_id = $1`,
      [cell.accountId],
    );
    let resting = toDecimal(0);
    for (const stop of stops as { client_order_id: string; status: string; amount: string }[]) {
      const onVenue = await cell.gateway.stops
        .fetchStopByClientId(stop.client_order_id, 'BTC/USDT')
        .catch(() => undefined);
      if (onVenue?.status === 'open') resting = resting.plus(onVenue.amount);
      if ((onVenue?.status === 'open') !== (stop.status === 'open'))
        problems.push(
          `stop ${stop.client_order_id} is ${onVenue?.status ?? 'unknown'} at the venue, ${stop.status} here`,
        );
    }
    if (resting.gt(venue.abs()))
      problems.push(`stops rest for ${resting.toFixed()}, the position is ${venue.toFixed()}`);
  }
  const reached = cell.faults.reachedIds();
  const twice = reached.filter((id, i) => reached.indexOf(id) !== i);
  if (twice.length > 0) problems.push(`sent twice: ${twice.join(', ')}`);
  return problems;
}

/** The engine's own recovery, with time passed: grace periods and back-offs over, passes run. */
async function recover(cell: Cell, step: StepSpec) {
  cell.faults.clear();
  await cell.faults.restartAfterKill(cell.venue.t.db.pool);
  for (let round = 0; round < 4; round++) {
    await cell.venue.t.db.pool.query(
      `UPDATE orders SET updated_at = updated_at - interval '5 minutes'
       WHERE trading_account_id = $1 AND status IN ('submitted', 'unknown', 'rejected')`,
      [cell.accountId],
    );
    await cell.venue.t.db.pool.query(
      `UPDATE venue_stops SET updated_at = updated_at - interval '5 minutes'
       WHERE trading_account_id = $1 AND status IN ('submitted', 'unknown', 'rejected')`,
      [cell.accountId],
    );
    await reconcile(cell).catch(() => undefined);
    await stopWatch(cell).catch(() => undefined);
    await step.retry?.(cell).catch(() => undefined);
  }
  await reconcile(cell).catch(() => undefined);
}

/**
 * One cell on a fresh account: of the step's market type (spot unless it says), or of the `column` given — a
 * market type, the ccxt id to connect it with, and the name its results carry.
 */
export async function runCell(
  venue: MatrixVenue,
  ctx: CellContext,
  step: StepSpec,
  fault: VenueFault,
  column: { name?: string; marketType?: 'spot' | 'future'; exchange?: string } = {},
): Promise<CellResult> {
  const { accountId, gateway } = await venue.newAccount(column.marketType ?? step.marketType ?? 'spot', {
    exchange: column.exchange,
  });
  const cell: Cell = { ctx, venue, accountId, gateway, faults: new VenueFaults(gateway) };
  await step.setup?.(cell);
  arm(cell.faults, fault, step);
  await step.act(cell).catch(() => undefined);
  const exercised = cell.faults.fired();
  await recover(cell, step);
  const problems = await checkInvariant(cell);
  const name = column.name ?? venue.name;
  return { venue: name, step: step.name, fault, exercised, ok: problems.length === 0, problems };
}

/** The matrix as a text table: steps down, faults across. */
export function matrixTable(results: CellResult[]): string {
  const venues = [...new Set(results.map((r) => r.venue))];
  const lines: string[] = [];
  for (const venue of venues) {
    lines.push(
      `\n${venue}`,
      `| step | ${FAULTS.join(' | ')} |`,
      `|---|${FAULTS.map(() => '---').join('|')}|`,
    );
    for (const step of STEPS) {
      const cells = FAULTS.map((fault) => {
        const r = results.find((x) => x.venue === venue && x.step === step.name && x.fault === fault);
        if (!r) return ' ';
        if (!r.ok) return 'FAIL';
        return r.exercised ? 'pass' : '—';
      });
      lines.push(`| ${step.name} | ${cells.join(' | ')} |`);
    }
  }
  return lines.join('\n');
}
