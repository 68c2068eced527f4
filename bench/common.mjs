// What bench/run.mjs and bench/crash.mjs share: Kairos processes, throw-away databases and HTTP calls.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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
export function startKairos(env, logFile) {
  const out = logFile ? fs.openSync(logFile, 'a') : undefined;
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: out === undefined ? ['ignore', 'ignore', 'inherit'] : ['ignore', out, out],
  });
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
        new Promise((r) => (timer = setTimeout(() => r('timeout'), 30_000))),
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
 * `botCount` active bots on one strategy, 10 per paper account, fixed 50 USDT entries, made through the API
 * (4 calls at a time). Returns the accounts.
 */
export async function createPaperBots(base, token, strategyId, botCount, prefix) {
  const accounts = [];
  await inParallel(
    Array.from({ length: Math.ceil(botCount / 10) }, (_, i) => i),
    4,
    async (i) => {
      accounts[i] = await api(
        base,
        'POST',
        '/api/trading-accounts',
        { nickname: `${prefix}-${i}`, exchange: 'paper' },
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
