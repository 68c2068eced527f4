// The fault figure of `npm run bench` (DESIGN §5, §10): a worker SIGKILLed in the middle of an alert's
// fan-out and a new worker started, 20 times; no bot may end up with a second order, and no alert may be
// lost. Self-contained: its own throw-away database (DATABASE_URL's server, or embedded PostgreSQL owned by
// the api process), a Kairos process with KAIROS_ROLE=api taking the webhook and a separate KAIROS_ROLE=worker
// process doing the work.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  api,
  createPaperBots,
  embeddedUrl,
  freePort,
  signUp,
  sleep,
  startKairos,
  throwAwayDatabase,
  waitHealthy,
  UNLIMITED_WEBHOOKS,
} from './common.mjs';
const ADMIN_EMAIL = 'crash@kairos.local';
/** Registering the admin email needs the setup token (issue 20). */
const SETUP_TOKEN = 'kst_crash-bench-setup-token';
/** Kills mid fan-out the figure needs (DESIGN §10: repeat 20×); `--quick` makes fewer. */
const KILLS = 20;
const QUICK_KILLS = 6;
/**
 * Kills per alert. An alert is tried 5 times at most (alerts.max_attempts) and each kill uses up a try:
 * after 3 kills the 4th try finishes it, with one try to spare for a venue hiccup.
 */
const KILLS_PER_ALERT = 3;
/** Where the kills of one alert land, as shares of the bots whose entry (or exit) order exists. */
const KILL_AT = { 1: [0.5], 2: [0.3, 0.6], 3: [0.2, 0.45, 0.7] };
/** Rounds (one alert each, long and exit in turn) at most: kills that missed the fan-out are made up for. */
const MAX_ROUNDS = 12;
/**
 * The workers' alert lease (KAIROS_ALERT_LEASE_SECONDS, its minimum): how long the alert of a killed worker
 * stays its own before a live worker takes it over (the default, 15 s, would make the wait most of the run).
 */
const LEASE_SECONDS = 2;

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
 * Kills the worker mid fan-out 20 times — up to 3 times per alert, over alerts long and exit in turn, a new
 * worker started after each kill — and checks in SQL that every bot ended with exactly one order for each
 * alert (duplicates), and that every alert succeeded with every bot's outcome recorded (lost alerts).
 * Records one figure with `record(figure, target, measured, pass)`; a failure of the bench itself is
 * recorded as a FAIL rather than thrown, so the rest of the table prints.
 */
export async function crashBench({
  quick = false,
  record,
  bots: botCount = quick ? 200 : 1000,
  kills: killCount = quick ? QUICK_KILLS : KILLS,
} = {}) {
  const figure =
    `duplicate orders / lost alerts after killing the worker mid fan-out, ` +
    `${botCount.toLocaleString('en-US')} bots × ${killCount} kills (alert lease ${LEASE_SECONDS} s)`;
  const target = '0; lost alerts 0';
  const benchStart = Date.now();
  const say = (line) => console.log(`  [crash] ${line}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-crash-bench-'));
  fs.chmodSync(dataDir, 0o755);
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-crash-logs-'));
  const db = await throwAwayDatabase('kairos_crash');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...db.env,
    KAIROS_DATA_DIR: dataDir,
    KAIROS_ADMIN_EMAIL: ADMIN_EMAIL,
    KAIROS_ADMIN_SETUP_TOKEN: SETUP_TOKEN,
    ...UNLIMITED_WEBHOOKS,
  };
  const workers = [];
  let apiProcess;
  let c;
  let keepLogs = false;
  const problems = [];
  const rounds = [];
  /** Every kill: where it landed, and whether it counts (the killed worker was mid fan-out). */
  const kills = [];

  try {
    apiProcess = startKairos(
      { ...env, KAIROS_ROLE: 'api', PORT: String(port) },
      path.join(logDir, 'api.log'),
    );
    await waitHealthy(base, 120_000);
    // Embedded PostgreSQL belongs to the api process: the worker is pointed at it like any database.
    const databaseUrl = db.env.DATABASE_URL ?? embeddedUrl(dataDir);
    c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    const q = async (sql, params = []) => (await c.query(sql, params)).rows;
    const one = async (sql, params = []) => (await q(sql, params))[0];

    /**
     * A worker process; resolves once it has registered its heartbeat (its alert loop starts right after),
     * with its worker id (what an alert it holds is locked by).
     */
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
        const beat = await one(
          `SELECT worker_id FROM worker_heartbeats WHERE pid = $1 ORDER BY started_at DESC LIMIT 1`,
          [w.child.pid],
        );
        if (beat) return { worker: w, id: beat.worker_id, upMs: Date.now() - t0 };
        if (w.child.exitCode !== null) throw new Error(`worker exited with ${w.child.exitCode} at start-up`);
        if (Date.now() - t0 > 120_000) throw new Error('worker never started');
        await sleep(50);
      }
    };
    let { worker, id: workerId } = await startWorker();

    // ── bots: N on paper accounts (10 per account), all on one strategy ──
    const setupStart = Date.now();
    const admin = await signUp(base, {
      email: ADMIN_EMAIL,
      password: 'crash-password-long',
      setupToken: SETUP_TOKEN,
    });
    const token = admin.apiToken;
    const strategy = await api(
      base,
      'POST',
      '/api/strategies',
      { nickname: 'Crash', tradeCurrency: 'ETH', timeFrame: '1m', maxLagSeconds: 3600 },
      token,
    );
    const accounts = await createPaperBots(base, token, strategy.id, botCount, 'crash');
    say(
      `${botCount} bots on ${accounts.length} paper accounts in ${((Date.now() - setupStart) / 1000).toFixed(1)} s`,
    );

    const alertIds = [];
    let landed = 0;
    let lastLongAlert;
    for (let round = 0; round < MAX_ROUNDS && landed < killCount; round += 1) {
      const action = round % 2 === 0 ? 'long' : 'exit';
      const role = action === 'long' ? 'entry' : 'exit';
      const planned = Math.min(KILLS_PER_ALERT, killCount - landed);
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
      alertIds.push(alertId);
      if (action === 'long') lastLongAlert = alertId;
      // This alert's orders so far: placed (the row exists, it may be at the venue) and filled.
      const progressSql =
        action === 'long'
          ? `SELECT count(*)::int AS placed, count(*) FILTER (WHERE o.status = 'filled')::int AS filled
             FROM orders o JOIN trades t ON t.id = o.trade_id WHERE t.alert_id = $1 AND o.role = 'entry'`
          : `SELECT count(*)::int AS placed, count(*) FILTER (WHERE status = 'filled')::int AS filled
             FROM orders WHERE role = 'exit' AND trade_id = ANY($1::uuid[])`;
      const progress = () => one(progressSql, [action === 'long' ? alertId : closing]);

      // ── kills: the worker SIGKILLed once part of the fan-out is at the venue, and a new one started ──
      const roundKills = [];
      let placedBefore = 0;
      for (const share of KILL_AT[planned]) {
        const killAt = Math.max(1, Math.floor(botCount * share));
        const t0 = Date.now();
        let stuck = false;
        // Polled fast: the timing of the kill is what matters.
        for (;;) {
          if ((await progress()).placed >= killAt) break;
          if (Date.now() - t0 > 180_000) {
            stuck = true;
            break;
          }
          await sleep(10);
        }
        worker.child.kill('SIGKILL');
        const killedAt = Date.now();
        await worker.exited;
        const atKill = await progress();
        const alertAtKill = await one(`SELECT status, locked_by FROM alerts WHERE id = $1`, [alertId]);
        const outcomesAtKill = (
          await one(`SELECT count(*)::int AS n FROM alert_outcomes WHERE alert_id = $1`, [alertId])
        ).n;
        if (stuck)
          problems.push(
            `${action} alert: only ${atKill.placed}/${botCount} orders after 180 s (before a kill)`,
          );
        // A kill counts when the killed worker held the alert and had placed some of its orders, not all.
        const midFanOut =
          alertAtKill.status === 'in_progress' &&
          alertAtKill.locked_by === workerId &&
          atKill.placed > placedBefore &&
          atKill.placed < botCount;
        say(
          `round ${round + 1} (${action}), kill ${kills.length + 1}: at ${atKill.placed}/${botCount} ${role} ` +
            `orders placed (${atKill.placed - placedBefore} by the killed worker), ${atKill.filled} filled, ` +
            `${outcomesAtKill} outcomes recorded, alert ${alertAtKill.status}` +
            (midFanOut ? '' : ' — not mid fan-out: not counted'),
        );
        placedBefore = atKill.placed;
        // ── restart: the new worker takes the alert over once the killed one's lease has expired ──
        const started = await startWorker();
        worker = started.worker;
        workerId = started.id;
        const kill = {
          round,
          action,
          alertId,
          atKill,
          outcomesAtKill,
          midFanOut,
          killedAt,
          upMs: started.upMs,
        };
        kills.push(kill);
        roundKills.push(kill);
        if (midFanOut) landed += 1;
      }

      let final;
      for (;;) {
        final = await one(
          `SELECT status, attempts, last_error, dead_reason,
                  (extract(epoch FROM finished_at) * 1000)::float8 AS finished
           FROM alerts WHERE id = $1`,
          [alertId],
        );
        if (final.status === 'succeeded' || final.status === 'dead') break;
        if (Date.now() - roundKills.at(-1).killedAt > 300_000) break;
        await sleep(100);
      }
      // When a live worker took the alert over after each kill (the killed worker's lease expired).
      const takeovers = (
        await q(
          `SELECT (extract(epoch FROM at) * 1000)::float8 AS at FROM alert_events
           WHERE alert_id = $1 AND actor = 'system' AND to_status = 'failed' ORDER BY at`,
          [alertId],
        )
      ).map((e) => e.at);
      for (const kill of roundKills) {
        const at = takeovers.find((t) => t > kill.killedAt);
        kill.takeoverMs = at === undefined ? undefined : at - kill.killedAt;
      }
      const lastKill = roundKills.at(-1);
      const doneMs = final.finished ? final.finished - lastKill.killedAt : undefined;
      if (final.status !== 'succeeded') {
        problems.push(
          `${action} alert ${alertId} ${final.status} after the restarts (attempts ${final.attempts}, ` +
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
      const s1 = (ms) => (ms === undefined ? '?' : (ms / 1000).toFixed(1));
      say(
        `  alert ${final.status} after ${final.attempts} tries, ${s1(doneMs)} s after the last kill ` +
          `(kill → taken over ${roundKills.map((k) => s1(k.takeoverMs)).join(', ')} s; new worker up in ` +
          `${roundKills.map((k) => s1(k.upMs)).join(', ')} s); duplicates ${duplicates}, ` +
          `missing ${check.missing}, unsettled ${books.unsettled}, outcomes ${books.good_outcomes}/${botCount}`,
      );
      rounds.push({ action, alertId, kills: roundKills.length, doneMs, duplicates, status: final.status });
      if (final.status !== 'succeeded') break; // the books of a stuck alert say nothing about the next one
    }

    // ── lost alerts: every alert sent succeeded (none queued, in progress, failed or dead), every bot's outcome
    //    of each recorded as done, and no alert the bench did not send ──
    const fate = await one(
      `SELECT count(*) FILTER (WHERE a.status = 'succeeded')::int AS succeeded,
              count(*) FILTER (WHERE a.status = 'dead')::int AS dead,
              count(*) FILTER (WHERE a.status NOT IN ('succeeded', 'dead'))::int AS stuck,
              (SELECT count(*) FROM alerts)::int AS alerts,
              (SELECT count(*) FROM alert_outcomes ao JOIN alerts x ON x.id = ao.alert_id
               WHERE x.id = ANY($1::uuid[]) AND NOT ao.retryable
                 AND ao.status = CASE x.action WHEN 'long' THEN 'opened' ELSE 'closed' END)::int AS outcomes
       FROM alerts a WHERE a.id = ANY($1::uuid[])`,
      [alertIds],
    );
    const lost = alertIds.length - fate.succeeded;
    const outcomesWanted = alertIds.length * botCount;
    if (lost > 0)
      problems.push(
        `${lost} alerts lost: ${fate.stuck} stuck (queued, in progress or failed), ${fate.dead} dead`,
      );
    if (fate.alerts !== alertIds.length)
      problems.push(`${fate.alerts} alerts in Kairos, ${alertIds.length} sent`);
    if (fate.outcomes !== outcomesWanted)
      problems.push(`${outcomesWanted - fate.outcomes} bot outcomes missing or not done`);
    if (landed < killCount)
      problems.push(`only ${landed}/${killCount} kills landed mid fan-out in ${rounds.length} alerts`);

    const duplicates = rounds.reduce((n, r) => n + r.duplicates, 0);
    const counted = kills.filter((k) => k.midFanOut);
    const median = (values) => {
      const sorted = values.filter((v) => v !== undefined).sort((a, b) => a - b);
      return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : undefined;
    };
    const s = (ms) => (ms === undefined ? '?' : (ms / 1000).toFixed(1));
    const range = (values) => `${Math.min(...values)}–${Math.max(...values)}`;
    const takeovers = counted.map((k) => k.takeoverMs);
    const longs = rounds.filter((r) => r.action === 'long').length;
    const measured =
      `${duplicates} duplicate orders; lost alerts ${lost} (${fate.succeeded}/${alertIds.length} alerts ` +
      `succeeded, ${fate.stuck} stuck, ${fate.dead} dead; ${fate.outcomes.toLocaleString('en-US')}/` +
      `${outcomesWanted.toLocaleString('en-US')} bot outcomes done); ${counted.length} kills mid fan-out over ` +
      `${rounds.length} alerts (${longs} long, ${rounds.length - longs} exit)` +
      (counted.length
        ? `, at ${range(counted.map((k) => k.atKill.placed))} of ${botCount.toLocaleString('en-US')} orders ` +
          `placed (${range(counted.map((k) => k.atKill.filled))} filled); kill → alert taken over median ` +
          `${s(median(takeovers))} s, max ${s(Math.max(...takeovers.map((v) => v ?? Infinity)))} s ` +
          `(new worker up in median ${s(median(counted.map((k) => k.upMs)))} s)`
        : '') +
      `; ${s(Date.now() - benchStart)} s in all` +
      (problems.length ? `; PROBLEMS: ${problems.join('; ')}` : '');
    const pass = duplicates === 0 && lost === 0 && problems.length === 0;
    record(figure, target, measured, pass);
    keepLogs = !pass;
    return { duplicates, lost, rounds, kills, problems };
  } catch (e) {
    keepLogs = true;
    problems.push(e instanceof Error ? e.message : String(e));
    record(figure, target, `bench failed: ${problems.join('; ')}`, false);
    return { duplicates: undefined, rounds, kills, problems };
  } finally {
    await c?.end().catch(() => {});
    // The worker first: with embedded PostgreSQL the api process owns the cluster.
    for (const w of workers) await w.stop();
    await apiProcess?.stop();
    await db.drop().catch((e) => console.error(`  [crash] could not drop the database: ${e.message}`));
    fs.rmSync(dataDir, { recursive: true, force: true });
    const logged = new Map();
    for (const f of fs.readdirSync(logDir)) {
      // The workers' logs together: one line per message, not one per worker.
      const who = f.startsWith('worker-') ? 'workers' : f.replace(/\.log$/, '');
      for (const [msg, n] of loggedProblems(path.join(logDir, f)))
        logged.set(`${who}: ${msg}`, (logged.get(`${who}: ${msg}`) ?? 0) + n);
    }
    if (logged.size > 0) {
      say('logged by the Kairos processes:');
      for (const [msg, n] of logged) say(`  ${n} × ${msg}`);
    }
    if (keepLogs) say(`logs kept in ${logDir}`);
    else fs.rmSync(logDir, { recursive: true, force: true });
  }
}
