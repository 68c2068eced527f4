import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp, serverOptions } from '../../src/app';
import type { AppDeps } from '../../src/composition';
import { loadConfig, type AppConfig, type VenueUrls } from '../../src/config';
import { createTestDatabase, liftQuotas, type TestDatabase } from './db';
import { TEST_ADMIN_SETUP_TOKEN } from './users';

export type TestApp = { app: FastifyInstance; db: TestDatabase; config: AppConfig; close(): Promise<void> };

export type TestAppOptions = {
  webDist?: string | null;
  /** The app's own pino logger (same level and redaction as production) written to this stream. */
  logStream?: Writable;
  /** ccxt pointed at protocol test servers (`BinanceTestServer.venueUrls()`), through KAIROS_VENUE_URLS. */
  venueUrls?: VenueUrls;
  venueTimeoutMs?: AppDeps['venueTimeoutMs'];
  /** The operator's default caps per user instead of the lifted ones tests get (see `liftQuotas`). */
  keepQuotas?: boolean;
};

/** The real app on a fresh database, driven with `inject`. */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: TestAppOptions = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  if (!opts.keepQuotas) await liftQuotas(db);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kairos-app-'));
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    KAIROS_DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    KAIROS_ADMIN_SETUP_TOKEN: TEST_ADMIN_SETUP_TOKEN,
    // A test drives one user far faster than a person: the per-user budget (issue 20) is lifted unless a test
    // sets it (test/security/quotas.test.ts).
    KAIROS_USER_READ_LIMIT: '1000000',
    KAIROS_USER_WRITE_LIMIT: '1000000',
    ...venueUrlsEnv(opts.venueUrls),
    ...env,
  });
  const overrides: FastifyServerOptions = {};
  if (opts.logStream) {
    const logger = serverOptions(config).logger as Exclude<FastifyServerOptions['logger'], boolean>;
    overrides.logger = { ...logger, stream: opts.logStream };
  }
  const app = await buildApp(
    {
      config,
      db,
      webDist: opts.webDist ?? null,
      venueTimeoutMs: opts.venueTimeoutMs,
    },
    overrides,
  );
  await app.ready();
  return {
    app,
    db,
    config,
    async close() {
      await app.close();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The environment that points ccxt at test servers: the operator's own KAIROS_VENUE_URLS, no test-only path. */
export function venueUrlsEnv(venueUrls: VenueUrls | undefined): Record<string, string> {
  return venueUrls ? { KAIROS_VENUE_URLS: JSON.stringify(venueUrls) } : {};
}
