import { TEST_ADMIN_SETUP_TOKEN } from './users';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import type { AppDeps } from '../../src/composition';
import { loadConfig, type VenueUrls } from '../../src/config';
import { startAlertWorker } from '../../src/engine/alert-worker';
import { venueUrlsEnv } from './app';
import { createTestDatabase, liftQuotas, type TestDatabase } from './db';
import { bearer, type Session } from './users';

export type TradesApp = {
  app: FastifyInstance;
  db: TestDatabase;
  dataDir: string;
  /** Stops the app (and its monitor); the database and data dir stay unless `drop`. */
  close(options?: { drop?: boolean }): Promise<void>;
};

/**
 * The real app for trade stories: optionally on an existing database and data dir (a restart), with a
 * paper venue override (scripted market) and ccxt pointed at a protocol test server. `monitor: true`
 * also runs what the worker runs for trades (fill events, reconciliation, stop-loss watch, the paper
 * matching tick) at test speed.
 */
export async function startTradesApp(
  options: {
    db?: TestDatabase;
    dataDir?: string;
    monitor?: boolean;
    venueUrls?: VenueUrls;
    paperVenueOptions?: AppDeps['paperVenueOptions'];
    /** More settings (e.g. KAIROS_ADMIN_EMAIL). */
    env?: Record<string, string>;
  } = {},
): Promise<TradesApp> {
  const db = options.db ?? (await createTestDatabase());
  await liftQuotas(db);
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-trades-'));
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    KAIROS_DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    ...venueUrlsEnv(options.venueUrls),
    KAIROS_ADMIN_SETUP_TOKEN: TEST_ADMIN_SETUP_TOKEN,
    // The per-user request budget (issue 20) lifted, as in createTestApp: a fault matrix drives one user hard.
    KAIROS_USER_READ_LIMIT: '1000000',
    KAIROS_USER_WRITE_LIMIT: '1000000',
    ...options.env,
  });
  const app = await buildApp({
    config,
    db,
    webDist: null,
    paperVenueOptions: options.paperVenueOptions,
  });
  await app.ready();
  const engine = app.services.engine;
  const monitor = options.monitor
    ? engine.startTradeMonitor({ reconcileIntervalMs: 150, stopLossIntervalMs: 100 })
    : undefined;
  if (options.monitor) app.services.venues.paperVenue.start(100);
  return {
    app,
    db,
    dataDir,
    async close({ drop = true } = {}) {
      app.services.venues.paperVenue.stop();
      await monitor?.stop();
      // The database handle outlives the app: a restarted app is built on the same one.
      await app.close();
      if (drop) {
        await db.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** `inject` as the signed-in user. */
export function asUser(app: FastifyInstance, session: Session) {
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers: bearer(session.apiToken),
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: res.statusCode, body: res.json() };
  };
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, payload: unknown = {}) => call('POST', url, payload),
    put: (url: string, payload: unknown) => call('PUT', url, payload),
    delete: (url: string) => call('DELETE', url),
  };
}

/** Polls `read` until `done` holds (what the user would see after refreshing). */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met in time; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The alert worker on this app (what the worker role runs for signals). */
export function startAlerts(t: TradesApp) {
  return startAlertWorker({
    pool: t.db.pool,
    alerts: t.app.services.repos.alerts,
    process: (alert) => t.app.services.engine.processor.process(alert),
    log: t.app.log,
    options: { workerId: 'trades-test', leaseSeconds: 15, concurrency: 4, pollMs: 50 },
  });
}
