import path from 'node:path';
import pino from 'pino';
import type PgBoss from 'pg-boss';
import { buildApp } from './app';
import { createServices } from './composition';
import { ConfigError, loadConfig, type AppConfig } from './config';
import { connectDatabase, type DbHandle } from './db/client';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded-postgres';
import { runMigrations } from './db/migrate';
import { createBoss } from './jobs/boss';
import { startWorker, type Worker } from './worker';

let config: AppConfig;
try {
  config = loadConfig();
} catch (e) {
  if (e instanceof ConfigError) {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
  throw e;
}

const log = pino({ level: config.logLevel, base: { role: config.role } });
const startedAt = performance.now();

let embedded: EmbeddedPostgres | undefined;
let db: DbHandle | undefined;
let boss: PgBoss | undefined;
let worker: Worker | undefined;
let http: Awaited<ReturnType<typeof buildApp>> | undefined;
let stopping: Promise<void> | undefined;

/** Stop accepting, finish in-flight requests and jobs, close the pool, stop embedded PostgreSQL. */
async function shutdown(signal: string, code = 0): Promise<void> {
  if (stopping) return stopping;
  log.info({ signal }, 'shutting down');
  stopping = (async () => {
    // A stop during start-up waits for it, so nothing started half-way (a LISTEN connection) is left behind.
    await Promise.race([starting.catch(() => {}), new Promise((r) => setTimeout(r, 20_000))]);
    await http?.close().catch((e) => log.error({ err: e }, 'closing http'));
    await worker?.stop().catch((e) => log.error({ err: e }, 'stopping worker'));
    await boss
      ?.stop({ graceful: true, wait: true, timeout: 20_000 })
      .catch((e) => log.error({ err: e }, 'stopping queue'));
    await db?.close().catch((e) => log.error({ err: e }, 'closing pool'));
    await embedded?.stop().catch((e) => log.error({ err: e }, 'stopping PostgreSQL'));
    log.info('stopped');
    process.exit(code);
  })();
  return stopping;
}

process.on('SIGINT', () => {
  if (stopping) process.exit(130); // a second Ctrl-C forces the exit
  void shutdown('SIGINT');
});
process.on('SIGTERM', () => void shutdown('SIGTERM'));

async function main() {
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(config.dataDir, 'pg'),
      log: (line) => log.info({ component: 'embedded-postgres' }, line),
    });
    databaseUrl = embedded.url;
  }
  db = connectDatabase(databaseUrl, {
    onError: (e) => {
      if (!stopping) log.warn({ err: e }, 'database connection lost');
    },
  });
  await runMigrations(db);

  const runsWorker = config.role === 'worker' || config.role === 'all';
  boss = createBoss(
    databaseUrl,
    runsWorker ? 'consumer' : 'producer',
    (e) => {
      if (!stopping) log.error({ err: e }, 'queue error');
    },
    {
      onSlowJob: ({ queue, runningMs, ended }) =>
        log.warn({ queue, runningMs }, ended ? 'slow job ended' : 'job still running'),
    },
  );
  await boss.start();

  const services = createServices({ config, db }, log);
  // Issue 20: values sealed before v2 are bound to their table, column and row before anything reads them.
  await services.secrets.resealLegacy();
  if (config.role !== 'worker') {
    http = await buildApp({ config, db, services });
    await http.listen({ port: config.port, host: config.host });
  }
  if (runsWorker) {
    worker = await startWorker({ db, boss, log, services, config });
  }
  log.info(
    {
      port: config.role === 'worker' ? undefined : config.port,
      role: config.role,
      embedded: Boolean(embedded),
    },
    `Kairos ready in ${Math.round(performance.now() - startedAt)} ms`,
  );
}

const starting = main();
starting.catch((e) => {
  log.fatal({ err: e }, e instanceof Error ? e.message : 'start-up failed');
  void shutdown('startup-failure', 1);
});
