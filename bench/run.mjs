// `npm run bench`: measures Kairos against the targets of DESIGN §10 and prints one table.
// Everything runs on loopback: a fresh Kairos (embedded PostgreSQL, or DATABASE_URL's server with a
// throw-away database) started with `npm start`'s own entry, driven over HTTP like a client would.
// Diagnostics: BENCH_DEBUG=1 prints when a ladder fan-out's set-ups happened; BENCH_PROF=1 writes a CPU
// profile of the Kairos process to /tmp/prof when it stops.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  api,
  createPaperBots,
  embeddedUrl,
  freePort,
  root,
  signUp,
  startKairos,
  steadyLoad,
  throwAwayDatabase,
  waitHealthy,
  UNLIMITED_WEBHOOKS,
} from './common.mjs';
import { crashBench } from './crash.mjs';
import { lighthouseBench, lighthouseTrader } from './lighthouse.mjs';
import { stopReactionBench } from './stop-reaction.mjs';

/** Registering the admin email needs the setup token (issue 20). */
const BENCH_SETUP_TOKEN = 'kst_bench-admin-setup-token';
const args = new Set(process.argv.slice(2));
const QUICK = args.has('--quick');
// Only the engine's figures (webhook acknowledgement, alert fan-out): no web build, no bots list or dashboard.
const ENGINE_ONLY = args.has('--engine') || args.has('--ladder');
// Only the ladder fan-out (issue 18's figure): no webhook load, no plain fan-out; for profiling it.
const LADDER_ONLY = args.has('--ladder');
// Only the fault figure (a worker SIGKILLed mid fan-out): bench/crash.mjs, with its own processes and database.
const CRASH_ONLY = args.has('--crash');
// Only the lifecycle fault matrix (steps × faults × venues): its test file, with the table it writes.
const FAULTS_ONLY = args.has('--faults');
// Only the stop reaction figure (10,000 watched trades, issue 18): bench/stop-reaction.mjs, its own database.
const STOPS_ONLY = args.has('--stops');
// Only the read figures (GET /api/bots, the dashboard over 1,000,000 trades): no webhook load, no fan-outs.
const READS_ONLY = args.has('--reads');
// Adds Lighthouse's mobile scores for Home and the Dashboard (issue 21; bench/lighthouse.mjs), before any load.
const LIGHTHOUSE = args.has('--lighthouse');
const rows = [];

function record(figure, target, measured, pass) {
  rows.push({ figure, target, measured, pass: pass === undefined ? '—' : pass ? 'pass' : 'FAIL' });
  console.log(`  ${figure}: ${measured} (${pass === undefined ? 'info' : pass ? 'pass' : 'FAIL'})`);
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

async function main() {
  console.log('Kairos benchmarks (loopback only)\n');
  if (CRASH_ONLY) {
    await crashBench({ quick: QUICK, record });
    return printTable();
  }
  if (FAULTS_ONLY) {
    faultMatrix();
    return printTable();
  }
  if (STOPS_ONLY) {
    await stopReactionBench({ quick: QUICK, record });
    return printTable();
  }
  // Build first so start-up is measured on an installed checkout, not a build.
  if (!ENGINE_ONLY)
    await new Promise((resolve, reject) => {
      const b = spawn('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      b.stdout.on('data', (d) => (out += d));
      b.on('exit', (code) => {
        if (code !== 0) return reject(new Error('build failed'));
        const first = out.match(/First-load JS\s+([\d.]+) KB/);
        const routes = [...out.matchAll(/^\s+([\d.]+) KB\s+\(\+ shared [\d.]+ KB\)\s+route\s+(\S+)/gm)];
        if (first)
          record('web: JS on first load (gzip)', '< 150 KB', `${first[1]} KB`, Number(first[1]) < 150);
        if (routes.length) {
          const largest = routes.reduce((m, r) => (Number(r[1]) > Number(m[1]) ? r : m));
          record(
            `web: largest of ${routes.length} route chunks (gzip, ${largest[2]})`,
            '< 100 KB',
            `${largest[1]} KB`,
            Number(largest[1]) < 100,
          );
        }
        resolve();
      });
    });

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-bench-'));
  fs.chmodSync(dataDir, 0o755);
  const db = await throwAwayDatabase('kairos_bench');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...db.env,
    PORT: String(port),
    KAIROS_DATA_DIR: dataDir,
    KAIROS_ADMIN_EMAIL: 'bench@kairos.local',
    KAIROS_ADMIN_SETUP_TOKEN: BENCH_SETUP_TOKEN,
    // The load and fan-out figures send far more alerts to one strategy than its per-minute limit (issue 20).
    ...UNLIMITED_WEBHOOKS,
  };

  // ── start → healthy (first start creates the cluster; the second is a normal start) ──
  let kairos = startKairos(env);
  const firstStart = await waitHealthy(base);
  await kairos.stop();
  kairos = startKairos(env);
  const start = await waitHealthy(base);
  record(
    'npm start → healthy (first start, creates the database)',
    'info',
    `${(firstStart / 1000).toFixed(1)} s`,
  );
  record('npm start → healthy', '< 15 s', `${(start / 1000).toFixed(1)} s`, start < 15_000);

  try {
    const admin = await signUp(base, {
      email: 'bench@kairos.local',
      password: 'bench-password-long',
      setupToken: BENCH_SETUP_TOKEN,
    });
    const token = admin.apiToken;
    if (LIGHTHOUSE && !ENGINE_ONLY)
      await lighthouseBench({ base, session: await lighthouseTrader(base), record });
    const strategy = await api(
      base,
      'POST',
      '/api/strategies',
      { nickname: 'Bench', tradeCurrency: 'BTC', timeFrame: '1m', maxLagSeconds: 3600 },
      token,
    );

    if (!LADDER_ONLY && !READS_ONLY) {
      // ── webhook acknowledgement at a steady 200 req/s ──
      let seq = 0;
      const hookUrl = `${base}/webhooks/${strategy.strategyKey}`;
      const hookBody = () =>
        JSON.stringify({
          secret: strategy.webhookSecret,
          action: seq % 2 ? 'long' : 'exit',
          id: `bench-${++seq}`,
        });
      await steadyLoad({ url: hookUrl, rate: 200, seconds: 3, body: hookBody }); // warm-up
      const hook = await steadyLoad({ url: hookUrl, rate: 200, seconds: QUICK ? 5 : 20, body: hookBody });
      record(
        `webhook acknowledged at a steady 200 req/s, one every 5 ms (${hook.sent} requests, ${hook.non2xx + hook.errors} failed)`,
        'p99 < 50 ms',
        `p50 ${hook.p50} ms, p99 ${hook.p99} ms`,
        hook.p99 < 50 && hook.non2xx + hook.errors === 0,
      );
      // The same 200 a second as autocannon's rate limit sends them: each second, all at once over 20 connections.
      const burst = await autocannon({
        url: hookUrl,
        method: 'POST',
        connections: 20,
        overallRate: 200,
        duration: QUICK ? 5 : 10,
        headers: { 'content-type': 'application/json' },
        requests: [{ setupRequest: (req) => ({ ...req, body: hookBody() }) }],
      });
      record(
        `webhook acknowledged, 200 at once each second over 20 connections (${burst.requests.sent} requests, ${burst.non2xx} non-2xx)`,
        'info',
        `p50 ${burst.latency.p50} ms, p99 ${burst.latency.p99} ms`,
      );
    }
    // Let the worker drain what the load queued (no bots: each alert is a quick no-op).
    const c = new pg.Client({ connectionString: await dbUrl(base, env) });
    // Ended when the database is dropped after a failure: the failure is what is reported, not this.
    c.on('error', () => undefined);
    await c.connect();
    for (let i = 0; i < 600; i += 1) {
      const { rows: r } = await c.query(
        `SELECT count(*)::int AS n FROM alerts WHERE status IN ('queued','in_progress')`,
      );
      if (r[0].n === 0) break;
      await new Promise((res) => setTimeout(res, 500));
    }

    // ── alert → every entry order sent, 1,000 bots on paper venues ──
    const botCount = QUICK ? 200 : args.has('--10k') ? 10_000 : 1000;
    /**
     * `botCount` bots on a new strategy: after a warm-up (one long, one exit), `rounds` long alerts (an exit
     * after each) timed from the webhook to the last entry the venue took ("sent") and to the last entry
     * Kairos recorded filled.
     */
    async function fanOut(nickname, extra, rounds, marketType = 'spot') {
      const fan = await api(
        base,
        'POST',
        '/api/strategies',
        { nickname, tradeCurrency: 'ETH', timeFrame: '1m', maxLagSeconds: 3600, ...extra },
        token,
      );
      await createPaperBots(
        base,
        token,
        fan.id,
        botCount,
        nickname.toLowerCase().replace(/\W/g, ''),
        marketType,
      );
      const sent = [];
      const filled = [];
      const ladders = [];
      // Rounds -2 and -1 are a warm-up (one long, one exit): not sampled. Longs and exits alternate.
      for (let round = -2; round < rounds; round += 1) {
        const action = (round + 2) % 2 === 0 ? 'long' : 'exit';
        const before = (
          await c.query(`SELECT count(*)::int AS n FROM orders WHERE role = 'entry' AND status = 'filled'`)
        ).rows[0].n;
        const cpu0 = { kairos: cpuMs(kairos.child.pid), postgres: postgresCpuMs(dataDir) };
        const t0 = Date.now();
        await api(base, 'POST', `/webhooks/${fan.strategyKey}`, {
          secret: fan.webhookSecret,
          action,
          id: `${fan.id}-${round}`,
        });
        // Polled slowly: the count scans every order, and polling it fast would load the machine under test. An
        // exit is done when its alert is (below): a take profit or a stop may have closed some trades first.
        while (action === 'long') {
          const { rows: r } = await c.query(
            `SELECT count(*)::int AS n FROM orders WHERE role = 'entry' AND status = 'filled'`,
          );
          if (r[0].n - before >= botCount) break;
          if (Date.now() - t0 > 120_000) throw new Error(`fan-out stuck at ${r[0].n - before}/${botCount}`);
          await new Promise((res) => setTimeout(res, 100));
        }
        if (action === 'long' && round >= 0) {
          // The times are the rows' own (same clock): "sent" is when the venue took the last entry of this
          // alert (the paper venue's own record of the order); "filled" is when Kairos recorded it filled.
          const { rows: r } = await c.query(
            `SELECT (extract(epoch FROM max(p.created_at)) * 1000)::float8 AS sent,
                    (extract(epoch FROM max(o.updated_at)) * 1000)::float8 AS filled
             FROM orders o JOIN paper_orders p
               ON p.account_id = o.trading_account_id AND p.client_order_id = o.client_order_id
             WHERE o.role = 'entry' AND o.status = 'filled' AND o.created_at >= $1`,
            [new Date(t0)],
          );
          sent.push(r[0].sent - t0);
          filled.push(r[0].filled - t0);
        }
        // wait for the alert to settle before the next round
        for (;;) {
          const { rows: r } = await c.query(
            `SELECT count(*)::int AS n FROM alerts WHERE status IN ('queued','in_progress')`,
          );
          if (r[0].n === 0) break;
          await new Promise((res) => setTimeout(res, 20));
        }
        if (action === 'long' && round >= 0 && extra.takeProfits) {
          // When the venue took the last take-profit order and the last stop of this alert's trades (both
          // follow the entries); the stop rests on the venue on futures (issue 18).
          const { rows: r } = await c.query(
            `SELECT (extract(epoch FROM max(p.created_at)) * 1000)::float8 AS at,
                    (SELECT (extract(epoch FROM max(ps.created_at)) * 1000)::float8
                     FROM venue_stops s JOIN paper_stops ps
                       ON ps.account_id = s.trading_account_id AND ps.client_order_id = s.client_order_id
                     WHERE s.created_at >= $1) AS stop,
                    (SELECT count(*)::int FROM venue_stops s
                     WHERE s.created_at >= $1 AND s.status = 'open') AS stops
             FROM orders o JOIN paper_orders p
               ON p.account_id = o.trading_account_id AND p.client_order_id = o.client_order_id
             WHERE o.role LIKE 'tp%' AND o.created_at >= $1`,
            [new Date(t0)],
          );
          // BENCH_DEBUG=1: where the time went — when the take-profit rows were written, the stops written and
          // acknowledged (first / median / last, ms after the alert).
          if (process.env.BENCH_DEBUG) {
            console.log(await setUpSpread(c, t0));
            // CPU the alert cost (less sensitive to other load than the times): Kairos' process and its database.
            const used = (now, before) =>
              now === null || before === null ? 'n/a' : `${((now - before) / 1000).toFixed(2)} s`;
            console.log(
              `    CPU: Kairos ${used(cpuMs(kairos.child.pid), cpu0.kairos)}, PostgreSQL ${used(postgresCpuMs(dataDir), cpu0.postgres)}`,
            );
          }
          if (r[0].at === null)
            throw new Error('no take-profit order of the ladder strategy reached the venue');
          if (marketType === 'future' && r[0].stops < botCount)
            throw new Error(`${r[0].stops}/${botCount} stops rest on the venue`);
          ladders.push(Math.max(r[0].at, r[0].stop ?? 0) - t0);
        }
      }
      return { fan, sent, filled, ladders };
    }
    const seconds = (list, p) => `${(percentile(list, p) / 1000).toFixed(2)} s`;
    /** The plain fan-out's strategy: the later figures' bots follow it. */
    let fan = READS_ONLY ? strategy : undefined;
    if (!LADDER_ONLY && !READS_ONLY) {
      const plain = await fanOut('Fan-out', {}, QUICK ? 2 : botCount >= 10_000 ? 4 : 10);
      const samples = plain.sent;
      fan = plain.fan;
      const p95 = percentile(samples, 95);
      record(
        `alert → every entry order sent (taken by the venue), ${botCount} bots on paper venues (${samples.length} alerts)`,
        botCount === 1000 ? 'p95 < 2 s' : botCount === 10_000 ? '< 15 s' : 'info (quick run)',
        `p50 ${seconds(samples, 50)}, p95 ${seconds(samples, 95)}`,
        botCount === 1000 ? p95 < 2000 : botCount === 10_000 ? p95 < 15_000 : undefined,
      );
      record(
        `alert → every entry recorded filled in Kairos, ${botCount} bots`,
        'info',
        `p50 ${seconds(plain.filled, 50)}, p95 ${seconds(plain.filled, 95)}`,
      );
    }
    if (botCount === 1000 && !READS_ONLY) {
      // The same with what most strategies have: a take-profit ladder (two levels) and a stop-loss, on futures
      // accounts (the stop rests on the venue, issue 18). Each entry is then followed by its ladder's resting
      // orders and its venue stop, and the bots' accounts hold resting orders.
      const ladder = await fanOut(
        'Fan-out ladder',
        {
          takeProfits: [
            { percent: '2', sizePercent: '50' },
            { percent: '4', sizePercent: '50' },
          ],
          stopLossPercent: '5',
        },
        // Even: the last round is an exit, so no ladder rests while the later figures are measured.
        4,
        'future',
      );
      record(
        `alert → every entry order sent, ${botCount} bots, strategy with a 2-level take-profit ladder and a stop (${ladder.sent.length} alerts)`,
        'info',
        `p50 ${seconds(ladder.sent, 50)}, p95 ${seconds(ladder.sent, 95)}`,
      );
      record(
        `alert → every take-profit order and venue stop resting, the same ${botCount} bots (futures)`,
        'p95 < 3 s',
        `p50 ${seconds(ladder.ladders, 50)}, p95 ${seconds(ladder.ladders, 95)}`,
        percentile(ladder.ladders, 95) < 3000,
      );
    }
    if (ENGINE_ONLY) {
      await c.end();
      return;
    }

    // ── GET /api/bots throughput: a typical user with 10 bots ──
    await waitQuiet(kairos.child.pid);
    const user = await signUp(base, { email: 'trader@kairos.local', password: 'trader-password-long' });
    const own = await api(
      base,
      'POST',
      '/api/trading-accounts',
      { nickname: 'mine', exchange: 'paper' },
      user.apiToken,
    );
    for (let i = 0; i < 10; i += 1) {
      await api(
        base,
        'POST',
        '/api/bots',
        { nickname: `t${i}`, strategyId: fan.id, tradingAccountId: own.id, portfolioPercent: 5 },
        user.apiToken,
      );
    }
    const listRun = (duration) =>
      autocannon({
        url: `${base}/api/bots`,
        connections: 32,
        duration,
        headers: { authorization: `Bearer ${user.apiToken}`, accept: 'application/json' },
      });
    await listRun(2); // warm-up
    const list = await listRun(QUICK ? 5 : 10);
    record(
      `GET /api/bots (user with 10 bots; ${list.non2xx} non-2xx)`,
      '> 3,000 req/s',
      `${Math.round(list.requests.average)} req/s, p99 ${list.latency.p99} ms`,
      list.requests.average > 3000 && list.non2xx === 0,
    );
    // ── GET /api/dashboard over 1,000,000 trades (one very busy user, a year of history) ──
    const tradeCount = QUICK ? 100_000 : 1_000_000;
    const heavy = await signUp(base, { email: 'heavy@kairos.local', password: 'heavy-password-long' });
    const heavyAccounts = [];
    for (let i = 0; i < 5; i += 1) {
      heavyAccounts.push(
        (
          await api(
            base,
            'POST',
            '/api/trading-accounts',
            { nickname: `h${i}`, exchange: 'paper' },
            heavy.apiToken,
          )
        ).id,
      );
    }
    const heavyBots = [];
    for (let i = 0; i < 20; i += 1) {
      heavyBots.push(
        (
          await api(
            base,
            'POST',
            '/api/bots',
            {
              nickname: `h${i}`,
              strategyId: fan.id,
              tradingAccountId: heavyAccounts[i % 5],
              fixedAmount: 10,
            },
            heavy.apiToken,
          )
        ).id,
      );
    }
    const seedStart = performance.now();
    // A bulk load skips row triggers (live events, rollups, the ledger's); the rollups are then rebuilt in one
    // statement each.
    await c.query('BEGIN');
    await c.query(`SET LOCAL session_replication_role = replica`);
    await c.query(
      `INSERT INTO trades (user_id, bot_id, trading_account_id, symbol, side, status, quantity, entry_price, exit_price,
                           realised_pnl, entry_notional, opened_at, closed_at)
       SELECT $1, ($2::uuid[])[1 + (g % 20)], ($3::uuid[])[1 + (g % 5)], 'BTC/USDT', 'long', 'closed', '0.01', '60000', '60100',
              round((random() * 20 - 9)::numeric, 2), 600, now() - (g * $4::interval) - interval '1 hour', now() - (g * $4::interval)
       FROM generate_series(1, $5::int) g`,
      [
        heavy.user.id,
        heavyBots,
        heavyAccounts,
        `${Math.floor((365 * 86400) / tradeCount)} seconds`,
        tradeCount,
      ],
    );
    await c.query(
      `INSERT INTO balance_snapshots (user_id, trading_account_id, equity, at)
       SELECT $1, a, 10000 + (random() * 500)::numeric(12,2), now() - (h * interval '1 hour')
       FROM unnest($2::uuid[]) a, generate_series(1, 24 * 365) h`,
      [heavy.user.id, heavyAccounts],
    );
    // Each closed trade's PnL booked in the ledger, as its close would have (issue 19: the dashboard reads it).
    await c.query(
      `INSERT INTO ledger_events (user_id, trade_id, kind, amount, currency, effective_at, booked_at)
       SELECT user_id, id, 'realised_pnl', realised_pnl, 'USDT', closed_at, closed_at
       FROM trades WHERE user_id = $1 AND status = 'closed'`,
      [heavy.user.id],
    );
    await c.query('COMMIT');
    await c.query('SELECT kairos_rebuild_trade_rollup()');
    await c.query('SELECT kairos_rebuild_ledger_pnl_rollup()');
    await c.query('VACUUM ANALYZE trades');
    await c.query('VACUUM ANALYZE trade_pnl_hourly');
    await c.query('VACUUM ANALYZE ledger_events');
    await c.query('VACUUM ANALYZE ledger_pnl_hourly');
    await c.query('ANALYZE balance_snapshots');
    console.log(
      `  (seeded ${tradeCount} trades in ${((performance.now() - seedStart) / 1000).toFixed(1)} s)`,
    );
    const timings = [];
    const dashboardRun = async (n) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < n) {
            next += 1;
            const t0 = performance.now();
            const res = await fetch(`${base}/api/dashboard`, {
              headers: { authorization: `Bearer ${heavy.apiToken}`, accept: 'application/json' },
            });
            await res.arrayBuffer();
            if (res.status !== 200) throw new Error(`dashboard answered ${res.status}`);
            timings.push(performance.now() - t0);
          }
        }),
      );
    };
    await dashboardRun(40); // warm-up
    timings.length = 0;
    await dashboardRun(QUICK ? 200 : 500);
    const dp95 = percentile(timings, 95);
    record(
      `GET /api/dashboard, all sections, last 30 days, user with ${tradeCount.toLocaleString('en-US')} trades`,
      'p95 < 100 ms',
      `p50 ${percentile(timings, 50).toFixed(1)} ms, p95 ${dp95.toFixed(1)} ms`,
      tradeCount === 1_000_000 ? dp95 < 100 : undefined,
    );
    await c.end();
    if (READS_ONLY) return;

    // ── duplicate orders after a worker SIGKILLed mid fan-out (api + worker processes of its own) ──
    await crashBench({ quick: QUICK, record });
    // ── price through a stop → its exit at the venue, 10,000 watched trades (in-process, its own database) ──
    await stopReactionBench({ quick: QUICK, record });
    // ── the lifecycle fault matrix (its own test apps and databases) ──
    if (!QUICK) faultMatrix();
  } finally {
    await kairos.stop();
    await db.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    printTable();
  }
}

/**
 * The lifecycle fault matrix (DESIGN §6, §10): apps/server/test/engine/fault-matrix.test.ts run on its own
 * (every venue column: paper, and the Binance, Bybit and OKX protocol servers through ccxt, spot and
 * futures), its steps × faults table printed, and one figure: cells whose invariant held, cells not exercised
 * (the step makes no such call), cells failed.
 */
function faultMatrix() {
  const out = path.join(os.tmpdir(), `kairos-fault-matrix-${process.pid}.json`);
  const run = spawnSync(
    'npx',
    ['vitest', 'run', 'apps/server/test/engine/fault-matrix.test.ts', '--reporter=dot'],
    { cwd: root, stdio: 'inherit', env: { ...process.env, FAULT_MATRIX_OUT: out } },
  );
  if (!fs.existsSync(out)) {
    record('lifecycle fault matrix', '0 failed cells', `did not run (exit ${run.status})`, false);
    return;
  }
  const { results, table } = JSON.parse(fs.readFileSync(out, 'utf8'));
  fs.rmSync(out, { force: true });
  console.log(table);
  const failed = results.filter((r) => !r.ok);
  const exercised = results.filter((r) => r.ok && r.exercised).length;
  const venues = new Set(results.map((r) => r.venue)).size;
  record(
    `lifecycle fault matrix (${results.length} cells on ${venues} venue columns): stranded, doubled or mismatched`,
    '0 failed cells',
    `${failed.length} failed, ${exercised} held, ${results.length - exercised - failed.length} not exercised`,
    failed.length === 0 && run.status === 0,
  );
}

/** When a ladder fan-out's set-ups happened: first / median / last write of each kind, ms after `t0`. */
async function setUpSpread(c, t0) {
  const spread = (what, column, from) =>
    `SELECT '${what}' AS what, ${['min', 'mid', 'max']
      .map((p) => {
        const at = p === 'mid' ? `percentile_disc(0.5) WITHIN GROUP (ORDER BY ${column})` : `${p}(${column})`;
        return `(extract(epoch FROM ${at}) * 1000)::float8 - $2 AS ${p}`;
      })
      .join(', ')} FROM ${from}`;
  const { rows } = await c.query(
    [
      spread('take-profit rows', 'created_at', `orders WHERE role LIKE 'tp%' AND created_at >= $1`),
      spread('stops written', 'created_at', 'venue_stops WHERE created_at >= $1'),
      spread('stops acknowledged', 'updated_at', 'venue_stops WHERE created_at >= $1'),
    ].join(' UNION ALL '),
    [new Date(t0), t0],
  );
  const ms = (v) => Math.round(v);
  return rows.map((r) => `    ${r.what}: ${ms(r.min)} / ${ms(r.mid)} / ${ms(r.max)} ms`).join('\n');
}

function printTable() {
  console.log('\n| figure | target | measured | result |\n|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.figure} | ${r.target} | ${r.measured} | ${r.pass} |`);
}

/**
 * CPU time (ms) the embedded PostgreSQL of `dataDir` has used so far: its postmaster and every process it
 * started, live or exited. Null on a
 * shared server (DATABASE_URL) or off Linux.
 */
function postgresCpuMs(dataDir) {
  try {
    const postmaster = fs
      .readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')
      .split('\n')[0]
      .trim();
    // The postmaster's own time and its exited children's (it waits for them), then the live ones'.
    const fields = fs.readFileSync(`/proc/${postmaster}/stat`, 'utf8').split(') ')[1].split(' ');
    let total =
      ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1000) / 100;
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        if (fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1] === postmaster)
          total += cpuMs(pid) ?? 0;
      } catch {
        // exited meanwhile
      }
    }
    return total;
  } catch {
    return null;
  }
}

/** CPU time (ms) a process has used so far, from /proc (Linux); null elsewhere. */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/**
 * Waits until the server has finished what an earlier step left it doing (balance refreshes after a
 * fan-out closed 1,000 trades, paper matching): under 10% of a core over a second, 30 s at most.
 */
async function waitQuiet(pid) {
  for (let i = 0; i < 30; i += 1) {
    const before = cpuMs(pid);
    if (before === null) return;
    await new Promise((r) => setTimeout(r, 1000));
    if (cpuMs(pid) - before < 100) return;
  }
}

/** The database the bench server uses (embedded: read its port and password from the data dir). */
async function dbUrl(_base, env) {
  return env.DATABASE_URL ?? embeddedUrl(env.KAIROS_DATA_DIR);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
