// The fault figure of `npm run bench` (DESIGN §5, §10): a worker SIGKILLed in the middle of an alert's
// fan-out, a new worker started, and no bot may end up with a second order. Self-contained: its own
// throw-away database (DATABASE_URL's server, or embedded PostgreSQL owned by the api process), a Kairos
// process with KAIROS_ROLE=api taking the webhook and a separate KAIROS_ROLE=worker process doing the work.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ADMIN_EMAIL = 'crash@kairos.local';
/** Where the kill lands, as a share of the bots whose entry (or exit) order exists, round after round. */
const KILL_AT = [0.3, 0.5, 0.7];
/** The kills the figure needs, in this order; each action alternates with the previous one. */
const KILLS = ['long', 'exit', 'long'];
/** Rounds whose kill came too late (the fan-out was over) are run again, this many rounds at most. */
const MAX_ROUNDS = 9;
/** The alert lease (KAIROS_ALERT_LEASE_SECONDS' default): how long a dead worker's alert stays its own. */
const LEASE_SECONDS = 15;

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** A throw-away database on DATABASE_URL's server, or none (embedded PostgreSQL in the data dir). */
async function throwAwayDatabase() {
  if (!process.env.DATABASE_URL) return { env: {}, drop: async () => {} };
  const name = `kairos_crash_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(process.env.DATABASE_URL);
  u.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: u.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** The embedded cluster the api process started in the data dir (port and password from its files). */
function embeddedUrl(dataDir) {
  const pid = fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n');
  const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  return `postgres://kairos:${encodeURIComponent(password)}@127.0.0.1:${pid[3]}/kairos`;
}

/** `npm start`'s entry as its own process; its log goes to a file (read back when something looks wrong). */
function startKairos(env, logFile) {
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const exited = new Promise((r) => child.on('exit', (code, signal) => r(signal ?? code)));
  return {
    child,
    exited,
    logFile,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const done = await Promise.race([exited, sleep(30_000).then(() => 'timeout')]);
      if (done === 'timeout') {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

async function waitHealthy(base, timeoutMs = 120_000) {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) return Date.now() - t0;
    } catch {
      /* not yet */
    }
    await sleep(50);
  }
  throw new Error('the api process never became healthy');
}

async function api(base, method, url, body, token) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${json.message}`);
  return json.results;
}

/** Runs `work` over `items`, `limit` at a time. */
async function inParallel(items, limit, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** Warnings and errors a process logged (pino levels 40+), by message. */
function loggedProblems(file) {
  const counts = new Map();
  if (!fs.existsSync(file)) return counts;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let msg = line.slice(0, 200);
    try {
      const entry = JSON.parse(line);
      if (entry.level < 40) continue;
      msg = `${entry.level >= 50 ? 'error' : 'warn'}: ${entry.msg}`;
    } catch {
      // Not JSON: npm's and the build's chatter, or a crash trace (kept).
      if (!/error/i.test(line)) continue;
    }
    counts.set(msg, (counts.get(msg) ?? 0) + 1);
  }
  return counts;
}

/**
 * Kills the worker mid fan-out, 3 times (a long, an exit, a long), and checks in SQL that every bot ended
 * with exactly one order for each alert. Records one figure with `record(figure, target, measured, pass)`;
 * a failure of the bench itself is recorded as a FAIL rather than thrown, so the rest of the table prints.
 */
export async function crashBench({ quick = false, record, bots: botCount = quick ? 200 : 1000 } = {}) {
  const figure = `duplicate orders after killing the worker mid fan-out, ${botCount.toLocaleString('en-US')} bots × ${KILLS.length} kills`;
  const say = (line) => console.log(`  [crash] ${line}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-crash-bench-'));
  fs.chmodSync(dataDir, 0o755);
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-crash-logs-'));
  const db = await throwAwayDatabase();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...db.env, KAIROS_DATA_DIR: dataDir, KAIROS_ADMIN_EMAIL: ADMIN_EMAIL };
  const workers = [];
  let apiProcess;
  let c;
  let keepLogs = false;
  const problems = [];
  const rounds = [];

  try {
    apiProcess = startKairos(
      { ...env, KAIROS_ROLE: 'api', PORT: String(port) },
      path.join(logDir, 'api.log'),
    );
    await waitHealthy(base);
    // Embedded PostgreSQL belongs to the api process: the worker is pointed at it like any database.
    const databaseUrl = db.env.DATABASE_URL ?? embeddedUrl(dataDir);
    c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    const q = async (sql, params = []) => (await c.query(sql, params)).rows;
    const one = async (sql, params = []) => (await q(sql, params))[0];

    /** A worker process; resolves once it has registered its heartbeat (its alert loop starts right after). */
    const startWorker = async () => {
      const w = startKairos(
        {
          ...env,
          KAIROS_ROLE: 'worker',
          DATABASE_URL: databaseUrl,
          KAIROS_ALERT_LEASE_SECONDS: String(LEASE_SECONDS),
        },
        path.join(logDir, `worker-${workers.length + 1}.log`),
      );
      workers.push(w);
      const t0 = Date.now();
      for (;;) {
        const { n } = await one(`SELECT count(*)::int AS n FROM worker_heartbeats WHERE pid = $1`, [
          w.child.pid,
        ]);
        if (n > 0) return { worker: w, upMs: Date.now() - t0 };
        if (w.child.exitCode !== null) throw new Error(`worker exited with ${w.child.exitCode} at start-up`);
        if (Date.now() - t0 > 120_000) throw new Error('worker never started');
        await sleep(50);
      }
    };
    let { worker } = await startWorker();

    // ── bots: N on paper accounts (10 per account), all on one strategy ──
    const setupStart = Date.now();
    const admin = await api(base, 'POST', '/auth/register', {
      email: ADMIN_EMAIL,
      password: 'crash-password-long',
      confirm_password: 'crash-password-long',
    });
    const token = admin.apiToken;
    const strategy = await api(
      base,
      'POST',
      '/api/strategies',
      { nickname: 'Crash', tradeCurrency: 'ETH', timeFrame: '1m', maxLagSeconds: 3600 },
      token,
    );
    const accounts = [];
    await inParallel(
      Array.from({ length: Math.ceil(botCount / 10) }, (_, i) => i),
      4,
      async (i) => {
        accounts[i] = await api(
          base,
          'POST',
          '/api/trading-accounts',
          { nickname: `crash-${i}`, exchange: 'paper' },
          token,
        );
      },
    );
    await inParallel(
      Array.from({ length: botCount }, (_, i) => i),
      4,
      async (i) => {
        await api(
          base,
          'POST',
          '/api/bots',
          {
            nickname: `c${i}`,
            strategyId: strategy.id,
            tradingAccountId: accounts[i % accounts.length].id,
            fixedAmount: 50,
            isActive: true,
          },
          token,
        );
      },
    );
    say(
      `${botCount} bots on ${accounts.length} paper accounts in ${((Date.now() - setupStart) / 1000).toFixed(1)} s`,
    );

    let kills = 0;
    let lastLongAlert;
    for (let round = 0; round < MAX_ROUNDS && kills < KILLS.length; round += 1) {
      const action = round % 2 === 0 ? 'long' : 'exit';
      const role = action === 'long' ? 'entry' : 'exit';
      // An exit closes the trades the last long opened: one exit order per trade.
      const closing =
        action === 'exit'
          ? (await q(`SELECT id FROM trades WHERE alert_id = $1 AND status = 'open'`, [lastLongAlert])).map(
              (r) => r.id,
            )
          : [];
      const venueBefore = (await one(`SELECT count(*)::int AS n FROM paper_orders`)).n;
      const { alertId } = await api(base, 'POST', `/webhooks/${strategy.strategyKey}`, {
        secret: strategy.webhookSecret,
        action,
        id: `crash-${round}`,
      });
      if (action === 'long') lastLongAlert = alertId;
      // This alert's orders so far: placed (the row exists, it may be at the venue) and filled.
      const progressSql =
        action === 'long'
          ? `SELECT count(*)::int AS placed, count(*) FILTER (WHERE o.status = 'filled')::int AS filled
             FROM orders o JOIN trades t ON t.id = o.trade_id WHERE t.alert_id = $1 AND o.role = 'entry'`
          : `SELECT count(*)::int AS placed, count(*) FILTER (WHERE status = 'filled')::int AS filled
             FROM orders WHERE role = 'exit' AND trade_id = ANY($1::uuid[])`;
      const progress = () => one(progressSql, [action === 'long' ? alertId : closing]);

      // Kill once part of the fan-out is at the venue (polled fast: the timing of the kill is what matters).
      const killAt = Math.max(1, Math.floor(botCount * KILL_AT[kills % KILL_AT.length]));
      const t0 = Date.now();
      let stuck = false;
      for (;;) {
        if ((await progress()).placed >= killAt) break;
        if (Date.now() - t0 > 180_000) {
          stuck = true;
          break;
        }
        await sleep(10);
      }
      worker.child.kill('SIGKILL');
      await worker.exited;
      const atKill = await progress();
      const alertAtKill = (await one(`SELECT status FROM alerts WHERE id = $1`, [alertId])).status;
      const outcomesAtKill = (
        await one(`SELECT count(*)::int AS n FROM alert_outcomes WHERE alert_id = $1`, [alertId])
      ).n;
      if (stuck)
        problems.push(
          `${action} alert: only ${atKill.placed}/${botCount} orders after 180 s (before the kill)`,
        );
      const midFanOut = atKill.placed > 0 && atKill.placed < botCount && alertAtKill === 'in_progress';
      say(
        `round ${round + 1} (${action}): killed at ${atKill.placed}/${botCount} ${role} orders placed, ` +
          `${atKill.filled} filled, ${outcomesAtKill} outcomes recorded, alert ${alertAtKill}` +
          (midFanOut ? '' : ' — not mid fan-out, run again'),
      );

      // ── restart: a new worker takes the alert over once its lease has expired ──
      const restartedAt = Date.now();
      const started = await startWorker();
      worker = started.worker;
      let final;
      for (;;) {
        final = await one(
          `SELECT status, attempts, last_error, dead_reason,
                  (extract(epoch FROM finished_at) * 1000)::float8 AS finished
           FROM alerts WHERE id = $1`,
          [alertId],
        );
        if (final.status === 'succeeded' || final.status === 'dead') break;
        if (Date.now() - restartedAt > 300_000) break;
        await sleep(100);
      }
      const recoveryMs = (final.finished ?? Date.now()) - restartedAt;
      // When the new worker took the alert over (the lease of the killed one expired): the rest is the work.
      const takeover = await one(
        `SELECT (extract(epoch FROM min(at)) * 1000)::float8 AS at FROM alert_events
         WHERE alert_id = $1 AND actor = 'system' AND to_status = 'failed'`,
        [alertId],
      );
      const afterTakeoverMs = takeover.at && final.finished ? final.finished - takeover.at : undefined;
      if (final.status !== 'succeeded') {
        problems.push(
          `${action} alert ${alertId} ${final.status} after the restart (attempts ${final.attempts}, ` +
            `${final.dead_reason ?? final.last_error ?? 'no error'})`,
        );
      }

      // ── the books: exactly one order per bot for this alert, all filled, and nothing extra at the venue ──
      let check;
      if (action === 'long') {
        check = await one(
          `WITH per_bot AS (
             SELECT b.id, b.position,
                    (SELECT count(*) FROM trades t WHERE t.alert_id = $1 AND t.bot_id = b.id)::int AS trades,
                    (SELECT count(*) FROM trades t WHERE t.alert_id = $1 AND t.bot_id = b.id AND t.status = 'open')::int AS open,
                    (SELECT count(*) FROM orders o JOIN trades t ON t.id = o.trade_id
                     WHERE t.alert_id = $1 AND t.bot_id = b.id AND o.role = 'entry')::int AS orders,
                    (SELECT count(*) FROM orders o JOIN trades t ON t.id = o.trade_id
                     WHERE t.alert_id = $1 AND t.bot_id = b.id)::int AS all_orders
             FROM bots b WHERE b.strategy_id = $2)
           SELECT coalesce(sum(greatest(orders - 1, 0)), 0)::int AS dup_orders,
                  coalesce(sum(greatest(trades - 1, 0)), 0)::int AS dup_trades,
                  coalesce(sum(all_orders - orders), 0)::int AS other_orders,
                  count(*) FILTER (WHERE orders = 0 OR open <> 1)::int AS missing,
                  count(*) FILTER (WHERE position <> 'long')::int AS wrong_position
           FROM per_bot`,
          [alertId, strategy.id],
        );
      } else {
        check = await one(
          `WITH per_trade AS (
             SELECT t.id, t.status,
                    (SELECT count(*) FROM orders o WHERE o.trade_id = t.id AND o.role = 'exit')::int AS orders,
                    (SELECT count(*) FROM orders o WHERE o.trade_id = t.id AND o.role NOT IN ('entry', 'exit'))::int AS other
             FROM trades t WHERE t.id = ANY($1::uuid[]))
           SELECT coalesce(sum(greatest(orders - 1, 0)), 0)::int AS dup_orders,
                  (SELECT count(*) FROM trades WHERE alert_id = $2)::int AS dup_trades,
                  coalesce(sum(other), 0)::int AS other_orders,
                  count(*) FILTER (WHERE orders = 0 OR status <> 'closed')::int AS missing,
                  (SELECT count(*) FROM bots WHERE strategy_id = $3 AND position <> 'out')::int AS wrong_position
           FROM per_trade`,
          [closing, alertId, strategy.id],
        );
        if (closing.length !== botCount)
          problems.push(`exit round: ${closing.length}/${botCount} open trades to close`);
      }
      const venueOrders = (await one(`SELECT count(*)::int AS n FROM paper_orders`)).n - venueBefore;
      const books = await one(
        `SELECT (SELECT count(*) FROM orders WHERE status <> 'filled')::int AS unsettled,
                (SELECT count(*) FROM orders WHERE last_error IS NOT NULL)::int AS errored,
                (SELECT count(*) FROM trades WHERE status NOT IN ('open', 'closed') OR error IS NOT NULL)::int AS bad_trades,
                (SELECT count(*) FROM orders)::int AS orders,
                (SELECT count(*) FROM paper_orders)::int AS venue,
                (SELECT count(*) FROM paper_orders p LEFT JOIN orders o
                   ON o.trading_account_id = p.account_id AND o.client_order_id = p.client_order_id
                 WHERE o.id IS NULL)::int AS orphans,
                (SELECT count(*) FROM alert_outcomes WHERE alert_id = $1)::int AS outcomes,
                (SELECT count(*) FROM alert_outcomes WHERE alert_id = $1 AND status = $2 AND NOT retryable)::int AS good_outcomes`,
        [alertId, action === 'long' ? 'opened' : 'closed'],
      );
      const history = (
        await q(`SELECT to_status, actor FROM alert_events WHERE alert_id = $1 ORDER BY at`, [alertId])
      ).map((e) => (e.actor === 'system' ? `${e.to_status}(system)` : e.to_status));
      const duplicates =
        check.dup_orders +
        check.dup_trades +
        check.other_orders +
        Math.max(0, venueOrders - botCount) +
        books.orphans;
      const label = `${action} alert`;
      if (duplicates > 0)
        problems.push(
          `${label}: ${duplicates} duplicates (orders ${check.dup_orders}, trades ${check.dup_trades}, ` +
            `other orders ${check.other_orders}, venue orders ${venueOrders}/${botCount}, orphans ${books.orphans})`,
        );
      if (check.missing > 0)
        problems.push(`${label}: ${check.missing} bots without their ${role} order or trade`);
      if (venueOrders < botCount)
        problems.push(`${label}: only ${venueOrders}/${botCount} orders at the venue`);
      if (check.wrong_position > 0)
        problems.push(`${label}: ${check.wrong_position} bots in the wrong position`);
      if (books.unsettled > 0)
        problems.push(`${label}: ${books.unsettled} orders not filled (pending/unknown)`);
      if (books.errored > 0) problems.push(`${label}: ${books.errored} orders with an error`);
      if (books.bad_trades > 0) problems.push(`${label}: ${books.bad_trades} trades in error or mid-close`);
      if (books.orders !== books.venue)
        problems.push(`${label}: ${books.orders} orders in Kairos, ${books.venue} at the venue`);
      if (books.good_outcomes !== botCount) {
        const others = await q(
          `SELECT status, message, retryable, count(*)::int AS n FROM alert_outcomes
           WHERE alert_id = $1 AND NOT (status = $2 AND NOT retryable) GROUP BY 1, 2, 3`,
          [alertId, action === 'long' ? 'opened' : 'closed'],
        );
        problems.push(
          `${label}: ${books.good_outcomes}/${botCount} bots with outcome ${action === 'long' ? 'opened' : 'closed'} ` +
            `(${books.outcomes} outcomes; others: ${others.map((o) => `${o.n} × ${o.status}${o.retryable ? ' (retryable)' : ''} "${o.message}"`).join(', ')})`,
        );
      }
      say(
        `  after the restart: alert ${final.status} in ${(recoveryMs / 1000).toFixed(1)} s, ` +
          `${afterTakeoverMs === undefined ? '?' : (afterTakeoverMs / 1000).toFixed(1)} s after the takeover (worker up in ` +
          `${(started.upMs / 1000).toFixed(1)} s; ${history.join(' → ')}); duplicates ${duplicates}, ` +
          `missing ${check.missing}, unsettled ${books.unsettled}`,
      );
      rounds.push({
        action,
        midFanOut,
        atKill,
        outcomesAtKill,
        recoveryMs,
        afterTakeoverMs,
        duplicates,
        status: final.status,
      });
      if (midFanOut && action === KILLS[kills]) kills += 1;
      if (final.status !== 'succeeded') break; // the books of a stuck alert say nothing about the next one
    }

    const killed = rounds.filter((r) => r.midFanOut);
    const duplicates = rounds.reduce((n, r) => n + r.duplicates, 0);
    if (kills < KILLS.length)
      problems.push(`only ${kills}/${KILLS.length} kills landed mid fan-out in ${rounds.length} rounds`);
    const s = (ms) => (ms / 1000).toFixed(1);
    const measured =
      `${duplicates} duplicates; bots done at the kill ${killed.map((r) => r.atKill.filled).join(', ')} of ` +
      `${botCount.toLocaleString('en-US')} (orders placed ${killed.map((r) => r.atKill.placed).join(', ')}); ` +
      `restart → alert done ${killed.map((r) => s(r.recoveryMs)).join(', ')} s (lease ${LEASE_SECONDS} s; ` +
      `takeover → done ${killed.map((r) => (r.afterTakeoverMs === undefined ? '?' : s(r.afterTakeoverMs))).join(', ')} s)` +
      (problems.length ? `; PROBLEMS: ${problems.join('; ')}` : '');
    record(figure, '0', measured, duplicates === 0 && problems.length === 0);
    keepLogs = problems.length > 0;
    return { duplicates, rounds, problems };
  } catch (e) {
    keepLogs = true;
    problems.push(e instanceof Error ? e.message : String(e));
    record(figure, '0', `bench failed: ${problems.join('; ')}`, false);
    return { duplicates: undefined, rounds, problems };
  } finally {
    await c?.end().catch(() => {});
    // The worker first: with embedded PostgreSQL the api process owns the cluster.
    for (const w of workers) await w.stop();
    await apiProcess?.stop();
    await db.drop().catch((e) => console.error(`  [crash] could not drop the database: ${e.message}`));
    fs.rmSync(dataDir, { recursive: true, force: true });
    const logged = new Map();
    for (const f of fs.readdirSync(logDir))
      for (const [msg, n] of loggedProblems(path.join(logDir, f))) logged.set(`${f}: ${msg}`, n);
    if (logged.size > 0) {
      say('logged by the Kairos processes:');
      for (const [msg, n] of logged) say(`  ${n} × ${msg}`);
    }
    if (keepLogs) say(`logs kept in ${logDir}`);
    else fs.rmSync(logDir, { recursive: true, force: true });
  }
}
