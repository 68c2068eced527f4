// The stop reaction figure of `npm run bench` (issue 18): 10,000 open trades with stops over 50 symbols on a
// real PostgreSQL database (no stop resting on the venue: the watch is their stop), each symbol's price falling
// through a few of their stops at a time; measured per trade from the moment the crossing price is the venue's
// price to the moment its exit order reaches the venue (after the exit cancelled the trade's take-profit).
// The worker's own trade monitor watches them (the stop-loss watch, reconciliation every 5 s, paper fill events).
//
// In-process: the server's sources are bundled like `npm run build` does (esbuild, dependencies external) with
// an entry exporting what the bench drives, and run against a throw-away database on DATABASE_URL's server (or
// embedded PostgreSQL). The venue is the paper venue over a market whose prices the bench scripts in advance —
// each step takes effect at a set time — so the crossing moment is known without any message to the watch:
// the watch sees it when it reads the venue's price, and its polling interval counts against the target.
// BENCH_DEBUG=1 prints where the time went (event loop delay, the slow exits, the reconciliation passes).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { inParallel, percentile, root, sleep, throwAwayDatabase } from './common.mjs';

const TRADES = 10_000;
const SYMBOLS = 50;
/** Trades per paper spot account: 1,000 accounts, each trade of an account on its own symbol. */
const TRADES_PER_ACCOUNT = 10;
/** Where the scripted prices start, and each trade's stop under it: 0.05 apart, the first at 99.90. */
const START_PRICE = 100;
const STOP_STEP = 0.05;
/** How long the prices fall, and how often (on average) a symbol's price steps through its next stops. */
const RUN_MS = 20_000;
const QUICK_RUN_MS = 8_000;
const MEAN_GAP_MS = 3_000;
/** Stops one step goes through: 1 to this many (about 33 exits a second over the 50 symbols). */
const MAX_CROSSED = 3;

/** The server's sources the bench drives, bundled as the server build does (migrations beside them). */
async function bundleServer() {
  const serverDir = path.join(root, 'apps/server');
  const pkg = JSON.parse(fs.readFileSync(path.join(serverDir, 'package.json'), 'utf8'));
  // Inside node_modules so that the bundle's external imports resolve to the installed dependencies.
  const outDir = path.join(root, 'node_modules/.cache/kairos-bench');
  fs.mkdirSync(outDir, { recursive: true });
  const migrations = path.join(outDir, 'migrations');
  fs.rmSync(migrations, { recursive: true, force: true });
  fs.cpSync(path.join(serverDir, 'src/db/migrations'), migrations, { recursive: true });
  const outfile = path.join(outDir, `stop-reaction-${process.pid}.mjs`);
  await build({
    stdin: {
      contents: [
        `export { default as pino } from 'pino';`,
        `export { createServices } from './composition';`,
        `export { loadConfig } from './config';`,
        `export { connectDatabase } from './db/client';`,
        `export { startEmbeddedPostgres } from './db/embedded-postgres';`,
        `export { runMigrations } from './db/migrate';`,
        `export { Decimal } from './exchange/decimal';`,
        `export { MarketSimulator } from './exchange/paper/market-simulator';`,
        `export { PAPER_MARKETS } from './exchange/paper/paper-markets';`,
      ].join('\n'),
      resolveDir: path.join(serverDir, 'src'),
      loader: 'ts',
      sourcefile: 'stop-reaction-entry.ts',
    },
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    external: [...Object.keys(pkg.dependencies ?? {}), '@embedded-postgres/*'],
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __kairosRequire } from 'node:module'; const require = __kairosRequire(import.meta.url);",
    },
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    fs.rmSync(outfile, { force: true });
  }
}

/**
 * The paper venue's market for the bench: 50 symbols at a flat 100 until the bench's script moves them, each
 * move taking effect at its own time (`price(symbol, time)` is what the venue's price is at `time`). Books,
 * tickers and fills follow the scripted price, as they follow the simulated one.
 */
function scriptedMarket(server) {
  const base = server.PAPER_MARKETS[0];
  const specs = Array.from({ length: SYMBOLS }, (_, i) => ({
    ...base,
    symbol: `S${String(i).padStart(2, '0')}/USDT`,
    base: `S${String(i).padStart(2, '0')}`,
    startPrice: String(START_PRICE),
    priceTick: '0.01',
    amountStep: '0.001',
    minAmount: '0.001',
    minNotional: '5',
    levelDepthQuote: 1_000_000,
  }));
  const start = new server.Decimal(START_PRICE.toFixed(2));
  class BenchMarket extends server.MarketSimulator {
    /** Per symbol: the moves, oldest first, each `{ at, price }` (a Decimal). */
    moves = new Map();
    price(symbol, time) {
      let price = start;
      for (const m of this.moves.get(symbol) ?? []) if (m.at <= time) price = m.price;
      return price;
    }
  }
  return { market: new BenchMarket({ markets: specs }), symbols: specs.map((s) => s.symbol) };
}

/** The stop of the k-th trade (from the top) of a symbol: 99.90, 99.85, … */
const stopOf = (k) => (START_PRICE - 0.1 - k * STOP_STEP).toFixed(2);

/**
 * Runs the figure and records it with `record(figure, target, measured, pass)`; a failure of the bench itself
 * is recorded as a FAIL rather than thrown.
 */
export async function stopReactionBench({ quick = false, record }) {
  const figure = `stop reaction: price through the stop → exit order at the venue, ${TRADES.toLocaleString('en-US')} open trades watched over ${SYMBOLS} symbols`;
  const say = (line) => console.log(`  [stops] ${line}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-stops-bench-'));
  fs.chmodSync(dataDir, 0o755);
  const db = await throwAwayDatabase('kairos_stops');
  let embedded;
  let handle;
  let services;
  let monitor;
  try {
    const server = await bundleServer();
    let databaseUrl = db.env.DATABASE_URL;
    if (!databaseUrl) {
      embedded = await server.startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg') });
      databaseUrl = embedded.url;
    }
    handle = server.connectDatabase(databaseUrl);
    await server.runMigrations(handle);
    const config = server.loadConfig({
      LOG_LEVEL: 'warn',
      KAIROS_DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
    });
    const log = server.pino({ level: 'warn' });
    const { market, symbols } = scriptedMarket(server);
    services = server.createServices({ config, db: handle, paperVenueOptions: { market } }, log);
    const { repos, venues, engine } = services;

    // ── 10,000 trades: 1,000 paper spot accounts, each a long on 10 symbols, entered through the lifecycle ──
    const seedStart = Date.now();
    await services.auth.register({ email: 'stops@kairos.local', password: 'stops-bench-password-long' });
    const user = await repos.auth.findUserByEmail('stops@kairos.local');
    const accounts = [];
    await inParallel(
      Array.from({ length: TRADES / TRADES_PER_ACCOUNT }, (_, i) => i),
      8,
      async (i) => {
        const account = await repos.accounts.insert({
          userId: user.id,
          nickname: `stops-${i}`,
          exchange: 'paper',
          marketType: 'spot',
          sandbox: false,
          usdtBalance: '100000',
          balanceUpdatedAt: new Date(),
        });
        await venues.accountVenues.fundPaper(account, '100000');
        accounts[i] = account;
      },
    );
    const trades = [];
    await inParallel(
      Array.from({ length: TRADES }, (_, n) => n),
      16,
      async (n) => {
        const account = accounts[Math.floor(n / TRADES_PER_ACCOUNT)];
        const symbol = symbols[n % SYMBOLS];
        const gateway = await venues.gateways.forAccount(account);
        const trade = await engine.supervisor.managedLifecycle.open(gateway, {
          userId: user.id,
          botId: null,
          accountId: account.id,
          strategyId: null,
          alertId: null,
          symbol,
          side: 'long',
          clientOrderId: `stops-entry-${n}`,
          quantity: '1',
          // Its one take-profit holds all its coins (a spot stop sells what no take-profit holds), so no stop
          // rests on the venue beside it: the watch is its stop, as on a venue without stop orders.
          plan: {
            takeProfits: [{ role: 'tp1', percent: '50', sizePercent: '100' }],
            stopLossPercent: '50',
            breakEvenAfterTp1: false,
          },
        });
        if (trade.status !== 'open') throw new Error(`trade ${n} is ${trade.status}`);
        trades[n] = trade;
      },
    );
    // Each symbol's 200 trades get stops 0.05 apart under the price, in an order unrelated to the accounts.
    const bySymbol = new Map(symbols.map((s) => [s, []]));
    for (const trade of trades) bySymbol.get(trade.symbol).push(trade);
    const stopRows = [];
    for (const list of bySymbol.values()) {
      const shuffled = list.map((t) => ({ t, r: Math.random() })).sort((a, b) => a.r - b.r);
      shuffled.forEach(({ t }, k) => stopRows.push({ id: t.id, stop: stopOf(k), symbol: t.symbol, k }));
    }
    await handle.pool.query(
      `UPDATE trades SET stop_loss_price = s.stop::numeric
       FROM unnest($1::uuid[], $2::text[]) AS s(id, stop) WHERE trades.id = s.id`,
      [stopRows.map((r) => r.id), stopRows.map((r) => r.stop)],
    );
    await handle.pool.query('VACUUM ANALYZE trades');
    say(
      `${TRADES} trades on ${accounts.length} accounts in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`,
    );

    // ── when each stop's exit order reaches the venue ──
    const stopIdOf = new Map(stopRows.map((r) => [engine.supervisor.stopClientOrderId(r.id), r]));
    const arrived = new Map();
    const createOrder = venues.paperVenue.createOrder.bind(venues.paperVenue);
    venues.paperVenue.createOrder = (accountId, marketType, request) => {
      if (stopIdOf.has(request.clientOrderId) && !arrived.has(request.clientOrderId))
        arrived.set(request.clientOrderId, Date.now());
      return createOrder(accountId, marketType, request);
    };
    // BENCH_DEBUG=1: when each exit was asked of the supervisor (between the crossing and the venue).
    const asked = new Map();
    const closeTrade = engine.supervisor.closeTrade;
    engine.supervisor.closeTrade = (tradeId, ...rest) => {
      asked.set(engine.supervisor.stopClientOrderId(tradeId), Date.now());
      return closeTrade(tradeId, ...rest);
    };
    // Reconciliation passes (start, end), watched so the run starts after start-up's full sweep.
    const passes = [];
    const reconcileAll = engine.reconciler.reconcileAll;
    engine.reconciler.reconcileAll = async (options) => {
      const pass = { sweep: options.sweep, start: Date.now(), end: null };
      passes.push(pass);
      try {
        return await reconcileAll(options);
      } finally {
        pass.end = Date.now();
      }
    };
    // The paper venue's matching tick is not run: no resting order can fill at these prices (the take-profits
    // rest 50 % up), and its transaction per account a second is the simulated venue's work, not Kairos'.

    const runMs = quick ? QUICK_RUN_MS : RUN_MS;
    /** Per symbol: its stops from the top, and how many the script has gone through. */
    const ladders = new Map(
      symbols.map((symbol) => [
        symbol,
        { rows: stopRows.filter((r) => r.symbol === symbol).sort((a, b) => a.k - b.k), next: 0 },
      ]),
    );
    const crossedAll = new Set();
    /**
     * One measured run: each symbol's price steps down through its next 1–3 stops at random times for `runMs`
     * (about 33 exits a second over the 50 symbols), then waits for their exits. Returns the figures.
     */
    async function measure() {
      const t0 = Date.now() + 500;
      const crossings = new Map(); // stop client id → when the price crossed it (also in `crossedAll`)
      for (const [symbol, ladder] of ladders) {
        const moves = market.moves.get(symbol) ?? [];
        let at = t0 + Math.random() * MEAN_GAP_MS;
        while (at < t0 + runMs && ladder.next < ladder.rows.length) {
          const crossed = Math.min(
            ladder.rows.length - ladder.next,
            1 + Math.floor(Math.random() * MAX_CROSSED),
          );
          const through = ladder.rows.slice(ladder.next, ladder.next + crossed);
          moves.push({ at: Math.round(at), price: new server.Decimal(through.at(-1).stop) });
          for (const r of through) crossings.set(engine.supervisor.stopClientOrderId(r.id), Math.round(at));
          for (const r of through) crossedAll.add(engine.supervisor.stopClientOrderId(r.id));
          ladder.next += crossed;
          at += MEAN_GAP_MS * (0.3 + 1.4 * Math.random());
        }
        market.moves.set(symbol, moves);
      }
      const loopDelay = monitorEventLoopDelay({ resolution: 10 });
      loopDelay.enable();
      const deadline = t0 + runMs + 30_000;
      while ([...crossings.keys()].some((id) => !arrived.has(id)) && Date.now() < deadline) await sleep(200);
      loopDelay.disable();

      const latencies = [...crossings].flatMap(([id, at]) => (arrived.has(id) ? [arrived.get(id) - at] : []));
      if (process.env.BENCH_DEBUG) {
        const mid = (list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)];
        const ms = (ns) => (ns / 1e6).toFixed(0);
        say(
          `event loop delay: p50 ${ms(loopDelay.percentile(50))} ms, p99 ${ms(loopDelay.percentile(99))} ms, max ${ms(loopDelay.max)} ms`,
        );
        const slow = [...crossings]
          .filter(([id, at]) => arrived.get(id) - at > 500)
          .map(([id, at]) => `${((at - t0) / 1000).toFixed(1)}s+${arrived.get(id) - at}`);
        say(`slow (crossed at, ms to the venue): ${slow.slice(0, 40).join(' ')}`);
        const during = passes.filter((p) => p.start < t0 + runMs && (p.end ?? Infinity) > t0);
        const span = (p) => `${((p.start - t0) / 1000).toFixed(1)}s/${(p.end ?? Date.now()) - p.start}`;
        say(
          `reconciliation passes during the run (start, ms): ${during.map((p) => `${span(p)}${p.sweep ? ' sweep' : ''}`).join(' ')}`,
        );
        const split = [...crossings].flatMap(([id, at]) =>
          asked.has(id) && arrived.has(id) ? [[asked.get(id) - at, arrived.get(id) - asked.get(id)]] : [],
        );
        say(
          `crossing → exit asked: median ${mid(split.map((a) => a[0]))} ms; asked → at the venue: median ${mid(split.map((a) => a[1]))} ms`,
        );
      }
      const at = (p) => percentile(latencies, p);
      return {
        exits: latencies.length,
        // Sent before the price crossed (never: the venue's price is the script's) or not at all.
        missing: crossings.size - latencies.length + latencies.filter((l) => l < 0).length,
        text: `p50 ${at(50)} ms, p95 ${at(95)} ms, p99 ${at(99)} ms, max ${Math.max(...latencies)} ms`,
        p99: at(99),
      };
    }

    // ── with the worker's trade monitor (stop-loss watch, reconciliation every 5 s, fill events) ──
    monitor = engine.startTradeMonitor();
    // Waited for at most 5 minutes (a loaded machine): past that the run overlaps the sweep, and says so.
    const settleStart = Date.now();
    while (!passes[0]?.end && Date.now() - settleStart < 300_000) await sleep(200);
    await sleep(2_000);
    const sweepDone = Boolean(passes[0]?.end);
    say(
      sweepDone
        ? `start-up's reconciliation sweep over ${accounts.length} accounts took ${passes[0].end - passes[0].start} ms`
        : `start-up's reconciliation sweep still running after ${Date.now() - settleStart} ms: measured during it`,
    );
    const worker = await measure();
    record(
      `${figure}, the worker's trade monitor (${worker.exits} exits, ${worker.missing} not sent or early${sweepDone ? '' : "; during start-up's reconciliation sweep"})`,
      'p99 < 500 ms',
      worker.text,
      worker.p99 < 500 && worker.missing === 0,
    );
    // Exits sent for a stop whose price never came.
    const uncrossed = [...arrived.keys()].filter((id) => !crossedAll.has(id)).length;
    if (uncrossed > 0) record(`${figure}: exits sent for a stop not crossed`, '0', String(uncrossed), false);
  } catch (e) {
    console.error(e);
    record(figure, 'p99 < 500 ms', `bench failed: ${e.message}`, false);
  } finally {
    await monitor?.stop().catch(() => undefined);
    await handle?.close().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    await db.drop().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
