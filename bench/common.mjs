// What bench/run.mjs and bench/crash.mjs share: Kairos processes, throw-away databases and HTTP calls.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The `p`-th percentile (nearest rank) of `values`. */
export const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

export const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** Milliseconds until `base` answers /healthz with 200. */
export async function waitHealthy(base, timeoutMs = 60_000) {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) return Date.now() - t0;
    } catch {
      /* not yet */
    }
    await sleep(50);
  }
  throw new Error(`${base} never became healthy`);
}

/** A throw-away database on DATABASE_URL's server, or none (embedded PostgreSQL in the data dir). */
export async function throwAwayDatabase(prefix) {
  if (!process.env.DATABASE_URL) return { env: {}, drop: async () => {} };
  const name = `${prefix}_${Date.now().toString(36)}`;
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

/** The embedded cluster a Kairos process started in the data dir (port and password from its files). */
export function embeddedUrl(dataDir) {
  const pid = fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n');
  const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  return `postgres://kairos:${encodeURIComponent(password)}@127.0.0.1:${pid[3]}/kairos`;
}

/**
 * `npm start`'s entry as its own process. Its output goes to `logFile` when given (read back when something
 * looks wrong), else its errors to this process's stderr.
 */
/** The webhook limits lifted (issue 20): a bench sends one strategy many alerts, from one address. */
export const UNLIMITED_WEBHOOKS = {
  KAIROS_WEBHOOK_LIMIT: '1000000',
  KAIROS_WEBHOOK_ADDRESS_LIMIT: '1000000',
  KAIROS_WEBHOOK_QUEUE_CAP: '1000000',
  // And the per-user request budget: one bench user reads its bots list thousands of times a second.
  KAIROS_USER_READ_LIMIT: '1000000',
  KAIROS_USER_WRITE_LIMIT: '1000000',
};

export function startKairos(env, logFile) {
  const out = logFile ? fs.openSync(logFile, 'a') : undefined;
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []),
      path.join(root, 'scripts/start.mjs'),
    ],
    {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: out === undefined ? ['ignore', 'ignore', 'inherit'] : ['ignore', out, out],
    },
  );
  if (out !== undefined) fs.closeSync(out);
  const exited = new Promise((r) => child.on('exit', (code, signal) => r(signal ?? code)));
  return {
    child,
    exited,
    logFile,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      // A timer left pending would keep the bench's process alive for 30 s after the table.
      let timer;
      const done = await Promise.race([
        exited,
        // A profiled process writes its profile as it exits: give it time to.
        new Promise(
          (r) => (timer = setTimeout(() => r('timeout'), process.env.BENCH_PROF ? 120_000 : 30_000)),
        ),
      ]);
      clearTimeout(timer);
      if (done === 'timeout') {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/** A JSON call of the API; throws with the server's message on a non-2xx answer. */
export async function api(base, method, url, body, token) {
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

/**
 * A new account, signed in: registration answers without a session (it does not say whether the address had an
 * account, issue 20), so the bench logs in after it. Returns the login's results (user, apiToken, refreshToken).
 */
export async function signUp(base, { email, password, setupToken }) {
  await api(base, 'POST', '/auth/register', {
    email,
    password,
    confirm_password: password,
    ...(setupToken ? { setupToken } : {}),
  });
  return api(base, 'POST', '/auth/login', { email, password });
}

/** Runs `work` over `items`, `limit` at a time. */
export async function inParallel(items, limit, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/**
 * `botCount` active bots on one strategy, fixed 50 USDT entries, made through the API (4 calls at a time): 10
 * per paper spot account, one per futures account (which holds one position per symbol). Returns the accounts.
 */
export async function createPaperBots(base, token, strategyId, botCount, prefix, marketType = 'spot') {
  const accounts = [];
  await inParallel(
    Array.from({ length: Math.ceil(botCount / (marketType === 'future' ? 1 : 10)) }, (_, i) => i),
    4,
    async (i) => {
      accounts[i] = await api(
        base,
        'POST',
        '/api/trading-accounts',
        { nickname: `${prefix}-${i}`, exchange: 'paper', marketType },
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
          nickname: `${prefix}${i}`,
          strategyId,
          tradingAccountId: accounts[i % accounts.length].id,
          fixedAmount: 50,
          isActive: true,
        },
        token,
      );
    },
  );
  return accounts;
}

/**
 * An open-loop load at a steady `rate`: request i is due at start + i / rate, sent then whatever the earlier
 * ones are doing (over keep-alive connections, as many as are needed), and its latency is counted from when
 * it was due — a late send counts against the server, as a client would see it. `body(i)` gives each body.
 * Returns { sent, non2xx, errors, p50, p90, p99, max } in milliseconds.
 */
export async function steadyLoad({ url, rate, seconds, body, headers = {} }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const target = new URL(url);
  const total = Math.round(rate * seconds);
  const latencies = [];
  let non2xx = 0;
  let errors = 0;
  const send = (i, due) =>
    new Promise((resolve) => {
      const payload = body(i);
      const req = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
            ...headers,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - due);
            if (res.statusCode < 200 || res.statusCode > 299) non2xx += 1;
            resolve();
          });
          // A body cut short ends no request: counted as an error, never waited on.
          res.on('aborted', fail);
          res.on('error', fail);
        },
      );
      let failed = false;
      function fail() {
        if (failed) return;
        failed = true;
        errors += 1;
        resolve();
      }
      req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
      req.on('error', fail);
      req.end(payload);
    });
  const start = performance.now() + 20;
  const inFlight = [];
  let i = 0;
  while (i < total) {
    const now = performance.now();
    // Everything due by now goes out at once (timers are coarser than the spacing at high rates).
    while (i < total && start + (i * 1000) / rate <= now) {
      inFlight.push(send(i, start + (i * 1000) / rate));
      i += 1;
    }
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(Math.max(1, Math.floor(wait)));
    else await new Promise((r) => setImmediate(r));
  }
  await Promise.all(inFlight);
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN;
  const ms = (v) => Math.round(v * 10) / 10;
  return {
    sent: total,
    non2xx,
    errors,
    p50: ms(at(0.5)),
    p90: ms(at(0.9)),
    p99: ms(at(0.99)),
    max: ms(at(1)),
  };
}
